#!/usr/bin/python3
"""A month of training under failures, from one or more photonsim
availability studies' JSON (docs/cli.md, "availability"): the iteration
time's tail per on_failure policy (1 - CDF, log axes: nearly every
iteration is a healthy one, the tail is the story), the goodput per policy
in iterations per hour against each study's healthy rate (dashed), and the
time lost per cause. Several studies of one config (say a reconfigurable
fabric that re-plans, and `--set synthesis.planner=static` for a static one
that must abort and restart) share the axes. The highest goodput is named
by a rule (the highest mean over every study and policy; a tie names none).
The figure is photonsim.plots.availability.

  build/photonsim availability CONFIG --policies all --format json > ocs.json
  build/photonsim availability CONFIG --set synthesis.planner=static --policies abort_restart --format json > static.json
  scripts/plots/plot_availability.py ocs.json static.json OUT_PREFIX --label reconfigurable --label static

usage: plot_availability.py STUDY.json [STUDY.json ...] OUT_PREFIX [--label NAME]... [--title TEXT]
writes OUT_PREFIX.png and OUT_PREFIX.pdf; prints the highest goodput
"""
import sys

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("studies", nargs="+", help="photonsim availability ... --format json, one or more")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and .pdf")
args.add_argument("--label", action="append", help="each study's name, in order (default: its config and --set)")
args.add_argument("--title", default="", help="the figure's title")
args = args.parse_args()
try:
    fig = pp.plots().availability(args.studies, args.prefix, labels=args.label, title=args.title or None)
except (OSError, ValueError, TypeError) as e:
    sys.exit(f"{pp.script_name()}: {e}")
print(fig.photonsim_summary)
print(f"wrote {args.prefix}.png and {args.prefix}.pdf")
