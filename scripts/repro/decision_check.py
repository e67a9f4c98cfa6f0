#!/usr/bin/python3
"""Do the planners ever choose worse than doing nothing? For Harvest, PCCL and
the all-to-all paper's synthesizer (rdc), sweeps alpha_r x message size x
algorithm on each paper's fabric (configs/sweeps/decisions_*.yaml), every
point simulated packet by packet, and counts the points where a planner's
plan measures more than 1 % slower than the better of the two baselines:
never reconfiguring (static; for all-to-all the static ring) and
reconfiguring before every step (every_step; for all-to-all pairwise). Each
planner runs with its default cost model and with the paper's, so the table
shows what the paper's cost model would have decided.

usage: scripts/repro/decision_check.py [--only harvest|harvest_2port|pccl|alltoall] [--jobs N] [--out DIR] [--strict]
  --out: output folder (default results/decision_check): one sweep folder per check,
         summary.csv and summary.md
  --strict: exit 1 when a default cost model has a point more than 1 % worse
Paths are relative to the repository root; build/photonsim is built
(scripts/setup) when missing. Standard library only.
"""
import argparse
import collections
import csv
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOLERANCE = 1.01

# name, sweep, the column that tells the plans apart, the two baselines, and
# for each plan under test: its value in that column, its label, whether it
# is the default, and the points it is counted on (column: value).
CHECKS = [
    ("harvest", "configs/sweeps/decisions_harvest.yaml", "synthesis.planner", ("static", "every_step"),
     [("harvest", "harvest (default cost: overlapped)", True, {}),
      ("{type: harvest, cost: paper}", "harvest, cost: paper (Eq. 3/8)", False, {})]),
    ("harvest_2port", "configs/sweeps/decisions_harvest_2port.yaml", "synthesis.planner",
     ("static", "{type: every_step, parallel: true}"),
     [("harvest", "harvest, 2 bidirectional ports (default cost: overlapped)", True, {}),
      ("{type: harvest, cost: paper}", "harvest, 2 bidirectional ports, cost: paper", False, {})]),
    ("pccl", "configs/sweeps/decisions_pccl.yaml", "synthesis.planner", ("static", "every_step"),
     [("pccl", "pccl (default cost: fabric)", True, {}),
      ("{type: pccl, cost: paper}", "pccl, cost: paper (Eq. 1)", False, {})]),
    ("alltoall", "configs/sweeps/decisions_alltoall.yaml", "synthesis.algorithm", ("static_ring", "pairwise"),
     [("rdc", "rdc (d by its prediction), egress_order: chunk_fifo (default: the paper's htsim queues)", True,
       {"fabric.egress_order": "chunk_fifo"}),
      ("rdc", "rdc (d by its prediction), egress_order: fifo", False, {"fabric.egress_order": "fifo"}),
      ("rdc", "rdc (d by its prediction), egress_order: chunk (the default before issue 34)", False,
       {"fabric.egress_order": "chunk"})]),
]


def grid_columns(header, by):
    """The sweep's own columns (before the run's columns start at 'collective'), but `by`."""
    columns = []
    for name in header:
        if name == "collective":
            break
        if name != by:
            columns.append(name)
    return columns


def count(results_csv, by, baselines, plans):
    with open(results_csv, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        key_columns = grid_columns(reader.fieldnames, by)
        points = collections.defaultdict(dict)
        for row in reader:
            points[tuple(row[c] for c in key_columns)][row[by]] = int(row["measured_ps"])
    out = []
    for value, label, default, where in plans:
        compared, worse = 0, []
        for key, measured in points.items():
            if value not in measured or not all(b in measured for b in baselines):
                continue
            named = dict(zip(key_columns, key))
            if any(named.get(column) != wanted for column, wanted in where.items()):
                continue
            compared += 1
            best = min(measured[b] for b in baselines)
            ratio = measured[value] / best
            if ratio > TOLERANCE:
                worse.append((ratio, dict(zip(key_columns, key))))
        worse.sort(key=lambda w: -w[0])
        out.append({"label": label, "default": default, "points": compared, "worse": worse})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=[c[0] for c in CHECKS])
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--out", default="results/decision_check")
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args()
    if args.jobs < 1:
        sys.exit("decision_check.py: --jobs needs a count >= 1")
    os.chdir(ROOT)
    binary = "build/photonsim"
    if not os.access(binary, os.X_OK):
        subprocess.run(["scripts/setup"], check=True)
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for name, sweep, by, baselines, plans in CHECKS:
        if args.only and name != args.only:
            continue
        folder = os.path.join(args.out, name)
        shutil.rmtree(folder, ignore_errors=True)
        start = time.time()
        done = subprocess.run([binary, "sweep", sweep, "--out", folder, "--jobs", str(args.jobs)],
                              stdout=subprocess.DEVNULL)
        if done.returncode != 0:
            sys.exit(f"decision_check.py: {binary} sweep {sweep} failed (exit {done.returncode})")
        seconds = time.time() - start
        for result in count(os.path.join(folder, "results.csv"), by, baselines, plans):
            worst = result["worse"][0] if result["worse"] else None
            rows.append({
                "check": name,
                "plan": result["label"],
                "default": "yes" if result["default"] else "no",
                "points": result["points"],
                "worse_than_1pct": len(result["worse"]),
                "worst_ratio": f"{worst[0]:.4f}" if worst else "",
                "worst_point": " ".join(f"{k}={v}" for k, v in worst[1].items()) if worst else "",
                "sweep_s": f"{seconds:.0f}",
            })
    fields = ["check", "plan", "default", "points", "worse_than_1pct", "worst_ratio", "worst_point", "sweep_s"]
    summary_csv = os.path.join(args.out, "summary.csv")
    with open(summary_csv + ".tmp", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(summary_csv + ".tmp", summary_csv)
    lines = ["| check | plan | points | > 1 % slower than the better baseline | worst (ratio, point) |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        worst = f"{r['worst_ratio']} at {r['worst_point']}" if r["worst_ratio"] else "-"
        lines.append(f"| {r['check']} | {r['plan']} | {r['points']} | {r['worse_than_1pct']} | {worst} |")
    table = "\n".join(lines) + "\n"
    summary_md = os.path.join(args.out, "summary.md")
    with open(summary_md + ".tmp", "w", encoding="utf-8") as f:
        f.write(table)
    os.replace(summary_md + ".tmp", summary_md)
    print(table, end="")
    print(f"written: {summary_csv}, {summary_md}")
    failing = [r for r in rows if r["default"] == "yes" and r["worse_than_1pct"] > 0]
    return 1 if args.strict and failing else 0


if __name__ == "__main__":
    sys.exit(main())
