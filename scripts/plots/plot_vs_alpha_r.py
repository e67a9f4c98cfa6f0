#!/usr/bin/python3
"""Completion time against alpha_r from a sweep's results.csv, one line per
algorithm (and per value of every other swept key), with the number of
reconfigurations each point chose printed along the joint synthesizers'
curves: the all-to-all paper's Figure 14.

usage: plot_vs_alpha_r.py RESULTS.csv OUT_PREFIX [--title TEXT] [--panel KEY] [--label KEY]...
  --panel: the swept key that splits the figure into panels (default fabric.ports)
  --label: name lines by these columns (default: algorithm, then every other swept key that varies)
writes OUT_PREFIX.png and OUT_PREFIX.pdf
"""
import re
from collections import defaultdict

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("results", help="a sweep's results.csv")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and OUT_PREFIX.pdf")
args.add_argument("--title", default="", help="text before each panel's title")
args.add_argument("--panel", default="fabric.ports", help="the swept key that splits the figure into panels")
args.add_argument("--label", action="append", default=[], help="name lines by this column (repeatable)")
args = args.parse_args()
plt = pp.pyplot()
title, panel_key, label_keys, prefix = args.title, args.panel, args.label, args.prefix

rows, columns = pp.read_results(args.results)
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
        lines[label].append((int(r["reconfig_delay_ps"]) * pp.PS_TO_US, int(r["measured_ps"]) * pp.PS_TO_MS,
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
    pp.log_log(ax)
    ax.set_xlabel("reconfiguration delay alpha_r (us)")
    ax.set_ylabel("completion time (ms)")
    ax.set_title((title + " " if title else "") + (f"{panel_key.split('.')[-1]} = {panel}" if panel else ""))
    ax.legend(fontsize=7, ncol=2 if len(lines) > 5 else 1)
fig.tight_layout()
pp.save_figure(fig, prefix)
print(f"wrote {prefix}.png and {prefix}.pdf")
