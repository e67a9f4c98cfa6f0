#!/usr/bin/env python3
"""Prints the slowest tests of the last ctest run in a build folder, from
ctest's own log (BUILD/Testing/Temporary/LastTest.log), slowest first, and
how much of the run's test time they take.

usage: scripts/dev/slowest_tests.py [BUILD] [--top N]
  BUILD  the build folder ctest ran in (default: build-test, scripts/test's)
  --top  how many to print (default 30)
Exit 0; 1 when the folder has no ctest log. Standard library only.
"""
import argparse
import os
import re
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build", nargs="?", default="build-test")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    log = os.path.join(args.build, "Testing", "Temporary", "LastTest.log")
    if not os.path.exists(log):
        print(f"slowest_tests: no ctest log at {log} (run ctest there first)", file=sys.stderr)
        return 1
    text = open(log, errors="replace").read()
    # Each test's record: "N/M Test: NAME" ... "Test time =   S sec".
    times = [(float(m.group(2)), m.group(1))
             for m in re.finditer(r"\n\d+/\d+ Test: (\S+)[^\n]*\n.*?Test time = +([\d.]+) sec", text, re.S)]
    times.sort(key=lambda t: (-t[0], t[1]))
    total = sum(t for t, _ in times)
    top = times[:args.top]
    print(f"{len(times)} tests, {total:.1f} s of test time; the {len(top)} slowest take "
          f"{sum(t for t, _ in top):.1f} s ({100 * sum(t for t, _ in top) / total if total else 0:.0f} %)")
    for seconds, name in top:
        print(f"{seconds:8.2f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
