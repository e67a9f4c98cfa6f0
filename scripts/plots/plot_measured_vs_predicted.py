#!/usr/bin/python3
"""Measured against predicted completion time for every row of a sweep's
results.csv, coloured by algorithm, with the y = x line and a +-band (default
2 %): points outside the band are where a synthesizer's cost model and the
packet-level simulation disagree (see docs/model.md, "Measured vs predicted").

usage: plot_measured_vs_predicted.py RESULTS.csv OUT_PREFIX [--band PCT] [--by COLUMN]
  --by: the column that colours the points (default algorithm)
writes OUT_PREFIX.png and OUT_PREFIX.pdf and prints the worst error per algorithm
"""
from collections import defaultdict

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("results", help="a sweep's results.csv")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and OUT_PREFIX.pdf")
args.add_argument("--band", type=float, default=2.0, help="the +- band in percent (default 2)")
args.add_argument("--by", default="algorithm", help="the column that colours the points (default algorithm)")
args = args.parse_args()
plt = pp.pyplot()
rows, _ = pp.read_results(args.results)
band, by, prefix = args.band, args.by, args.prefix
by_algorithm = defaultdict(list)
for r in rows:
    by_algorithm[r[by]].append((int(r["predicted_ps"]) * pp.PS_TO_MS, int(r["measured_ps"]) * pp.PS_TO_MS,
                                float(r["error_pct"])))
fig, ax = plt.subplots(figsize=(6, 5.5))
low = min(min(p, m) for pts in by_algorithm.values() for p, m, _ in pts)
high = max(max(p, m) for pts in by_algorithm.values() for p, m, _ in pts)
line = [low, high]
ax.plot(line, line, color="black", linewidth=0.8, label="measured = predicted")
ax.fill_between(line, [x * (1 - band / 100) for x in line], [x * (1 + band / 100) for x in line], color="gray",
                alpha=0.25, label=f"+-{band:g} %")
print(f"{by:<20}{'points':>8}{'worst error %':>15}")
for algorithm, pts in sorted(by_algorithm.items()):
    ax.scatter([p for p, _, _ in pts], [m for _, m, _ in pts], s=10, label=algorithm)
    print(f"{algorithm:<20}{len(pts):>8}{max(abs(e) for _, _, e in pts):>15.3f}")
pp.log_log(ax)
ax.set_xlabel("predicted completion time (ms)")
ax.set_ylabel("measured (simulated) completion time (ms)")
ax.set_title("measured vs predicted")
ax.legend(fontsize=8)
fig.tight_layout()
pp.save_figure(fig, prefix)
print(f"wrote {prefix}.png and {prefix}.pdf")
