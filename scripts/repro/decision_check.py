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

Then, for each row that has points worse (the papers' costs, and rdc under
the old egress order), it reruns that row's worst point with one setting of
the fabric changed (router mode, packet size, egress order) and prints the
plan against the better baseline under each, with the plan's prediction, its
packet hops and the cost's price of staying static (the plan held to no
reconfiguration): what makes the plan choose worse, measured (attribution.md,
attribution.csv; each line's command is printed with it).

usage: scripts/repro/decision_check.py [--only harvest|harvest_2port|pccl|alltoall] [--jobs N] [--out DIR] [--strict]
                                       [--grid KEY=VALUE ...] [--attribution-only] [--binary PATH]
  --out: output folder (default results/decision_check): one sweep folder per check,
         summary.csv and summary.md, attribution.csv and attribution.md
  --strict: exit 1 when a default cost model has a point more than 1 % worse
  --grid: run the sweeps with KEY fixed to VALUE (repeatable), e.g. fabric.router=cut_through: the
          whole grid under the setting the attribution changes at one point (the sweep files, so
          changed, are written to the output folder)
  --attribution-only: only the attribution runs (seconds, no sweeps)
  --binary: the photonsim binary (default build/photonsim)
Paths are relative to the repository root; build/photonsim is built
(scripts/setup) when missing. Standard library only.
"""
import argparse
import collections
import csv
import json
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

# What makes a plan choose worse, measured: each row's worst point of the
# sweep (its exact grid values), rerun as swept and with one setting
# changed. check, the row, config, the column that tells the plans apart,
# the plan, the two baselines, the plan held to no reconfiguration (value,
# extra --set; its prediction is the cost's price of staying, which the
# static baseline measures; PCCL has no such parameter, so it gets r = 1 s),
# the point, and the settings: (label, --set).
ATTRIBUTION = [
    ("harvest", "cost: paper (Eq. 3/8)", "configs/harvest_paper/recursive_doubling_64.yaml", "synthesis.planner",
     "{type: harvest, cost: paper}", ("static", "every_step"),
     ("{type: harvest, cost: paper, max_reconfigurations: 0}", []),
     ["workload.collective=broadcast", "synthesis.algorithm=binomial", "fabric.reconfig_delay=31622777ps",
      "workload.message=31623B"],
     [("as swept: cut_through", []), ("store_and_forward", ["fabric.router=store_and_forward"])]),
    ("harvest_2port", "cost: paper", "configs/harvest_paper/recursive_doubling_64.yaml", "synthesis.planner",
     "{type: harvest, cost: paper}", ("static", "{type: every_step, parallel: true}"),
     ("{type: harvest, cost: paper, max_reconfigurations: 0}", []),
     ["fabric.gpus=32", "fabric.ports=2", "fabric.circuits=bidirectional", "workload.message_scope=flow",
      "workload.collective=allreduce", "synthesis.algorithm=ring", "fabric.reconfig_delay=1ms", "workload.message=1KB"],
     [("as swept: cut_through", []), ("store_and_forward", ["fabric.router=store_and_forward"])]),
    ("pccl", "cost: paper (Eq. 1)", "configs/pccl_paper/rhd_reducescatter_128.yaml", "synthesis.planner",
     "{type: pccl, cost: paper}", ("static", "every_step"), ("{type: pccl, cost: paper}", ["fabric.reconfig_delay=1s"]),
     ["fabric.gpus=32", "synthesis.algorithm=recursive_doubling", "fabric.reconfig_delay=10us", "workload.message=1GB"],
     [("as swept: store_and_forward, packet = chunk", []), ("cut_through", ["fabric.router=cut_through"]),
      ("packet 64KiB", ["fabric.packet=64KiB"])]),
    # the worst point left when the whole grid runs cut-through (--grid fabric.router=cut_through)
    ("pccl", "cost: paper (Eq. 1), worst under cut_through", "configs/pccl_paper/rhd_reducescatter_128.yaml",
     "synthesis.planner", "{type: pccl, cost: paper}", ("static", "every_step"),
     ("{type: pccl, cost: paper}", ["fabric.reconfig_delay=1s"]),
     ["fabric.gpus=32", "synthesis.algorithm=rhd", "fabric.reconfig_delay=100us", "workload.message=3162278B"],
     [("cut_through", ["fabric.router=cut_through"]), ("packet 64KiB", ["fabric.packet=64KiB"]),
      ("as swept: store_and_forward, packet = chunk", [])]),
    ("alltoall", "rdc, egress_order: chunk", "configs/alltoall_paper/figure11.yaml", "synthesis.algorithm",
     "rdc", ("static_ring", "pairwise"), None,
     ["fabric.ports=1", "fabric.reconfig_delay=1us", "workload.message=64KB"],
     [("as swept: egress_order chunk, packet 4KiB", ["fabric.packet=4KiB", "fabric.egress_order=chunk"]),
      ("egress_order chunk_fifo", ["fabric.packet=4KiB", "fabric.egress_order=chunk_fifo"]),
      ("packet = chunk", ["fabric.packet=chunk", "fabric.egress_order=chunk"])]),
]


def shell_word(word):
    return word if all(c.isalnum() or c in "-_=./:" for c in word) else "'" + word + "'"


def attribute(binary, only):
    """Reruns each row's worst point under each setting: the plan against the better baseline."""
    rows = []
    for check, row, config, by, plan, baselines, stay, point, settings in ATTRIBUTION:
        if only and check != only:
            continue
        for label, changed in settings:
            sets = point + changed
            measured = {}
            runs = [(value, value, []) for value in (plan,) + baselines] + ([("stay",) + stay] if stay else [])
            for name, value, extra in runs:
                args = [binary, "run", config, "--format", "json"]
                for s in sets + extra + [f"{by}={value}"]:
                    args += ["--set", s]
                done = subprocess.run(args, capture_output=True, text=True)
                if done.returncode != 0:
                    sys.exit(f"decision_check.py: {' '.join(args)} failed (exit {done.returncode}): {done.stderr.strip()}")
                measured[name] = json.loads(done.stdout)
            staying = ""
            if stay and measured["stay"]["reconfigurations"] == 0:
                staying = f"{measured['stay']['predicted_ps'] / 1e6:.3f}"
            elif stay:
                staying = "reconfigured"
            best = min(baselines, key=lambda b: measured[b]["measured_ps"])
            mine, theirs = measured[plan], measured[best]
            rows.append({
                "check": check, "row": row, "setting": label,
                "plan_us": f"{mine['measured_ps'] / 1e6:.3f}", "plan_predicted_us": f"{mine['predicted_ps'] / 1e6:.3f}",
                "plan_reconfigurations": mine["reconfigurations"],
                "baseline": best, "baseline_us": f"{theirs['measured_ps'] / 1e6:.3f}",
                "ratio": f"{mine['measured_ps'] / theirs['measured_ps']:.4f}",
                "plan_packet_hops": mine["packet_hops"], "baseline_packet_hops": theirs["packet_hops"],
                "staying_priced_us": staying,
                "static_us": f"{measured[baselines[0]]['measured_ps'] / 1e6:.3f}",
                "command": " ".join([binary, "run", config] + [f"--set {shell_word(s)}" for s in sets] +
                                    [f"--set {shell_word(by + '=' + plan)}"]) +
                           f" (the baselines: {by}=" + ", ".join(baselines) +
                           (f"; staying: --set {shell_word(by + '=' + stay[0])}" + "".join(f" --set {x}" for x in stay[1])
                            if stay else "") +
                           ")",
            })
    return rows


def staying_cell(priced):
    return "-" if not priced else priced if priced == "reconfigured" else priced + " us"


def with_grid(sweep, settings, path):
    """The sweep file with each KEY=VALUE of `settings` as a one-value grid key (replacing the key's
    own line), written to `path`, its base made absolute; the sweep itself when there are none."""
    if not settings:
        return sweep
    with open(sweep, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fixed = dict(setting.split("=", 1) for setting in settings)
    out, in_grid = [], False
    for line in lines:
        if line.startswith("base:"):
            base = line.split(":", 1)[1].strip()
            line = "base: " + os.path.abspath(os.path.join(os.path.dirname(sweep), base))
        if in_grid and line.startswith("  ") and line.split(":", 1)[0].strip() in fixed:
            continue
        if line and not line.startswith(" "):
            in_grid = line.rstrip() == "grid:"
        out.append(line)
        if line.rstrip() == "grid:":
            out += [f"  {key}: [\"{value}\"]" for key, value in fixed.items()]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    return path


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
    """Per plan: the points compared and the worse ones, (ratio, point, whether the plan moved
    more packet hops than the better baseline), worst first."""
    with open(results_csv, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        key_columns = grid_columns(reader.fieldnames, by)
        points = collections.defaultdict(dict)
        hops = collections.defaultdict(dict)
        for row in reader:
            key = tuple(row[c] for c in key_columns)
            points[key][row[by]] = int(row["measured_ps"])
            hops[key][row[by]] = int(row["packet_hops"])
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
            better = min(baselines, key=lambda b: measured[b])
            ratio = measured[value] / measured[better]
            if ratio > TOLERANCE:
                worse.append((ratio, dict(zip(key_columns, key)), hops[key][value] > hops[key][better]))
        worse.sort(key=lambda w: -w[0])
        out.append({"label": label, "default": default, "points": compared, "worse": worse})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=[c[0] for c in CHECKS])
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--out", default="results/decision_check")
    parser.add_argument("--strict", action="store_true")
    parser.add_argument("--grid", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--attribution-only", action="store_true")
    parser.add_argument("--binary", default="build/photonsim")
    args = parser.parse_args()
    if args.jobs < 1:
        sys.exit("decision_check.py: --jobs needs a count >= 1")
    if any("=" not in g for g in args.grid):
        sys.exit("decision_check.py: --grid takes KEY=VALUE")
    os.chdir(ROOT)
    binary = args.binary
    if not os.access(binary, os.X_OK):
        if binary != "build/photonsim":
            sys.exit(f"decision_check.py: {binary} is not an executable")
        subprocess.run(["scripts/setup"], check=True)
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for name, sweep, by, baselines, plans in CHECKS:
        if args.only and name != args.only or args.attribution_only:
            continue
        folder = os.path.join(args.out, name)
        shutil.rmtree(folder, ignore_errors=True)
        sweep = with_grid(sweep, args.grid, os.path.join(args.out, name + ".sweep.yaml"))
        start = time.time()
        done = subprocess.run([binary, "sweep", sweep, "--out", folder, "--jobs", str(args.jobs)],
                              stdout=subprocess.DEVNULL)
        if done.returncode != 0:
            sys.exit(f"decision_check.py: {binary} sweep {sweep} failed (exit {done.returncode})")
        seconds = time.time() - start
        for result in count(os.path.join(folder, "results.csv"), by, baselines, plans):
            worst = result["worse"][0] if result["worse"] else None
            rows.append({
                "check": " ".join([name] + args.grid),
                "plan": result["label"],
                "default": "yes" if result["default"] else "no",
                "points": result["points"],
                "worse_than_1pct": len(result["worse"]),
                "of_which_more_packet_hops": sum(1 for w in result["worse"] if w[2]),
                "worst_ratio": f"{worst[0]:.4f}" if worst else "",
                "worst_point": " ".join(f"{k}={v}" for k, v in worst[1].items()) if worst else "",
                "sweep_s": f"{seconds:.0f}",
            })
    written = []
    if not args.attribution_only:
        fields = ["check", "plan", "default", "points", "worse_than_1pct", "of_which_more_packet_hops", "worst_ratio",
                  "worst_point", "sweep_s"]
        summary_csv = os.path.join(args.out, "summary.csv")
        with open(summary_csv + ".tmp", "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
        os.replace(summary_csv + ".tmp", summary_csv)
        lines = ["| check | plan | points | > 1 % slower than the better baseline | of these, the plan moves more packet "
                 "hops | worst (ratio, point) |",
                 "| --- | --- | --- | --- | --- | --- |"]
        for r in rows:
            worst = f"{r['worst_ratio']} at {r['worst_point']}" if r["worst_ratio"] else "-"
            lines.append(f"| {r['check']} | {r['plan']} | {r['points']} | {r['worse_than_1pct']} | "
                         f"{r['of_which_more_packet_hops']} | {worst} |")
        table = "\n".join(lines) + "\n"
        summary_md = os.path.join(args.out, "summary.md")
        with open(summary_md + ".tmp", "w", encoding="utf-8") as f:
            f.write(table)
        os.replace(summary_md + ".tmp", summary_md)
        print(table)
        written += [summary_csv, summary_md]
    attribution = attribute(binary, args.only)
    lines = ["What makes each plan choose worse, measured: the row's worst point, as swept and with one setting changed",
             "",
             "| check | row | setting | plan: measured (predicted), reconfigurations | better baseline | plan / baseline | "
             "packet hops: plan / baseline | staying (static): priced by the cost, measured |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in attribution:
        lines.append(f"| {r['check']} | {r['row']} | {r['setting']} | {r['plan_us']} us ({r['plan_predicted_us']} us), "
                     f"{r['plan_reconfigurations']} | {r['baseline']}: {r['baseline_us']} us | {r['ratio']}x | "
                     f"{r['plan_packet_hops']} / {r['baseline_packet_hops']} | "
                     f"{staying_cell(r['staying_priced_us'])}, {r['static_us']} us |")
    lines.append("")
    lines.append("staying: the plan held to no reconfiguration (Harvest max_reconfigurations: 0; PCCL, which has no such "
                 "parameter, at r = 1 s), so its prediction is the cost's price of the static plan; next to it what "
                 "static measures")
    lines += ["", "commands:"] + [f"- {r['check']}, {r['setting']}: {r['command']}" for r in attribution]
    attribution_md = os.path.join(args.out, "attribution.md")
    with open(attribution_md + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(attribution_md + ".tmp", attribution_md)
    attribution_csv = os.path.join(args.out, "attribution.csv")
    with open(attribution_csv + ".tmp", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(attribution[0]) if attribution else ["check"])
        writer.writeheader()
        writer.writerows(attribution)
    os.replace(attribution_csv + ".tmp", attribution_csv)
    print("\n".join(lines))
    written += [attribution_csv, attribution_md]
    print("written: " + ", ".join(written))
    failing = [r for r in rows if r["default"] == "yes" and r["worse_than_1pct"] > 0]
    return 1 if args.strict and failing else 0


if __name__ == "__main__":
    sys.exit(main())
