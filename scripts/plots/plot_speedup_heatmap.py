#!/usr/bin/python3
"""Heatmaps over alpha_r x message size from a sweep's results.csv whose grid
sweeps fabric.reconfig_delay, workload.message and one more key naming the
contenders (e.g. synthesis.planner): for each contender against the
baseline, the speedup baseline_time / contender_time per cell (the ReTri and
Harvest papers' Figures 2, 3, 5, 6; colour-bar ticks such as 130x and
0.008x), plus a map of which contender is fastest in each cell (the
regimes). A sweep that also varies other keys is cut to one value of each
with --where KEY=VALUE (repeatable). The figure is photonsim.plots.speedup_heatmap.

usage: plot_speedup_heatmap.py RESULTS.csv OUT_PREFIX --by KEY --baseline VALUE [--title TEXT] [--where KEY=VALUE]...
writes OUT_PREFIX.png and OUT_PREFIX.pdf
"""
import sys

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("results", help="a sweep's results.csv (or its folder)")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and OUT_PREFIX.pdf")
args.add_argument("--by", required=True, help="the swept column naming the contenders, e.g. synthesis.planner")
args.add_argument("--baseline", required=True, help="the value of --by the others are compared with")
args.add_argument("--title", default="", help="the figure's title")
args.add_argument("--where", action="append", default=[], help="KEY=VALUE: only the rows whose column KEY is VALUE")
args = args.parse_args()
where = {}
for condition in args.where:
    key, sep, value = condition.partition("=")
    if not sep:
        sys.exit(f"--where {condition}: KEY=VALUE")
    where[key] = value
try:
    pp.plots().speedup_heatmap(args.results, args.prefix, by=args.by, baseline=args.baseline,
                               title=args.title or None, where=where)
except ValueError as e:
    sys.exit(f"plot_speedup_heatmap.py: {args.results}: {e}")
print(f"wrote {args.prefix}.png and {args.prefix}.pdf")
