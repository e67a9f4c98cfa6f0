"""Worst ratio of rdc's hop sum to Theorem 1 over d, per n (the paper's Fig. 13)."""
import csv
import io
import os
import subprocess
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

binary, max_n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]

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


def write_csv(path, header, data):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(data)
    os.replace(tmp, path)


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
for ext in ("png", "pdf"):
    tmp = os.path.join(out, f"bound_gap.tmp.{ext}")
    fig.savefig(tmp, dpi=130)
    os.replace(tmp, os.path.join(out, f"bound_gap.{ext}"))
