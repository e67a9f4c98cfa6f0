#!/usr/bin/env python3
"""Checks that the files compiled together in one unity build share no name.
The asan and release presets compile each target's .cpp files in batches of
several files per translation unit (PHOTONSIM_UNITY, CMakeLists.txt). Test
files: no two *_test.cpp files of one test binary give one name two meanings
at namespace scope: define the same function, type, variable or alias, or
import a helper by a using-declaration or a `using namespace` of a tests/
helper namespace where another file defines or imports another thing by that
name. Library files: no two .cpp files of one library define one file-local
name (in an anonymous namespace or `static`) or import one by a
using-declaration; their other names are declared in headers and mean one
thing in the whole program already.

Why: in a unity batch every file sees the file-local helpers of the files
before it. Two helpers with one name and the same parameters fail to
compile, but two with one name and different parameters (fabric(int) here,
fabric(int, int = 2) there) are overloads, and a call can silently bind to
the other file's helper; `using namespace reduction_checks;` in one file
brings its fabric() into every later file of the batch. A name that means
one thing per binary cannot. Names of the libraries' own headers are not
checked (a helper that overloads a library function fails to compile or
binds as it would in any file that includes that header).

Exempt: GoogleTest's macros (TEST, TEST_F, ...) and its PrintTo customisation
point, which gtest finds by argument type (overloads for different types are
its intended use).

Usage: unity_names.py [TESTS_DIR] [--targets LISTING]
TESTS_DIR: the checkout's tests/ by default. LISTING: a build's
unity/targets.txt ("target file" lines, files relative to the checkout, which
CMake writes): checks each listed target, the *_tests ones as test files;
without it, each test binary's folder of TESTS_DIR. Prints each name defined
twice with its files and exits 1; exits 0 when every name is defined once per
target. Needs Universal Ctags (Debian:
universal-ctags, which scripts/setup installs)."""

import collections
import json
import os
import re
import shutil
import subprocess
import sys

# The folders of tests/ that each build one test binary (tests/CMakeLists.txt).
TEST_BINARIES = ("core", "config", "topology", "schedules", "engine", "integration", "sim", "cli")
DEFINITION_KINDS = {"function", "class", "struct", "enum", "variable", "typedef", "union", "alias"}
EXEMPT = {"TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P", "INSTANTIATE_TEST_SUITE_P",
          "INSTANTIATE_TYPED_TEST_SUITE_P", "REGISTER_TYPED_TEST_SUITE_P", "PrintTo"}


def ctags(files, kinds="+p-l"):
    if not files:
        return []
    program = shutil.which("ctags-universal") or shutil.which("ctags")
    if program is None:
        sys.exit("unity_names.py: needs Universal Ctags (Debian: universal-ctags; scripts/setup installs it)")
    result = subprocess.run([program, "--output-format=json", "--fields=+sSKZ", f"--kinds-C++={kinds}",
                             "--language-force=C++", "-f", "-", *files],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"unity_names.py: {program} failed: {result.stderr.strip()}")
    return [json.loads(line) for line in result.stdout.splitlines()]


def namespace_of(tag):
    """The tag's enclosing namespace without anonymous parts or the project's own prefix."""
    parts = [p for p in tag.get("scope", "").split("::") if p and not p.startswith("__anon")]
    return "::".join(parts[1:] if parts[:1] == ["photonsim"] else parts)


def qualified(name):
    name = name.strip().lstrip(":")
    return name[len("photonsim::"):] if name.startswith("photonsim::") else name


def visible(tag):
    """A name the next file of a batch sees: defined at namespace scope, not a test macro's body."""
    name = tag.get("name", "")
    return (name not in EXEMPT and not name.startswith("__anon")
            and tag.get("scopeKind") in (None, "namespace"))


def helper_namespaces(tests_dir):
    """{namespace: names} of what tests/ headers define, for the `using namespace` lines that import them."""
    headers = []
    for parent, _, names in os.walk(tests_dir):
        headers += [os.path.join(parent, n) for n in names if n.endswith(".h")]
    found = collections.defaultdict(set)
    for tag in ctags(sorted(headers)):
        if tag.get("kind") in DEFINITION_KINDS and visible(tag):
            found[namespace_of(tag)].add(tag["name"])
    return found


def file_local(tag):
    """Defined in an anonymous namespace or `static` at namespace scope: a name no header declares."""
    return "__anon" in tag.get("scope", "") or re.match(r"/\^\s*static\b", tag.get("pattern", "")) is not None


def definitions(files, namespaces, local_only=False):
    """{name: {entity: files}}: each name a file defines or imports at namespace scope, by what it names (the
    file's own definition, or the helper a using-declaration or using-directive brings in). local_only: of the
    definitions, only the file-local ones."""
    where = collections.defaultdict(lambda: collections.defaultdict(set))
    for tag in ctags(files, "+pNU-l"):
        if not visible(tag):
            continue
        kind, path = tag.get("kind"), tag["path"]
        if kind in DEFINITION_KINDS and local_only and not file_local(tag):
            continue
        if kind in DEFINITION_KINDS:
            where[tag["name"]][f"defined in {os.path.basename(path)}"].add(path)
        elif kind == "name":
            imported = re.search(r"using\s+([\w:]+)\s*;", tag.get("pattern", ""))
            entity = qualified(imported.group(1)) if imported else tag["name"]
            where[tag["name"]][entity].add(path)
        elif kind == "using":
            space = qualified(tag["name"])
            for candidate, names in namespaces.items():
                if candidate == space or candidate.endswith("::" + space):
                    for name in names:
                        where[name][f"{candidate}::{name}"].add(path)
    return where


def test_files(folder):
    found = []
    for parent, _, names in os.walk(folder):
        found += [os.path.join(parent, n) for n in names if n.endswith("_test.cpp")]
    return sorted(found)


def listed_targets(listing, root):
    """{target: files} from a build's unity/targets.txt."""
    targets = collections.defaultdict(list)
    with open(listing, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            parts = line.split()
            if len(parts) != 2:
                sys.exit(f"unity_names.py: {listing}:{number}: expected 'target file', got {line.strip()!r}")
            targets[parts[0]].append(os.path.join(root, parts[1]))
    return targets


def clashes(tests_dir, targets=None):
    """[(target, name, meanings, files)] for every name that means two things in the files of one target
    (targets: {target: files}; default each test binary's folder of tests_dir)."""
    namespaces = helper_namespaces(tests_dir)
    if targets is None:
        targets = {f"{binary}_tests": test_files(os.path.join(tests_dir, binary)) for binary in TEST_BINARIES}
    found = []
    for target, files in sorted(targets.items()):
        if len(files) < 2:
            continue
        local_only = not target.endswith("_tests")
        for name, entities in sorted(definitions(sorted(files), namespaces, local_only).items()):
            if len(entities) > 1:
                found.append((target, name, sorted(entities), sorted(set().union(*entities.values()))))
    return found


def main(argv):
    args = argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0
    listing = None
    if "--targets" in args:
        at = args.index("--targets")
        if at + 1 >= len(args):
            print("unity_names.py: --targets needs a file (a build's unity/targets.txt)", file=sys.stderr)
            return 2
        listing = args[at + 1]
        del args[at:at + 2]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tests_dir = args[0] if args else os.path.join(root, "tests")
    found = clashes(tests_dir, listed_targets(listing, root) if listing else None)
    base = root if listing else tests_dir
    for target, name, meanings, paths in found:
        listed = ", ".join(os.path.relpath(p, base) for p in paths)
        print(f"{target}: '{name}' means {len(meanings)} things ({'; '.join(meanings)}) in files of one "
              f"unity build: {listed}")
    if found:
        print(f"unity_names.py: {len(found)} names with more than one meaning; rename each to say "
              "what it is in its file, or move one shared copy to tests/support/")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
