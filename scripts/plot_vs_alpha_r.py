"""Completion time against alpha_r from a sweep's results.csv, one line per
algorithm (and per value of every other swept key), with the number of
reconfigurations each point chose printed along the joint synthesizers'
curves: the all-to-all paper's Figure 14.

usage: plot_vs_alpha_r.py RESULTS.csv OUT_PREFIX [--title TEXT] [--panel KEY] [--label KEY]...
  --panel: the swept key that splits the figure into panels (default fabric.ports)
  --label: name lines by these columns (default: algorithm, then every other swept key that varies)
writes OUT_PREFIX.png and OUT_PREFIX.pdf
"""
import csv
import os
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

if len(sys.argv) < 3:
    sys.exit(__doc__)
results, prefix = sys.argv[1], sys.argv[2]
title = sys.argv[sys.argv.index("--title") + 1] if "--title" in sys.argv else ""
panel_key = sys.argv[sys.argv.index("--panel") + 1] if "--panel" in sys.argv else "fabric.ports"
label_keys = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--label"]

with open(results, newline="") as f:
    reader = csv.DictReader(f)
    rows = list(reader)
    columns = reader.fieldnames or []
if not rows:
    sys.exit(f"{results}: no rows")
# Swept keys are the dotted columns before the run's own columns.
swept = [c for c in columns if "." in c]
series_keys = [c for c in swept if c not in ("fabric.reconfig_delay", "synthesis.algorithm")]
panel_of = (lambda r: r[panel_key]) if panel_key in columns else (lambda r: "")
panels = sorted({panel_of(r) for r in rows}, key=lambda p: (len(p), p))
others = [k for k in series_keys if k != panel_key]

fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.2), squeeze=False)
for ax, panel in zip(axes[0], panels):
    lines = defaultdict(list)
    for r in rows:
        if panel_of(r) != panel:
            continue
        if label_keys:
            # A map value such as {type: ring, bidirectional: true} is named by its type.
            label = ", ".join(re.sub(r"^\{type: ([^,}]+).*", r"\1", r[k]) for k in label_keys)
        else:
            label = r["algorithm"] + "".join(f", {k.split('.')[-1]}={r[k]}" for k in others if len(
                {x[k] for x in rows}) > 1)
        lines[label].append((int(r["reconfig_delay_ps"]) * 1e-6, int(r["measured_ps"]) * 1e-9,
                             int(r["reconfigurations"])))
    for label, points in sorted(lines.items()):
        points.sort()
        xs, ys, ds = zip(*points)
        ax.plot(xs, ys, marker=".", label=label)
        if len(set(ds)) > 1:  # a synthesizer that chooses d: show its choice where it changes
            previous = None
            for x, y, d in points:
                if d != previous:
                    ax.annotate(f"d={d}", (x, y), textcoords="offset points", xytext=(0, 6), fontsize=7,
                                ha="center")
                    previous = d
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("reconfiguration delay alpha_r (us)")
    ax.set_ylabel("completion time (ms)")
    ax.set_title((title + " " if title else "") + (f"{panel_key.split('.')[-1]} = {panel}" if panel else ""))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2 if len(lines) > 5 else 1)
fig.tight_layout()
for ext in ("png", "pdf"):
    tmp = f"{prefix}.tmp.{ext}"
    fig.savefig(tmp, dpi=130)
    os.replace(tmp, f"{prefix}.{ext}")
print(f"wrote {prefix}.png and {prefix}.pdf")
