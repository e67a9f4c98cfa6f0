#!/usr/bin/python3
"""Completion time against alpha_r from a sweep's results.csv: colour and
marker for the algorithm or planner (whichever the sweep varies; --color),
line style for the message size (--style), one panel per value of --panel,
lines that coincide nested (each colour's line wider than the next's, drawn
underneath), and below them the number of reconfigurations each plan chose
(the all-to-all paper's Figure 14); the legend outside the data, the title
the fabric. The figure is photonsim.plots.vs_alpha_r.

usage: plot_vs_alpha_r.py RESULTS.csv OUT_PREFIX [--title TEXT] [--panel KEY] [--color KEY] [--style KEY] [--label KEY]...
  --panel: the swept key that splits the figure into panels (default fabric.ports, when the results have it)
  --color: the column that picks the colour (default synthesis.planner or synthesis.algorithm when swept, else algorithm)
  --style: the column that picks the line style (default workload.message)
  --label: name lines by these columns: the first picks the colour, the second the line style
writes OUT_PREFIX.png and OUT_PREFIX.pdf
"""
import sys

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("results", help="a sweep's results.csv (or its folder)")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and OUT_PREFIX.pdf")
args.add_argument("--title", default="", help="text before the fabric in the title")
args.add_argument("--panel", default=None, help="the swept key that splits the figure into panels")
args.add_argument("--color", default=None, help="the column that picks the colour")
args.add_argument("--style", default=None, help="the column that picks the line style")
args.add_argument("--label", action="append", default=[], help="name lines by this column (repeatable)")
args = args.parse_args()
color = args.color or (args.label[0] if args.label else None)
style = args.style or (args.label[1] if len(args.label) > 1 else None)
try:
    pp.plots().vs_alpha_r(args.results, args.prefix, color=color, style=style, panel=args.panel,
                          title=args.title or None)
except (OSError, ValueError) as e:
    sys.exit(f"plot_vs_alpha_r.py: {args.results}: {e}")
print(f"wrote {args.prefix}.png and {args.prefix}.pdf")
