#!/usr/bin/python3
"""Harvest's Figure 5 over the setups its text leaves open: the claims of its
Sec. 6.2 (speedups over the static ring and over BvN schedules, recursive
doubling, Swing and all-to-all) measured on every network the paper says it
considers ("networks with 8 to 64 GPUs", "d ranges from 2 (e.g., a 1-D ring)",
Sec. 6.1) with the caption's fixed parameters (800 Gbps per port, alpha =
delta = 500 ns), so that each claim's value can be placed in the range those
setups span.

Variants: n in 8, 16, 32, 64 GPUs x the 1-D ring read two ways: one directed
port per GPU (photonsim's default reading, configs/sweeps/harvest_figure5.yaml)
and two ports per GPU with bidirectional circuits (the paper's "d = 2 ... a
1-D ring"); each again with its BvN baseline from no circuits
(synthesis.topology: none: every step configured, the first included), for
the BvN claims. Each variant runs configs/sweeps/harvest_figure5.yaml's grid
(static, harvest and every_step, `parallel: true` on two ports; alpha_r 10 ns - 10 ms; 1 KB - 1 GB) and
computes each claim's statistic as scripts/repro/claims.py does.

usage: scripts/repro/harvest_figure5_variants.py [--out DIR] [--photonsim BIN] [--gpus N ...]
  --out        folder for variants.csv (default results/reproduce/harvest/figure5_variants)
  --photonsim  the binary (default build/photonsim)
  --gpus       the GPU counts (default 8 16 32 64)
Standard library only; 8 sweeps of 1,053 points and 8 of 351 (a few minutes on 2 cores).
"""
import argparse
import collections
import csv
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from claims import ps  # noqa: E402  (the sweep columns' times, read as claims.py reads them)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASE = os.path.join(ROOT, "configs", "harvest_paper", "recursive_doubling_64.yaml")
SMALL = ("1KB", "4KB", "16KB", "64KB", "256KB")
# The BvN baseline on two ports may put both on a step's peer, as Harvest's
# own topologies may (its x_{u,v} are integers): every_step's `parallel`.
# Each reading runs its BvN baseline again from no circuits (synthesis.topology:
# none), so that it configures every step, the first included, where the
# reading's own BvN keeps the start ring for a first step the ring carries (as
# Harvest's Table 1 counts recursive doubling's BvN): claims.py reads these for
# the BvN claims only, their static and Harvest schedules the reading's own.
FROM_NO_CIRCUITS = ", BvN from no circuits"
PORTS = {"1 directed port": (1, "directed", "ring", "every_step"),
         "2 bidirectional ports": (2, "bidirectional", '"{type: ring, bidirectional: true}"',
                                   '"{type: every_step, parallel: true}"')}


def planner_of(row):
    """static, harvest or every_step, whatever parameters the grid gave it."""
    name = row["synthesis.planner"]
    return "every_step" if "every_step" in name else name


def statistics(paths):
    """Each Fig. 5 claim's statistic from one variant's results.csv files (as claims.py computes them); a
    later file's planner replaces an earlier one's."""
    f5 = collections.defaultdict(dict)
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                key = (row["synthesis.algorithm"], row["fabric.reconfig_delay"], row["workload.message"])
                f5[key][planner_of(row)] = int(row["measured_ps"])
    out = {}
    for algorithm in ("recursive_doubling", "swing", "direct"):
        cells = [v for k, v in f5.items() if k[0] == algorithm and k[2] in SMALL and ps(k[1]) < 1e6]
        out[f"static_small/{algorithm}"] = max(v["static"] / v["harvest"] for v in cells)
        v = f5[(algorithm, "10000000ps", "1GB")]
        out[f"static_1GB/{algorithm}"] = v["static"] / v["harvest"]
        ratios = [f5[(algorithm, "100000000ps", m)]["every_step"] / f5[(algorithm, "100000000ps", m)]["harvest"]
                  for m in SMALL]
        out[f"bvn_small/{algorithm}"] = sum(ratios) / len(ratios)
        cells = [v for k, v in f5.items() if k[0] == algorithm and k[2] == "4MB" and 1e7 <= ps(k[1]) <= 1e8]
        out[f"bvn_4MB/{algorithm}"] = max(v["every_step"] / v["harvest"] for v in cells)
    out["best_of_both"] = max(min(v["static"], v["every_step"]) / v["harvest"] for v in f5.values())
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "reproduce", "harvest", "figure5_variants"))
    parser.add_argument("--photonsim", default=os.path.join(ROOT, "build", "photonsim"))
    parser.add_argument("--gpus", type=int, nargs="+", default=[8, 16, 32, 64])
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []

    def sweep(folder, gpus, ports, circuits, topologies, planners, what):
        shutil.rmtree(folder, ignore_errors=True)  # this script's own output: rerun whole
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, dir=args.out) as spec:
            spec.write(f"base: {BASE}\n"
                       "grid:\n"
                       f"  fabric.gpus: [{gpus}]\n"
                       f"  fabric.ports: [{ports}]\n"
                       f"  fabric.circuits: [{circuits}]\n"
                       f"  synthesis.topology: [{topologies}]\n"
                       f"  synthesis.planner: [{planners}]\n"
                       "  fabric.reconfig_delay: 10ns..10ms x2\n"
                       "  workload.message: [1KB, 4KB, 16KB, 64KB, 256KB, 1MB, 4MB, 16MB, 1GB]\n"
                       "zip:\n"
                       "  workload.collective: [allreduce, allreduce, alltoall]\n"
                       "  synthesis.algorithm: [recursive_doubling, swing, direct]\n"
                       "  workload.message_scope: [flow, flow, gpu]\n")
        try:
            done = subprocess.run([args.photonsim, "sweep", spec.name, "--out", folder], capture_output=True,
                                  text=True, cwd=ROOT)
        finally:
            os.unlink(spec.name)
        if done.returncode != 0:
            sys.exit(f"harvest_figure5_variants.py: the sweep n = {gpus}, {what} failed: {done.stderr.strip()}")
        return os.path.join(folder, "results.csv")

    for gpus in args.gpus:
        for ports_name, (ports, circuits, topology, bvn) in PORTS.items():
            folder = os.path.join(args.out, f"n{gpus}_p{ports}")
            own = sweep(folder, gpus, ports, circuits, topology, f"static, harvest, {bvn}", ports_name)
            for claim, value in statistics([own]).items():
                rows.append({"gpus": gpus, "ports": ports_name, "claim": claim, "value": f"{value:.4f}"})
            fresh = sweep(folder + "_bvn_from_no_circuits", gpus, ports, circuits, "none", bvn,
                          ports_name + FROM_NO_CIRCUITS)
            for claim, value in statistics([own, fresh]).items():
                if claim.startswith("bvn"):
                    rows.append({"gpus": gpus, "ports": ports_name + FROM_NO_CIRCUITS, "claim": claim,
                                 "value": f"{value:.4f}"})
            print(f"n = {gpus}, {ports_name}: done", flush=True)
    path = os.path.join(args.out, "variants.csv")
    with open(path + ".tmp", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["gpus", "ports", "claim", "value"])
        writer.writeheader()
        writer.writerows(rows)
    os.replace(path + ".tmp", path)
    by_claim = collections.defaultdict(list)
    for r in rows:
        by_claim[r["claim"]].append(f"{float(r['value']):.2f} (n = {r['gpus']}, {r['ports']})")
    for claim, values in by_claim.items():
        print(f"{claim}: " + ", ".join(values))
    print(f"written: {path}")


if __name__ == "__main__":
    main()
