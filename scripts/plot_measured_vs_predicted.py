"""Measured against predicted completion time for every row of a sweep's
results.csv, coloured by algorithm, with the y = x line and a +-band (default
2 %): points outside the band are where a synthesizer's cost model and the
packet-level simulation disagree (see the README, "Measured vs predicted").

usage: plot_measured_vs_predicted.py RESULTS.csv OUT_PREFIX [--band PCT] [--by COLUMN]
  --by: the column that colours the points (default algorithm)
writes OUT_PREFIX.png and OUT_PREFIX.pdf and prints the worst error per algorithm
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

if len(sys.argv) < 3:
    sys.exit(__doc__)
results, prefix = sys.argv[1], sys.argv[2]
band = float(sys.argv[sys.argv.index("--band") + 1]) if "--band" in sys.argv else 2.0
by = sys.argv[sys.argv.index("--by") + 1] if "--by" in sys.argv else "algorithm"
with open(results, newline="") as f:
    rows = list(csv.DictReader(f))
if not rows:
    sys.exit(f"{results}: no rows")
by_algorithm = defaultdict(list)
for r in rows:
    by_algorithm[r[by]].append((int(r["predicted_ps"]) * 1e-9, int(r["measured_ps"]) * 1e-9,
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
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("predicted completion time (ms)")
ax.set_ylabel("measured (simulated) completion time (ms)")
ax.set_title("measured vs predicted")
ax.grid(True, which="both", alpha=0.3)
ax.legend(fontsize=8)
fig.tight_layout()
for ext in ("png", "pdf"):
    tmp = f"{prefix}.tmp.{ext}"
    fig.savefig(tmp, dpi=130)
    os.replace(tmp, f"{prefix}.{ext}")
print(f"wrote {prefix}.png and {prefix}.pdf")
