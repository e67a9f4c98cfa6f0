#!/usr/bin/python3
"""A Gantt chart of a photonsim trace (photonsim run/replay --trace FILE.json).
A collective's: a top row with the run's steps (reconfiguration hatched,
start-up light), then one row per egress port of the first GPUs, busy spans
coloured by step, dark (reconfiguring) spans grey and hatched. A training
iteration's (a task graph's trace): per GPU its compute, communication,
setup and waiting rows, the critical path's nodes outlined and on a top row
of their own. The figure is photonsim.plots.timeline.

usage: scripts/plots/plot_timeline.py TRACE.json OUT.png [--gpus N] [--title T]
  --gpus: how many GPUs to draw (default 8; the first N by number)
  --title: the figure's title (default: from the trace)
OUT's extension picks the format; OUT.png also writes OUT.pdf
"""
import os
import sys

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("trace", metavar="TRACE.json", help="a trace written by photonsim run/replay --trace")
args.add_argument("out", metavar="OUT.png", help="the figure to write (format from the extension)")
args.add_argument("--gpus", type=int, default=8, help="how many GPUs to draw (default 8)")
args.add_argument("--title", default=None, help="the figure's title")
args = args.parse_args()
if args.gpus < 0:
    sys.exit("plot_timeline.py: --gpus needs a count >= 0")
plots = pp.plots()
try:
    fig = plots.timeline(args.trace, None, gpus=args.gpus, title=args.title)
except (OSError, ValueError) as e:
    sys.exit(f"plot_timeline.py: {args.trace}: {e}")
root, ext = os.path.splitext(args.out)
if ext.lower() == ".png":
    plots.save(fig, root)
    written = f"{root}.png and {root}.pdf"
else:
    pp.save_file(fig, args.out, dpi=120)
    written = args.out
print(f"wrote {written}" + (f": {fig.photonsim_summary}" if hasattr(fig, "photonsim_summary") else ""))
