#!/usr/bin/python3
"""PCCL's Figures 12-16 from the iterations scripts/repro/claims.py pccl
writes (results/reproduce/pccl/bert/iterations.csv): training throughput of
Sec. 6's Bert model relative to PCCL's, one panel per GPU count, a group of
bars per start topology, a bar per algorithm never reconfiguring and PCCL
planning RHD at the reconfiguration delay asked for (the baselines never
reconfigure, so their rows at 5 us hold at every delay).

usage: plot_pccl_training.py ITERATIONS.csv OUT_PREFIX [--compute fp32|tf32] [--reconfig-delay R] [--title TEXT]
writes OUT_PREFIX.png and OUT_PREFIX.pdf
"""
from collections import defaultdict

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("iterations", help="bert/iterations.csv (claims.py pccl)")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and .pdf")
args.add_argument("--compute", default="tf32", help="the compute rate the graphs assume: fp32 or tf32")
args.add_argument("--reconfig-delay", default="5us", help="PCCL's reconfiguration delay, as written in the file")
args.add_argument("--title", default="", help="the figure's title")
args = args.parse_args()
plt = pp.pyplot()

rows, columns = pp.read_results(args.iterations)
needed = ("gpus", "compute", "reconfig_delay", "start", "algorithm", "iteration_ps")
missing = [c for c in needed if c not in columns]
if missing:
    raise SystemExit(f"{pp.script_name()}: {args.iterations} lacks the columns {', '.join(missing)}")
times = defaultdict(dict)
for r in rows:
    if r["compute"] != args.compute:
        continue
    baseline = r["algorithm"] != "pccl" and r["reconfig_delay"] == "5us"
    if baseline or (r["algorithm"] == "pccl" and r["reconfig_delay"] == args.reconfig_delay):
        times[(int(r["gpus"]), r["start"])][r["algorithm"]] = int(r["iteration_ps"])
delays = sorted({r["reconfig_delay"] for r in rows if r["algorithm"] == "pccl" and r["compute"] == args.compute})
if not any("pccl" in v for v in times.values()):
    raise SystemExit(f"{pp.script_name()}: no PCCL row at compute {args.compute} and reconfig_delay "
                     f"{args.reconfig_delay} (there: {', '.join(delays) or 'none'})")

gpus = sorted({n for n, _ in times})
PAPER_ORDER = ["ring", "2D torus", "3D torus", "2D grid", "3D grid"]  # the figures' order
starts = sorted(dict.fromkeys(s for _, s in times),
                key=lambda s: (PAPER_ORDER.index(s) if s in PAPER_ORDER else len(PAPER_ORDER), s))
algorithms = list(dict.fromkeys(a for v in times.values() for a in v if a != "pccl")) + ["pccl"]
width = 0.8 / len(algorithms)
fig, axes = plt.subplots(1, len(gpus), figsize=(4.2 * len(gpus), 3.4), sharey=True, squeeze=False)
for ax, n in zip(axes[0], gpus):
    for i, algorithm in enumerate(algorithms):
        xs, ys = [], []
        for j, start in enumerate(starts):
            cell = times.get((n, start), {})
            if algorithm in cell and "pccl" in cell:
                xs.append(j + (i - (len(algorithms) - 1) / 2) * width)
                ys.append(cell["pccl"] / cell[algorithm])  # throughput relative to PCCL's
        ax.bar(xs, ys, width, label="PCCL (RHD)" if algorithm == "pccl" else algorithm)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(starts)))
    ax.set_xticklabels(starts, fontsize=7, rotation=30)
    ax.set_title(f"{n} GPUs", fontsize=8)
axes[0][0].set_ylabel("training throughput relative to PCCL's", fontsize=7)
axes[0][-1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.02, 1.0))
fig.suptitle(args.title or f"Bert, compute at {args.compute} peak, r = {args.reconfig_delay}", fontsize=9)
pp.save_figure(fig, args.prefix)
print(f"wrote {args.prefix}.png and {args.prefix}.pdf")
