#!/usr/bin/env python3
"""Compares what two photonsim binaries print, byte for byte, timing fields
aside: every shipped config and golden scenario under run (JSON), synth (the
schedule as text), plan (JSON) and, where the config has fabric.physical,
physical (JSON); and bound for n = 2..64 at 1, 2 and 4 ports. For a
refactoring, the binary before and after must agree everywhere.

    scripts/dev/compare_outputs.py BEFORE AFTER [--timeout SECONDS] [--only SUBSTRING]
                                   [--exclude SUBSTRING]... [--verbs run,synth,plan,physical]
                                   [--blank FIELD]... [--drop FIELD]...

Timing fields (wall_s, synthesis_s, simulation_s, solver_s, mesh_s and the
tables' "wall"/"solver time" lines) are blanked before comparing. A command
that runs past --timeout (default 120 s) in both binaries is listed as
skipped; past it in one only is a difference. --blank FIELD blanks a JSON
field's value too (e.g. --blank events, for a change that is known to fire
more or fewer events), and each output that differs in it alone is counted
and listed as such. --drop FIELD leaves a JSON field's line out altogether
(a field one binary prints and the other does not: --drop trains between a
binary before issue 54 and after). Exit 0 when nothing differs.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMING = re.compile(
    r'("(?:wall_s|synthesis_s|simulation_s|solver_s|mesh_s)"\s*:\s*)[0-9.eE+-]+'
    r'|^.*(?:wall|solver time).*$',
    re.MULTILINE,
)


def configs():
    found = []
    for folder in ("configs", os.path.join("tests", "golden")):
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, folder)):
            dirnames[:] = sorted(d for d in dirnames if d not in ("sweeps", "expected"))
            for name in sorted(filenames):
                if name.endswith(".yaml"):
                    found.append(os.path.join(dirpath, name))
    return found


def blank(text, fields, dropped=()):
    for field in dropped:
        text = re.sub(r'^\s*"' + re.escape(field) + r'"\s*:.*\n', "", text, flags=re.MULTILINE)
    for field in fields:
        text = re.sub(r'("' + re.escape(field) + r'"\s*:\s*)[0-9.eE+-]+', r"\1B", text)
    return text


def run(binary, args, timeout, scratch):
    try:
        done = subprocess.run([binary] + args, capture_output=True, text=True, timeout=timeout, cwd=scratch)
    except subprocess.TimeoutExpired:
        return None
    return f"exit {done.returncode}\n{TIMING.sub(lambda m: (m.group(1) or '') + 'T', done.stdout)}\n{done.stderr}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--only", default="", help="configs whose path holds this (and no bound)")
    parser.add_argument("--exclude", action="append", default=[], help="skip configs whose path holds this")
    parser.add_argument("--verbs", default="run,synth,plan,physical")
    parser.add_argument("--blank", action="append", default=[], help="a JSON field whose value is not compared")
    parser.add_argument("--drop", action="append", default=[], help="a JSON field left out of both outputs")
    options = parser.parse_args()
    commands = []
    for config in configs():
        if options.only not in config or any(x in config for x in options.exclude):
            continue
        verbs = options.verbs.split(",")
        with open(config, encoding="utf-8") as f:
            text = f.read()
        name = os.path.relpath(config, ROOT)
        if "run" in verbs:
            commands.append((name + " run", ["run", config, "--format", "json"], None))
        if "graph:" in text:
            continue
        if "synth" in verbs:
            commands.append((name + " synth", ["synth", config, "--out", "OUT.pbtxt"], "OUT.pbtxt"))
        if "plan" in verbs:
            commands.append((name + " plan", ["plan", config, "--format", "json"], None))
        if "physical" in verbs and "physical:" in text:
            commands.append((name + " physical", ["physical", config, "--format", "json"], None))
    if not options.only:
        for ports in (1, 2, 4):
            for gpus in range(2, 65):
                commands.append((f"bound n={gpus} k={ports}",
                                 ["bound", "--gpus", str(gpus), "--ports", str(ports), "--format", "json"], None))
    differ, skipped, blanked, same = [], [], [], 0
    with tempfile.TemporaryDirectory() as scratch_before, tempfile.TemporaryDirectory() as scratch_after:
        for label, args, written in commands:
            outputs = []
            for binary, scratch in ((options.before, scratch_before), (options.after, scratch_after)):
                out = run(os.path.abspath(binary), args, options.timeout, scratch)
                if out is not None and written:
                    path = os.path.join(scratch, written)
                    if os.path.exists(path):
                        with open(path, encoding="utf-8", errors="replace") as f:
                            out += f.read()
                        os.remove(path)
                outputs.append(out)
            if outputs[0] is None and outputs[1] is None:
                skipped.append(label)
            elif outputs[0] == outputs[1]:
                same += 1
            elif None not in outputs and blank(outputs[0], options.blank, options.drop) == blank(
                    outputs[1], options.blank, options.drop):
                blanked.append(label)
            else:
                differ.append(label)
                print(f"DIFFERS: {label}", flush=True)
    print(f"{same} outputs identical, {len(differ)} differ, {len(skipped)} skipped (past {options.timeout:g} s in both)"
          + (f", {len(blanked)} differ only in {', '.join(options.blank + options.drop)}"
             if options.blank or options.drop else ""))
    for label in skipped:
        print(f"  skipped: {label}")
    for label in blanked:
        print(f"  only in {', '.join(options.blank + options.drop)}: {label}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
