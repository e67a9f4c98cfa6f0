"""Heatmaps over alpha_r x message size from a sweep's results.csv whose grid
sweeps fabric.reconfig_delay, workload.message and one more key naming the
contenders (e.g. synthesis.planner): for each contender against the
baseline, the speedup baseline_time / contender_time per cell (the ReTri and
Harvest papers' Figures 2, 3, 5, 6), plus a map of which contender is fastest
in each cell (the regimes).

usage: plot_speedup_heatmap.py RESULTS.csv OUT_PREFIX --by KEY --baseline VALUE [--title TEXT]
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
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap, LogNorm  # noqa: E402


def option(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


if len(sys.argv) < 3 or "--by" not in sys.argv or "--baseline" not in sys.argv:
    sys.exit(__doc__)
results, prefix, by, baseline, title = sys.argv[1], sys.argv[2], option("--by"), option("--baseline"), option("--title", "")
with open(results, newline="") as f:
    rows = list(csv.DictReader(f))
if not rows:
    sys.exit(f"{results}: no rows")
UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30,
         "TiB": 2**40}


def size_of(text):
    """Bytes of a size as photonsim writes it ("1KB", "1000B", "1.5MiB")."""
    match = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]+)\s*", text)
    if not match or match.group(2) not in UNITS:
        sys.exit(f"cannot read the size '{text}'")
    return int(float(match.group(1)) * UNITS[match.group(2)])


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


def short(v):
    return f"{v:.0f}" if v >= 10 else f"{v:.2g}"


def fmt_time(ps):
    for unit, scale in (("s", 1e12), ("ms", 1e9), ("us", 1e6), ("ns", 1e3)):
        if ps >= scale:
            return short(ps / scale) + unit
    return f"{ps}ps"


def fmt_bytes(b):
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if b >= scale:
            return short(b / scale) + unit
    return f"{b}B"


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
for ext in ("png", "pdf"):
    tmp = f"{prefix}.tmp.{ext}"
    fig.savefig(tmp, dpi=130)
    os.replace(tmp, f"{prefix}.{ext}")
print(f"wrote {prefix}.png and {prefix}.pdf")
