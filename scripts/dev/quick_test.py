#!/usr/bin/env python3
"""The edit-compile-test loop behind `scripts/test --quick`: builds and runs
only the tests of the folders a change touched, without sanitizers
(CMake preset `test`, build-test-plain/), each GoogleTest binary run once in
one process (ctest starts one process per test case; this is the fast way).

What the change is: the uncommitted files (tracked and untracked), or the
last commit's files when nothing is uncommitted (--base REV: everything
since REV). Which tests a folder has:

  core/                  core_tests
  topology/              topology_tests
  schedules/             schedules_tests, integration_tests
  sim/engine/            engine_tests, integration_tests
  sim/config/            config_tests
  sim/ (the rest)        sim_tests, cli_tests
  tests/<layer>/         <layer>_tests (tests/support/: every binary)
  python/, scripts/      the pytest tests (python/tests/) on the Release build
  CMakeLists.txt, cmake/ every binary

A change to a lower layer can break a higher one's tests too: the whole
suite (`scripts/test`) is still what CI runs.

usage: scripts/dev/quick_test.py [--base REV] [--dry-run] [--cmake-arg ARG ...]
Exit 0 when every test run passes, 1 when one fails, 2 on bad arguments.
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build-test-plain")
ALL = ["core_tests", "config_tests", "topology_tests", "schedules_tests", "engine_tests", "integration_tests",
       "sim_tests", "cli_tests"]
PYTEST = "pytest"

# Longest prefix first: the first that matches a path names its tests.
FOLDERS = [
    ("sim/engine/", ["engine_tests", "integration_tests"]),
    ("sim/config/", ["config_tests"]),
    ("sim/", ["sim_tests", "cli_tests"]),
    ("core/", ["core_tests"]),
    ("topology/", ["topology_tests"]),
    ("schedules/", ["schedules_tests", "integration_tests"]),
    ("tests/support/", ALL),
    ("tests/CMakeLists.txt", ALL),
    ("CMakeLists.txt", ALL),
    ("CMakePresets.json", ALL),
    ("cmake/", ALL),
    ("python/", [PYTEST]),
    ("scripts/", [PYTEST]),
]


def changed_files(base):
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()

    if base:
        return sorted(set(git("diff", "--name-only", base) + git("ls-files", "--others", "--exclude-standard")))
    files = set(git("diff", "--name-only", "HEAD") + git("ls-files", "--others", "--exclude-standard"))
    if not files:
        files = set(git("diff", "--name-only", "HEAD~1", "HEAD"))
    return sorted(files)


def tests_for(path):
    if path.startswith("tests/") and path.count("/") >= 2:
        layer = path.split("/")[1]
        if f"{layer}_tests" in ALL:
            return [f"{layer}_tests"]
    for prefix, tests in FOLDERS:
        if path.startswith(prefix):
            return tests
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", help="the change is everything since this revision")
    parser.add_argument("--dry-run", action="store_true", help="say what would be built and run, and stop")
    parser.add_argument("--cmake-arg", action="append", default=[], help="passed to the configure step")
    args = parser.parse_args()
    try:
        files = changed_files(args.base)
    except subprocess.CalledProcessError as error:
        print(f"quick_test: git: {error.stderr.strip()}", file=sys.stderr)
        return 2
    wanted = []
    for path in files:
        for test in tests_for(path):
            if test not in wanted:
                wanted.append(test)
    binaries = [t for t in ALL if t in wanted]
    print(f"quick_test: {len(files)} changed file(s); tests: {', '.join(binaries + ([PYTEST] if PYTEST in wanted else [])) or 'none'}",
          file=sys.stderr)
    if args.dry_run or not wanted:
        return 0
    failed = []
    if binaries:
        subprocess.run(["cmake", "--preset", "test", *args.cmake_arg], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", "--preset", "test", "-j", str(os.cpu_count() or 2), "--target", *binaries],
                       cwd=ROOT, check=True)
        scratch = tempfile.mkdtemp(prefix="photonsim-quick-")
        env = dict(os.environ, TEST_TMPDIR=scratch + "/")
        # Two binaries at a time on two cores; each prints only its failures.
        running = []
        for binary in binaries:
            command = [os.path.join(BUILD, "tests", binary), "--gtest_brief=1"]
            running.append((binary, subprocess.Popen(command, cwd=os.path.join(BUILD, "tests"), env=env)))
            if len(running) >= (os.cpu_count() or 2):
                name, process = running.pop(0)
                if process.wait() != 0:
                    failed.append(name)
        for name, process in running:
            if process.wait() != 0:
                failed.append(name)
    if PYTEST in wanted:
        subprocess.run(["cmake", "--preset", "release", "-DPHOTONSIM_TESTS=OFF", *args.cmake_arg], cwd=ROOT,
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", "--preset", "release", "--target", "photonsim", "photonsim_python", "-j",
                        str(os.cpu_count() or 2)], cwd=ROOT, check=True)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.path.join(ROOT, "build", "python") + (
            os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        if subprocess.run(["/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "python/tests"],
                          cwd=ROOT, env=env).returncode != 0:
            failed.append(PYTEST)
    if failed:
        print(f"quick_test: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"quick_test: passed: {', '.join(binaries + ([PYTEST] if PYTEST in wanted else []))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
