#!/usr/bin/python3
"""Heatmaps over alpha_r x message size from a sweep's results.csv whose grid
sweeps fabric.reconfig_delay, workload.message and one more key naming the
contenders (e.g. synthesis.planner): for each contender against the
baseline, the speedup baseline_time / contender_time per cell, written in
the cell (the ReTri and Harvest papers' Figures 2, 3, 5, 6), every panel on
one log colour scale spanning the data (white at 1x, ties with the baseline
hatched), plus a map of which contenders are fastest in each cell (the
regimes): every contender within --tie-pct (default 0.5) percent of the
cell's fastest time, several striped, the lead over the next written. A
sweep that also varies other keys is cut to one value of each with --where
KEY=VALUE (repeatable). The figure is photonsim.plots.speedup_heatmap.

usage: plot_speedup_heatmap.py RESULTS.csv OUT_PREFIX --by KEY --baseline VALUE [--title TEXT] [--where KEY=VALUE]...
                               [--tie-pct PCT]
writes OUT_PREFIX.png and OUT_PREFIX.pdf; prints how many cells each contender is fastest in, ties included
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
args.add_argument("--tie-pct", type=float, default=0.5,
                  help="times within this many percent of each other are a tie (default 0.5)")
args = args.parse_args()
where = {}
for condition in args.where:
    key, sep, value = condition.partition("=")
    if not sep:
        sys.exit(f"--where {condition}: KEY=VALUE")
    where[key] = value
if args.tie_pct < 0:
    sys.exit("plot_speedup_heatmap.py: --tie-pct needs a percentage >= 0")
try:
    fig = pp.plots().speedup_heatmap(args.results, args.prefix, by=args.by, baseline=args.baseline,
                                     title=args.title or None, where=where, tie_pct=args.tie_pct)
except (OSError, ValueError) as e:
    sys.exit(f"plot_speedup_heatmap.py: {args.results}: {e}")
print(fig.photonsim_summary)
print(f"wrote {args.prefix}.png and {args.prefix}.pdf")
