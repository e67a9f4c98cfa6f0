#!/usr/bin/python3
"""Runs the commands the documentation shows with their output, and checks
that the output shown is what they print now (README.md and docs/*.md by
default; docs/testing.md#documentation-examples has the conventions).

A checked example is one of:

  1. a ```sh block followed (blank lines aside) by a plain ``` block: the sh
     block's commands are run by bash, and what they print (stdout and
     stderr together) is compared with the plain block;
  2. `<!-- docs-check: COMMAND -->` before a plain ``` block: COMMAND's
     output is compared with the block; `<!-- docs-check excerpt: COMMAND -->`
     the same, for a block showing a passage of the output (as if it began
     and ended with `...`);
  3. a plain ``` block whose first line starts with `$ `: each `$ COMMAND`
     line (continued by lines after a trailing backslash) is run, and the
     lines up to the next `$ ` line are its output;
  4. `<!-- docs-check table: COMMAND -->` before a Markdown table: COMMAND
     prints one line per table row, its cells separated by white space, which
     are compared with the row's cells after the first (the label column).

A marker stands on the line before its block or table, alone or at the end
of a line of prose (an HTML comment is not rendered).
`<!-- docs-check skip: REASON -->` before a ```sh block (or instead of the
marker of 2 and 3) says why it is not run (mpirun, long sweeps, network);
skipped examples are counted and listed by --list.

In the shown output a line that is only `...` (indent aside) stands for any
number of lines. Timing is masked on both sides: lines naming `wall` or
`solver time`, JSON fields `"*_s": number`, dates and x.y.z versions.

Commands run with bash, each example under --timeout, from a scratch copy of
the repository root (a directory of symlinks to its top-level entries, with
an empty results/), one per Markdown file, so a file's examples run in order
and can build on each other. `build/photonsim` in a command and `photonsim`
on PATH are the binary under test (--photonsim, default
$PHOTONSIM_BINARY or build/photonsim); `python3` on PATH is the interpreter
running this script.

usage: scripts/dev/docs_runner.py [FILE.md ...] [--photonsim PATH] [--list]
                                  [--update] [--timeout SECONDS]
Exit 0 when every example's output matches (or --list / --update ran),
1 otherwise.
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(r"<!--\s*docs-check(?:\s+(table|skip|excerpt))?\s*:\s*(.*?)\s*(-->)?\s*$")
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
# The timing of compare_outputs.py (wall and solver-time lines, *_s JSON
# fields), plus dates and x.y.z versions.
MASKS = [
    (re.compile(r'^.*(?:\bwall\b|solver time).*$'), "<timing>"),
    (re.compile(r'("\w+_s"\s*:\s*)[0-9.eE+-]+'), r"\1T"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?\b"), "<date>"),
    (re.compile(r"\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b"), "<version>"),
]


def mask(line):
    line = line.rstrip()
    for pattern, replacement in MASKS:
        line = pattern.sub(replacement, line)
    return line


def is_ellipsis(line):
    return line.strip() == "..."


class Example:
    """kind: 'block' (output in a fenced block) or 'table'; command text;
    out_start/out_end: the 0-based line range of the shown output (the
    block's inner lines, or the table's body rows)."""

    def __init__(self, path, line, kind, command, out_start, out_end, skip=None):
        self.path, self.line, self.kind, self.command = path, line, kind, command
        self.out_start, self.out_end, self.skip = out_start, out_end, skip

    def where(self):
        inside = os.path.abspath(self.path).startswith(ROOT + os.sep)
        return f"{os.path.relpath(self.path, ROOT) if inside else self.path}:{self.line}"


def fenced_block(lines, i):
    """(language, first inner line, closing fence line) of the block opening at i."""
    m = FENCE.match(lines[i])
    j = i + 1
    while j < len(lines) and not FENCE.match(lines[j]):
        j += 1
    return m.group(2), i + 1, j


def next_nonblank(lines, i):
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def parse(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    examples, i, pending = [], 0, None  # pending: (kind, text, line) of a marker
    while i < len(lines):
        line = lines[i]
        m = MARKER.search(line)
        if m:
            kind, text, closed = m.group(1), m.group(2), m.group(3)
            start = i
            while not closed and i + 1 < len(lines):  # a marker spanning lines
                i += 1
                part = lines[i]
                closed = "-->" in part
                text += "\n" + part.split("-->")[0]
            pending = (kind or "block", text.strip(), start + 1)
            i += 1
            continue
        fm = FENCE.match(line)
        if fm:
            lang, inner, close = fenced_block(lines, i)
            if lang in ("sh", "bash", "console", "shell"):
                after = next_nonblank(lines, close + 1)
                paired = (after + 1 < len(lines) and FENCE.match(lines[after]) and FENCE.match(lines[after]).group(2) == ""
                          and not lines[after + 1].startswith("$ "))
                skip = pending[1] if pending and pending[0] == "skip" else None
                if paired:
                    _, out_inner, out_close = fenced_block(lines, after)
                    examples.append(Example(path, i + 1, "block", "\n".join(lines[inner:close]), out_inner, out_close, skip))
                    i, pending = out_close + 1, None
                    continue
                if skip:  # a skipped command block without shown output
                    examples.append(Example(path, i + 1, "block", "\n".join(lines[inner:close]), inner, inner, skip))
            elif lang == "" and inner < close and lines[inner].startswith("$ "):
                skip = pending[1] if pending and pending[0] == "skip" else None
                j = inner
                while j < close:  # `$ COMMAND` (continued by a trailing backslash), then its output
                    at, command = j, [lines[j][2:]]
                    while command[-1].endswith("\\") and j + 1 < close:
                        j += 1
                        command.append(lines[j])
                    j += 1
                    out = j
                    while j < close and not lines[j].startswith("$ "):
                        j += 1
                    examples.append(Example(path, at + 1, "block", "\n".join(command), out, j, skip))
            elif lang == "" and pending and pending[0] in ("block", "excerpt", "skip"):
                kind, text, at = pending
                examples.append(Example(path, at, "excerpt" if kind == "excerpt" else "block",
                                        "" if kind == "skip" else text, inner, close, text if kind == "skip" else None))
            pending = None
            i = close + 1
            continue
        if pending and pending[0] == "table" and line.lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            examples.append(Example(path, pending[2], "table", pending[1], i + 2, j))  # after header and rule
            pending, i = None, j
            continue
        if line.strip():  # a marker stands right before its block or table
            pending = None
        i += 1
    return lines, examples


def align(expected, actual):
    """The cheapest alignment of the shown lines (with `...`) to the printed
    ones: (cost = lines that differ after masking, [(shown index, printed
    index or None)]), or (None, None) when no alignment fits."""
    E, A = len(expected), len(actual)
    INF = float("inf")
    f = [[INF] * (A + 1) for _ in range(E + 1)]
    f[E][A] = 0
    for i in range(E - 1, -1, -1):
        for j in range(A, -1, -1):
            if is_ellipsis(expected[i]):
                f[i][j] = min(f[i + 1][j], f[i][j + 1] if j < A else INF)
            elif j < A:
                f[i][j] = (mask(expected[i]) != mask(actual[j])) + f[i + 1][j + 1]
    if f[0][0] == INF:
        return None, None
    pairs, i, j = [], 0, 0
    while i < E:
        if is_ellipsis(expected[i]):
            if f[i][j] == f[i + 1][j]:
                pairs.append((i, None))
                i += 1
            else:
                j += 1
        else:
            pairs.append((i, j))
            i, j = i + 1, j + 1
    return f[0][0], pairs


def sandbox(photonsim):
    """A scratch repository root and a bin directory for PATH."""
    d = tempfile.mkdtemp(prefix="docs_runner.")
    root = os.path.join(d, "root")
    os.mkdir(root)
    for name in os.listdir(ROOT):
        if name not in ("results", ".git"):
            os.symlink(os.path.join(ROOT, name), os.path.join(root, name))
    os.mkdir(os.path.join(root, "results"))
    bin_dir = os.path.join(d, "bin")
    os.mkdir(bin_dir)
    os.symlink(photonsim, os.path.join(bin_dir, "photonsim"))
    os.symlink(sys.executable, os.path.join(bin_dir, "python3"))
    return d, root, bin_dir


def run(command, photonsim, root, bin_dir, timeout):
    command = re.sub(r"(^|[\s;&|(`])build/photonsim(?=\s|$)", lambda m: m.group(1) + photonsim, command, flags=re.M)
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), PHOTONSIM_BINARY=photonsim)
    try:
        done = subprocess.run(["bash", "-c", "set -e\n" + command], cwd=root, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s"
    out = done.stdout.rstrip("\n").split("\n") if done.stdout.strip() else []
    if done.returncode != 0:
        return out, f"exit status {done.returncode}"
    return out, None


def check_block(ex, lines, actual, update):
    expected = lines[ex.out_start:ex.out_end]
    if ex.kind == "excerpt":  # the shown lines are a passage of the output
        cost, pairs = align(["..."] + expected + ["..."], actual)
        pairs = pairs and [(i - 1, j) for i, j in pairs[1:-1]]
    else:
        cost, pairs = align(expected, actual)
    if cost == 0:
        return True, None
    diff = "\n".join(difflib.unified_diff([mask(x) for x in expected], [mask(x) for x in actual],
                                           "shown", "printed", lineterm=""))
    message = (f"{ex.where()}: the output shown differs from what the command prints now "
               f"(timing masked; `...` stands for any lines)\n{diff}")
    if update:
        new = updated(expected, actual, ex.kind == "excerpt") if pairs is not None else actual
        return False, (message, new)
    return False, (message, None)


def updated(expected, actual, excerpt):
    """The shown lines rewritten from the printed ones, keeping the `...`:
    each run of lines between two `...` becomes the printed lines from the
    one matching its first line to the one matching its last (the start or
    end of the output at an end of a block that is no excerpt)."""
    segments, current = [], []
    for line in expected:
        if is_ellipsis(line):
            segments.append(current)
            segments.append(line)
            current = []
        else:
            current.append(line)
    segments.append(current)
    find = lambda line, start: next((k for k in range(start, len(actual)) if mask(actual[k]) == mask(line)), None)
    new, pos = [], 0
    for n, seg in enumerate(segments):
        if isinstance(seg, str):
            new.append(seg)
            continue
        if not seg:
            continue
        first = 0 if n == 0 and not excerpt else find(seg[0], pos)
        if n == len(segments) - 1 and not excerpt:
            last = len(actual) - 1
        else:
            last = find(seg[-1], max(first if first is not None else pos, pos) + (len(seg) > 1))
        if first is None or last is None or last < first:
            new.extend(seg)  # not found: left for a person to fix
            continue
        printed = actual[first:last + 1]
        matcher = difflib.SequenceMatcher(None, [mask(x) for x in seg], [mask(x) for x in printed], autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():  # lines equal but for timing stay as shown
            new.extend(seg[i1:i2] if tag == "equal" else printed[j1:j2])
        pos = last + 1
    return new


def check_table(ex, lines, actual, update):
    rows = lines[ex.out_start:ex.out_end]
    got = [line.split() for line in actual]
    shown = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    expected_text = [" ".join(r[1:]) for r in shown]
    printed_text = [" ".join(r) for r in got]
    if len(got) == len(shown) and all(mask(a) == mask(b) for a, b in zip(expected_text, printed_text)):
        return True, None
    diff = "\n".join(difflib.unified_diff(expected_text, printed_text, "shown", "printed", lineterm=""))
    message = f"{ex.where()}: the table's cells (after the first column) differ from what the command prints now\n{diff}"
    new = None
    if update:
        if len(got) != len(shown) or any(len(g) != len(s) - 1 for g, s in zip(got, shown)):
            message += "\n(not updated: the command prints another number of rows or cells than the table has)"
        else:
            new = ["| " + " | ".join([s[0]] + g) + " |" for s, g in zip(shown, got)]
    return False, (message, new)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="Markdown files (default: README.md and docs/*.md)")
    parser.add_argument("--photonsim", default=os.environ.get("PHOTONSIM_BINARY", os.path.join(ROOT, "build", "photonsim")),
                        help="the binary under test (default: $PHOTONSIM_BINARY or build/photonsim)")
    parser.add_argument("--list", action="store_true", help="list the examples found (file:line) and exit")
    parser.add_argument("--update", action="store_true", help="rewrite the shown outputs from what the commands print")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per example (default 60)")
    args = parser.parse_args()
    files = args.files or [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    parsed = [(path, *parse(path)) for path in files]
    if args.list:
        run_count = skip_count = 0
        for path, _, examples in parsed:
            for ex in examples:
                first = ex.command.strip().split("\n")[0][:90]
                if ex.skip:
                    skip_count += 1
                    print(f"{ex.where()}: skip ({ex.skip}): {first}")
                else:
                    run_count += 1
                    print(f"{ex.where()}: {ex.kind}: {first}")
        print(f"{run_count} examples checked, {skip_count} skipped")
        return 0
    photonsim = os.path.abspath(args.photonsim)
    if not os.access(photonsim, os.X_OK):
        print(f"docs_runner: no binary {photonsim} (--photonsim PATH)", file=sys.stderr)
        return 1
    failures, checked, skipped, updated = [], 0, 0, []
    for path, lines, examples in parsed:
        if not examples:
            continue
        scratch, root, bin_dir = sandbox(photonsim)
        replacements = []
        try:
            for ex in examples:
                if ex.skip:
                    skipped += 1
                    continue
                checked += 1
                started = time.time()
                actual, error = run(ex.command, photonsim, root, bin_dir, args.timeout)
                if error and actual is None:
                    failures.append(f"{ex.where()}: {error}\ncommand:\n{ex.command}")
                    continue
                ok, result = (check_table if ex.kind == "table" else check_block)(ex, lines, actual, args.update)
                if error:
                    failures.append(f"{ex.where()}: {error}\ncommand:\n{ex.command}\nprinted:\n" + "\n".join(actual))
                    continue
                if not ok:
                    message, new = result
                    if new is not None:
                        replacements.append((ex.out_start, ex.out_end, new))
                        updated.append(ex.where())
                    else:
                        failures.append(message)
                if time.time() - started > 30:
                    print(f"docs_runner: {ex.where()} took {time.time() - started:.0f} s; "
                          f"mark it `<!-- docs-check skip: REASON -->`?", file=sys.stderr)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        if replacements:
            for start, end, new in sorted(replacements, reverse=True):
                lines[start:end] = new
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
    for where in updated:
        print(f"docs_runner: updated {where}")
    for message in failures:
        print(message + "\n", file=sys.stderr)
    print(f"docs_runner: {checked} examples checked, {skipped} skipped, {len(updated)} updated, "
          f"{len(failures)} failed", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
