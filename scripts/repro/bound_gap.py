#!/usr/bin/python3
"""The all-to-all paper's Figure 13 on photonsim's rdc (k = 1): for each n, the
worst ratio over d of rdc's summed round hop counts to Theorem 1's bound
(photonsim bound --compare), printed next to the paper's figures (<= 2.22 for
n <= 64, <= 4.54 up to 4096), written to DIR/bound_gap.csv (every n, d) and
DIR/bound_gap_worst.csv, and drawn as DIR/bound_gap.png/.pdf (13a: worst
ratio vs n; 13b: the curves for n = 32 and 512).

usage: scripts/repro/bound_gap.py [--max-n N] [--out DIR]     (defaults: 4096, results/bound_gap)
Paths are relative to the repository root; build/photonsim is built (scripts/setup) when missing.
"""
import csv
import io
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "plots"))
import photonsim_plots as pp  # noqa: E402

args = pp.argument_parser(__doc__)
args.add_argument("--max-n", type=int, default=4096, help="the largest n (default 4096)")
args.add_argument("--out", default="results/bound_gap", help="output folder (default results/bound_gap)")
args = args.parse_args()
if args.max_n < 2:
    sys.exit("bound_gap.py: --max-n needs a count >= 2")
plt = pp.pyplot()
os.chdir(ROOT)
binary, max_n, out = "build/photonsim", args.max_n, args.out
if not os.access(binary, os.X_OK):
    subprocess.run(["scripts/setup"], check=True)
os.makedirs(out, exist_ok=True)

# Every n up to 64 (the paper's practical sizes), then powers of two and
# their midpoints up to max_n.
sizes = list(range(2, min(64, max_n) + 1))
n = 64
while n < max_n:
    for m in (n + n // 2, 2 * n):
        if m <= max_n:
            sizes.append(m)
    n *= 2

rows, worst = [], []
start = time.perf_counter()
for n in sizes:
    run = subprocess.run([binary, "bound", "--gpus", str(n), "--ports", "1", "--compare", "--format", "csv"],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"photonsim bound --gpus {n}: {run.stderr.strip()}")
    table = list(csv.DictReader(io.StringIO(run.stdout)))
    rows.extend(table)
    top = max(table, key=lambda r: float(r["ratio"]))
    worst.append((n, float(top["ratio"]), int(top["reconfigs"])))
elapsed = time.perf_counter() - start

write_csv = pp.write_csv
write_csv(os.path.join(out, "bound_gap.csv"), ["gpus", "ports", "reconfigs", "transmission_T", "rdc_T", "ratio"],
          [[r["gpus"], r["ports"], r["reconfigs"], r["transmission_T"], r["rdc_T"], r["ratio"]] for r in rows])
write_csv(os.path.join(out, "bound_gap_worst.csv"), ["gpus", "worst_ratio", "worst_d"], worst)

small = max(r for n, r, _ in worst if n <= 64)
large = max(r for _, r, _ in worst)
print(f"{'n':>6} {'worst ratio':>12} {'at d':>6}")
for n, r, d in worst:
    if n <= 16 or n in (32, 64) or n > 64:
        print(f"{n:>6} {r:>12.4f} {d:>6}")
print(f"\nworst ratio, n <= 64:     {small:.4f}   (paper, Fig. 13a: 2.22)")
print(f"worst ratio, n <= {max_n}: {large:.4f}   (paper, Fig. 13a: 4.54 up to 4096)")
print(f"{len(sizes)} sizes in {elapsed:.1f} s; wrote {out}/bound_gap.csv, bound_gap_worst.csv, bound_gap.png, bound_gap.pdf")

fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
a.plot([n for n, _, _ in worst], [r for _, r, _ in worst], marker=".", label="photonsim rdc")
a.axhline(2.22, color="tab:orange", linestyle="--", label="paper, n <= 64 (2.22)")
a.axhline(4.54, color="tab:red", linestyle=":", label="paper, n <= 4096 (4.54)")
a.set_xscale("log", base=2)
a.set_xlabel("GPUs n")
a.set_ylabel("max over d of rdc hop sum / lower bound")
a.set_title("(a) worst-case gap to Theorem 1 (k = 1)")
a.set_ylim(bottom=1)
a.grid(True, which="both", alpha=0.3)
a.legend()
for n, style in ((32, "-"), (512, "--")):
    curve = [r for r in rows if int(r["gpus"]) == n]
    if not curve:
        continue
    d = [int(r["reconfigs"]) for r in curve]
    b.plot(d, [int(r["rdc_T"]) for r in curve], style, color="tab:blue", label=f"rdc, n = {n}")
    b.plot(d, [int(r["transmission_T"]) for r in curve], style, color="tab:gray", label=f"lower bound, n = {n}")
b.set_xscale("log")
b.set_yscale("log")
b.set_xlabel("configured topologies d")
b.set_ylabel("sum of round hop counts (units of T)")
b.set_title("(b) hop sum vs lower bound across d")
b.grid(True, which="both", alpha=0.3)
b.legend()
fig.tight_layout()
pp.save_figure(fig, os.path.join(out, "bound_gap"))
