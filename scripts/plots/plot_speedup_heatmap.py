#!/usr/bin/python3
"""Heatmaps over alpha_r x message size from a sweep's results.csv whose grid
sweeps fabric.reconfig_delay, workload.message and one more key naming the
contenders (e.g. synthesis.planner): for each contender against the
baseline, the speedup baseline_time / contender_time per cell (the ReTri and
Harvest papers' Figures 2, 3, 5, 6), plus a map of which contender is fastest
in each cell (the regimes). A sweep that also varies other keys is cut to one
value of each with --where KEY=VALUE (repeatable).

usage: plot_speedup_heatmap.py RESULTS.csv OUT_PREFIX --by KEY --baseline VALUE [--title TEXT] [--where KEY=VALUE]...
writes OUT_PREFIX.png and OUT_PREFIX.pdf
"""
import sys

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("results", help="a sweep's results.csv")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and OUT_PREFIX.pdf")
args.add_argument("--by", required=True, help="the swept column naming the contenders, e.g. synthesis.planner")
args.add_argument("--baseline", required=True, help="the value of --by the others are compared with")
args.add_argument("--title", default="", help="the figure's title")
args.add_argument("--where", action="append", default=[], help="KEY=VALUE: only the rows whose column KEY is VALUE")
args = args.parse_args()
plt = pp.pyplot()
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap, LogNorm  # noqa: E402

prefix, by, baseline, title = args.prefix, args.by, args.baseline, args.title
rows, columns = pp.read_results(args.results)
for condition in args.where:
    key, sep, value = condition.partition("=")
    if not sep or key not in columns:
        sys.exit(f"--where {condition}: KEY=VALUE with KEY a column of {args.results}")
    rows = [r for r in rows if r[key] == value]
    if not rows:
        sys.exit(f"--where {condition}: no row of {args.results} has {key} = {value}")
size_of, fmt_time, fmt_bytes = pp.size_of, pp.fmt_time, pp.fmt_bytes

# Cells are keyed by the swept message when it is swept (with message_scope:
# gpu the per-flow bytes differ between contenders of different n).
swept_message = "workload.message" in rows[0]
time = {}
for r in rows:
    message = size_of(r["workload.message"]) if swept_message else int(r["message_bytes"])
    time[(r[by], int(r["reconfig_delay_ps"]), message)] = int(r["measured_ps"])
delays = sorted({k[1] for k in time})
messages = sorted({k[2] for k in time})
contenders = sorted({k[0] for k in time})
if baseline not in contenders:
    sys.exit(f"--baseline {baseline}: not a value of {by} (values: {', '.join(contenders)})")
others = [c for c in contenders if c != baseline]

fig, axes = plt.subplots(1, len(others) + 1, figsize=(5.2 * (len(others) + 1), 4.4), squeeze=False)
for ax, other in zip(axes[0], others):
    grid = np.full((len(messages), len(delays)), np.nan)
    for i, m in enumerate(messages):
        for j, d in enumerate(delays):
            if (baseline, d, m) in time and (other, d, m) in time:
                grid[i, j] = time[(baseline, d, m)] / time[(other, d, m)]
    finite = grid[np.isfinite(grid)]
    spread = max(finite.max(), 1 / finite.min(), 1.01) if finite.size else 2
    image = ax.imshow(grid, origin="lower", aspect="auto", cmap="RdBu", norm=LogNorm(1 / spread, spread))
    ticks = np.geomspace(1 / spread, spread, 5)
    bar = fig.colorbar(image, ax=ax, label=f"speedup of {other} over {baseline}", ticks=ticks)
    bar.ax.set_yticklabels([f"{t:.2g}x" for t in ticks])
    bar.ax.minorticks_off()
    ax.set_title(f"{other} vs {baseline}")
best = np.full((len(messages), len(delays)), np.nan)
for i, m in enumerate(messages):
    for j, d in enumerate(delays):
        # The simplest that is within 0.5 % of the fastest: the baseline first,
        # so a planner that only matches it (e.g. Harvest staying put) does not claim the cell.
        cell = {c: time[(c, d, m)] for c in contenders if (c, d, m) in time}
        if cell:
            fastest = min(cell.values())
            for c in [baseline] + others:
                if c in cell and cell[c] <= fastest * 1.005:
                    best[i, j] = contenders.index(c)
                    break
colors = ListedColormap(plt.cm.tab10.colors[: len(contenders)])
last = axes[0][-1]
last.imshow(best, origin="lower", aspect="auto", cmap=colors, vmin=-0.5, vmax=len(contenders) - 0.5)
last.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=colors(k)) for k in range(len(contenders))],
            labels=contenders, fontsize=8, loc="upper left")
last.set_title("fastest " + by.split(".")[-1])
for ax in axes[0]:
    step_x = max(1, len(delays) // 8)
    step_y = max(1, len(messages) // 8)
    ax.set_xticks(range(0, len(delays), step_x))
    ax.set_xticklabels([fmt_time(delays[j]) for j in range(0, len(delays), step_x)], rotation=45, fontsize=8)
    ax.set_yticks(range(0, len(messages), step_y))
    ax.set_yticklabels([fmt_bytes(messages[i]) for i in range(0, len(messages), step_y)], fontsize=8)
    ax.set_xlabel("reconfiguration delay alpha_r (log)")
    ax.set_ylabel("workload.message (log)")
if title:
    fig.suptitle(title)
fig.tight_layout()
pp.save_figure(fig, prefix)
print(f"wrote {prefix}.png and {prefix}.pdf")
