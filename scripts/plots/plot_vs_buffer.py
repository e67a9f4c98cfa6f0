#!/usr/bin/python3
"""Each algorithm's time over the contender's against the buffer, one panel
per start topology, from a sweep's results.csv: PCCL's Figure 7 (and 17-18)
drawn the way its claims are read, every baseline never reconfiguring over
PCCL planning RHD, so a line above 1 is a baseline PCCL beats.

usage: plot_vs_buffer.py RESULTS.csv OUT_PREFIX [--collective NAME] [--where KEY=VALUE]... [--title TEXT]
  --collective: the collective column's value to draw (default: the only one in the file)
  --where: keep the rows whose swept KEY has VALUE (e.g. fabric.bandwidth_scope=circuit)
writes OUT_PREFIX.png and OUT_PREFIX.pdf; the lines: synthesis.algorithm under
synthesis.planner static, over synthesis.algorithm rhd under synthesis.planner pccl
"""
from collections import defaultdict

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("results", help="a sweep's results.csv")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and .pdf")
args.add_argument("--collective", default=None, help="the collective to draw")
args.add_argument("--where", action="append", default=[], help="KEY=VALUE: keep rows where the swept KEY has VALUE")
args.add_argument("--title", default="", help="the figure's title")
args = args.parse_args()
plt = pp.pyplot()

rows, columns = pp.read_results(args.results)
needed = ("synthesis.topology", "workload.message", "synthesis.algorithm", "synthesis.planner", "collective")
for key in needed:
    if key not in columns:
        raise SystemExit(f"{pp.script_name()}: {args.results} has no column '{key}' (needs: {', '.join(needed)})")
where = {}
for item in args.where:
    key, sep, value = item.partition("=")
    if not sep or key not in columns:
        raise SystemExit(f"{pp.script_name()}: --where '{item}' must be KEY=VALUE with KEY one of the columns "
                         f"({', '.join(c for c in columns if '.' in c)})")
    where[key] = value
collectives = sorted({r["collective"] for r in rows})
collective = args.collective or (collectives[0] if len(collectives) == 1 else None)
if collective not in collectives:
    raise SystemExit(f"{pp.script_name()}: --collective must be one of {', '.join(collectives)}")
times = defaultdict(dict)
for r in rows:
    if r["collective"] != collective or any(r[k] != v for k, v in where.items()):
        continue
    times[(r["synthesis.topology"], r["workload.message"])][(r["synthesis.algorithm"], r["synthesis.planner"])] = \
        int(r["measured_ps"])
if not times:
    raise SystemExit(f"{pp.script_name()}: no rows left after --collective and --where")


plots = pp.plots()


def size(message):
    """'16MB' -> bytes."""
    try:
        return plots.quantity(message, plots.SIZE_UNITS)
    except ValueError as e:
        raise SystemExit(f"{pp.script_name()}: workload.message: {e}")


topologies = list(dict.fromkeys(t for t, _ in times))
buffers = sorted({m for _, m in times}, key=size)
algorithms = list(dict.fromkeys(a for cell in times.values() for a, p in cell if p == "static"))
fig, axes = plt.subplots(1, len(topologies), figsize=(3.0 * len(topologies), 3.4), sharey=True, squeeze=False)
for ax, topology in zip(axes[0], topologies):
    for algorithm in algorithms:
        xs, ys = [], []
        for m in buffers:
            cell = times.get((topology, m), {})
            if (algorithm, "static") in cell and ("rhd", "pccl") in cell:
                xs.append(size(m))
                ys.append(cell[(algorithm, "static")] / cell[("rhd", "pccl")])
        ax.plot(xs, ys, marker="o", markersize=3, label=algorithm.replace("{type: ", "").replace("}", ""))
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks([size(m) for m in buffers])
    ax.set_xticklabels(buffers, fontsize=6, rotation=45)
    ax.set_title(topology.replace("{type: ", "").replace("}", ""), fontsize=8)
    ax.set_xlabel("buffer", fontsize=7)
axes[0][0].set_ylabel(f"time over PCCL's ({collective})", fontsize=7)
axes[0][-1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.02, 1.0))
fig.suptitle(args.title, fontsize=9)
pp.save_figure(fig, args.prefix)
print(f"wrote {args.prefix}.png and {args.prefix}.pdf")
