#!/usr/bin/python3
"""Speedup against one swept key from a sweep's results.csv: for each value of
--x (e.g. fabric.ports) and of --line (e.g. fabric.gpus), the baseline's time
over the contender's in every remaining cell (alpha_r x message, ...), drawn
as its maximum (solid) and mean (dashed): Harvest's Figure 10, the advantage
over static topologies as the number of ports grows.

usage: plot_speedup_vs.py RESULTS.csv OUT_PREFIX --x KEY --line KEY --by KEY --baseline VALUE --contender VALUE
                          [--title TEXT] [--baseline-label TEXT]
writes OUT_PREFIX.png, OUT_PREFIX.pdf and OUT_PREFIX.csv (x, line, max, mean, cells)
"""
from collections import defaultdict

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("results", help="a sweep's results.csv")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png, .pdf and .csv")
args.add_argument("--x", required=True, help="the swept key on the x axis (integers)")
args.add_argument("--line", required=True, help="the swept key that names the lines")
args.add_argument("--by", required=True, help="the swept key naming baseline and contender, e.g. synthesis.planner")
args.add_argument("--baseline", required=True, help="the value of --by every speedup divides")
args.add_argument("--contender", required=True, help="the value of --by whose speedup is drawn")
args.add_argument("--title", default="", help="the figure's title")
args.add_argument("--baseline-label", default="", help="the baseline's name on the y axis (default: its value)")
args = args.parse_args()
plt = pp.pyplot()

rows, columns = pp.read_results(args.results)
for key in (args.x, args.line, args.by):
    if key not in columns:
        raise SystemExit(f"{pp.script_name()}: {args.results} has no column '{key}' (swept: "
                         f"{', '.join(c for c in columns if '.' in c)})")
swept = [c for c in columns if "." in c]
cell_keys = [c for c in swept if c not in (args.x, args.line, args.by)]
times = defaultdict(dict)
for r in rows:
    times[(r[args.x], r[args.line], tuple(r[k] for k in cell_keys))][r[args.by]] = int(r["measured_ps"])
speedups = defaultdict(list)
for (x, line, _), by in times.items():
    if args.baseline not in by or args.contender not in by:
        raise SystemExit(f"{pp.script_name()}: a cell lacks {args.by} = '{args.baseline}' or '{args.contender}'")
    speedups[(x, line)].append(by[args.baseline] / by[args.contender])

fig, ax = plt.subplots(figsize=(6, 4.2))
table = []
for line in sorted({line for _, line in speedups}, key=lambda v: (len(v), v)):
    xs = sorted((x for x, l_ in speedups if l_ == line), key=int)
    peak = [max(speedups[(x, line)]) for x in xs]
    mean = [sum(speedups[(x, line)]) / len(speedups[(x, line)]) for x in xs]
    drawn = ax.plot([int(x) for x in xs], peak, marker="o", label=f"{args.line.split('.')[-1]} {line}, max")
    ax.plot([int(x) for x in xs], mean, marker=".", linestyle="--", color=drawn[0].get_color(),
            label=f"{args.line.split('.')[-1]} {line}, mean")
    table += [(x, line, f"{p:.4f}", f"{m:.4f}", len(speedups[(x, line)])) for x, p, m in zip(xs, peak, mean)]
ax.axhline(1.0, color="grey", linewidth=0.8)
ax.set_xticks(sorted({int(x) for x, _ in speedups}))
ax.set_xlabel(args.x)
ax.set_ylabel(f"speedup over {args.baseline_label or args.baseline}")
ax.set_title(args.title, fontsize=9)
ax.legend(fontsize=7)
pp.save_figure(fig, args.prefix)
pp.write_csv(args.prefix + ".csv", ["x", "line", "max", "mean", "cells"], table)
print(f"wrote {args.prefix}.png, {args.prefix}.pdf and {args.prefix}.csv")
