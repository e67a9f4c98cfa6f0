#!/usr/bin/python3
"""PCCL's Figure 19 from photonsim's physical-layer benchmarks:
(a) Algorithm 3's routing time on MZI meshes of growing size, one line per
number of circuits (mean over seeds); (b) the fibers Algorithm 4 needs on a
64-server grid for 100 and 512 random circuits, per fiber model (one-way:
fibers per directed edge; shared: a link's fibers serve both directions),
beside the cut lower bound and the paper's 7 and 31.

usage: plot_pccl_physical.py MESH.csv FIBERS.csv OUT_PREFIX
  MESH.csv   from build/mesh_routing_benchmark (mesh,mzis,circuits,seed,routed,most_used,mean_hops,seconds)
  FIBERS.csv from build/fiber_routing_benchmark (servers,circuits,seed,fibers,best_bound,optimal,cut_bound,solve_s,shared)
             (a file without the shared column is read as one-way)
writes OUT_PREFIX_mesh.png/.pdf and OUT_PREFIX_fibers.png/.pdf and prints the tables
"""
import csv
from collections import defaultdict

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("mesh_csv", metavar="MESH.csv", help="from build/mesh_routing_benchmark")
args.add_argument("fibers_csv", metavar="FIBERS.csv", help="from build/fiber_routing_benchmark")
args.add_argument("prefix", metavar="OUT_PREFIX", help="writes OUT_PREFIX_mesh.png/.pdf and OUT_PREFIX_fibers.png/.pdf")
args = args.parse_args()
plt = pp.pyplot()
mesh_csv, fibers_csv, prefix = args.mesh_csv, args.fibers_csv, args.prefix

times = defaultdict(list)  # (circuits, mzis) -> seconds
routed = defaultdict(list)  # (circuits, mzis) -> circuits routed
for row in csv.DictReader(open(mesh_csv, newline="")):
    times[(int(row["circuits"]), int(row["mzis"]))].append(float(row["seconds"]))
    routed[(int(row["circuits"]), int(row["mzis"]))].append(int(row["routed"]))
print("Algorithm 3: mean routing time (s) by MZIs and circuits")
circuit_counts = sorted({c for c, _ in times})
sizes = sorted({m for _, m in times})
print("mzis," + ",".join(str(c) for c in circuit_counts))
for m in sizes:
    print(str(m) + "," + ",".join(f"{sum(times[(c, m)]) / len(times[(c, m)]):.4f}" if (c, m) in times else ""
                                  for c in circuit_counts))
print("Algorithm 3: mean circuits routed by MZIs and circuits")
print("mzis," + ",".join(str(c) for c in circuit_counts))
for m in sizes:
    print(str(m) + "," + ",".join(f"{sum(routed[(c, m)]) / len(routed[(c, m)]):.1f}" if (c, m) in routed else ""
                                  for c in circuit_counts))
fig, ax = plt.subplots(figsize=(5, 3.5))
for c in circuit_counts:
    xs = [m for m in sizes if (c, m) in times]
    ax.plot(xs, [sum(times[(c, m)]) / len(times[(c, m)]) for m in xs], marker="o", label=f"{c} circuits")
ax.set_xscale("log", base=2)
ax.set_xlabel("MZIs in the mesh")
ax.set_ylabel("routing time (s)")
ax.set_title("Algorithm 3: routes vs time (Figure 19a)")
ax.grid(True, alpha=0.3)
ax.legend(fontsize=8)
fig.tight_layout()
pp.save_figure(fig, f"{prefix}_mesh", dpi=None)

fibers = defaultdict(list)  # (shared, circuits) -> rows
for row in csv.DictReader(open(fibers_csv, newline="")):
    fibers[(int(row.get("shared") or 0), int(row["circuits"]))].append(row)
paper = {100: 7, 512: 31}
models = sorted({m for m, _ in fibers})
circuits = sorted({c for _, c in fibers})
model_name = {0: "one-way", 1: "shared"}
print("Algorithm 4: fibers needed on the busiest server edge or link (8x8 servers)")
print("circuits,seed,fibers,best_bound,optimal,cut_bound,solve_s,shared,paper")
for m, c in sorted(fibers):
    for row in fibers[(m, c)]:
        print(f"{c},{row['seed']},{row['fibers']},{row['best_bound']},{row['optimal']},{row['cut_bound']},"
              f"{row['solve_s']},{m},{paper.get(c, '')}")
fig, ax = plt.subplots(figsize=(6, 3.5))
xs = range(len(circuits))
bars = []
for m in models:
    worst = [max((int(r["fibers"]) for r in fibers[(m, c)]), default=0) for c in circuits]
    bound = [max((int(r["cut_bound"]) for r in fibers[(m, c)]), default=0) for c in circuits]
    bars.append((f"photonsim {model_name.get(m, m)} (max over seeds)", worst))
    bars.append((f"cut lower bound, {model_name.get(m, m)}", bound))
bars.append(("PCCL paper", [paper.get(c, 0) for c in circuits]))
width = 0.8 / len(bars)
for k, (label, heights) in enumerate(bars):
    ax.bar([x + (k - (len(bars) - 1) / 2) * width for x in xs], heights, width=width, label=label)
ax.set_xticks(list(xs))
ax.set_xticklabels([f"{c} circuits" for c in circuits])
ax.set_ylabel("fibers on the busiest edge / link")
ax.set_title("Algorithm 4 on 64 servers (Figure 19b)")
ax.legend(fontsize=8)
fig.tight_layout()
pp.save_figure(fig, f"{prefix}_fibers", dpi=None)
