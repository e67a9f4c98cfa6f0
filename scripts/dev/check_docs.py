#!/usr/bin/env python3
"""Checks the documentation (README.md, docs/ and every other tracked
Markdown file):

  1. every relative link and image resolves to a file, and every #anchor to a
     heading of the page it names (GitHub's anchor rules);
  2. every path under scripts/ that a tracked file names exists (so a moved or
     renamed script leaves no stale reference behind).

With --against REV it also checks that nothing of an older README was lost:
every line of REV's README.md that bears a number must still appear in
README.md or docs/*.md, word for word (whitespace aside), or at least with
the same numbers in the same order within one passage; lines found neither
way are listed.

With --all-lines every non-blank line is checked (a line without numbers
must then be found word for word).

usage: scripts/dev/check_docs.py [--against REV [--all-lines]] [--verbose]
Exit 0 when everything holds, 1 otherwise. Standard library only.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SCRIPT_PATH = re.compile(r"scripts/[A-Za-z0-9_./-]*[A-Za-z0-9_]")
# Files whose text is data, not references: fuzzing inputs, expected outputs.
SKIP_PREFIXES = ("tests/fuzz/corpus/", "tests/golden/expected/")


def tracked(*patterns):
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *patterns], cwd=ROOT, capture_output=True, text=True, check=True)
    return [f for f in out.stdout.splitlines() if not f.startswith(SKIP_PREFIXES)]


def without_code_blocks(text):
    """The lines outside ``` fences (a `# comment` in a code block is no heading)."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            lines.append("")
            continue
        lines.append("" if fenced else line)
    return lines


def anchors(path):
    """GitHub's anchors of a Markdown file's headings."""
    seen, result = {}, set()
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        for line in without_code_blocks(f.read()):
            m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            slug = re.sub(r"[^\w\- ]", "", m.group(2).strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            result.add(slug if n == 0 else f"{slug}-{n}")
    return result


def check_links(markdown_files):
    problems, count = [], 0
    cache = {}
    for path in markdown_files:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            lines = without_code_blocks(f.read())
        for number, line in enumerate(lines, 1):
            for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                count += 1
                file_part, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.exists(os.path.join(ROOT, resolved)):
                    problems.append(f"{path}:{number}: link to {target}: no file {resolved}")
                    continue
                if anchor:
                    if not resolved.endswith(".md"):
                        problems.append(f"{path}:{number}: link to {target}: an anchor into a file that is not Markdown")
                        continue
                    if resolved not in cache:
                        cache[resolved] = anchors(resolved)
                    if anchor not in cache[resolved]:
                        problems.append(f"{path}:{number}: link to {target}: {resolved} has no heading #{anchor}")
    return problems, count


def check_script_paths(files):
    problems, count = [], 0
    for path in files:
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        for number, line in enumerate(text.split("\n"), 1):
            for m in SCRIPT_PATH.finditer(line):
                name = m.group(0)
                if line[m.end():m.end() + 1] == "*" or "{" in line[m.start():m.end() + 1]:
                    continue  # a pattern, not a path
                count += 1
                if not os.path.exists(os.path.join(ROOT, name)):
                    problems.append(f"{path}:{number}: names {name}, which does not exist")
    return problems, count


def normalise(text):
    return re.sub(r"\s+", " ", text).strip()


NUMBER = re.compile(r"\d[\d,.]*")


def check_lost(rev, verbose, all_lines=False):
    old = subprocess.run(["git", "show", f"{rev}:README.md"], cwd=ROOT, capture_output=True, text=True)
    if old.returncode != 0:
        sys.exit(f"check_docs.py: cannot read README.md at {rev}: {old.stderr.strip()}")
    pages = ["README.md"] + sorted(f for f in tracked("docs/*.md"))
    corpus = {}
    for p in pages:
        with open(os.path.join(ROOT, p), encoding="utf-8") as f:
            corpus[p] = normalise(f.read())
    whole = " ".join(corpus.values())
    exact = reworded = 0
    lost = []
    lines = [line for line in old.stdout.split("\n") if (line.strip() if all_lines else re.search(r"\d", line))]
    for line in lines:
        text = normalise(line)
        if text in whole:
            exact += 1
            continue
        # Reworded (a link instead of "see ...", a list marker dropped): the
        # same numbers, in order, within one passage of some page.
        numbers = NUMBER.findall(text)
        found = False
        if not numbers:
            lost.append(text)
            continue
        for page in corpus.values():
            start = page.find(numbers[0]) if numbers else -1
            while start >= 0 and not found:
                window = page[max(0, start - len(text)):start + 3 * len(text) + 200]
                at = 0
                for n in numbers:
                    at = window.find(n, at)
                    if at < 0:
                        break
                    at += len(n)
                found = at >= 0
                start = page.find(numbers[0], start + 1)
            if found:
                break
        if found:
            reworded += 1
            if verbose:
                print(f"reworded, numbers kept: {text[:110]}")
        else:
            lost.append(text)
    kind = "non-blank lines" if all_lines else "lines bear a number"
    print(f"{rev}:README.md: {len(lines)} {kind}: {exact} found word for word, "
          f"{reworded} reworded with the same numbers in order, {len(lost)} not found")
    for text in lost:
        print(f"  not found: {text}")
    return lost


def main():
    args = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    args.add_argument("--against", metavar="REV", help="also check that no number-bearing line of REV's README was lost")
    args.add_argument("--all-lines", action="store_true", help="with --against: every non-blank line, not only those with numbers")
    args.add_argument("--verbose", action="store_true", help="list the reworded lines too")
    args = args.parse_args()
    markdown = tracked("*.md")
    link_problems, links = check_links(markdown)
    path_problems, paths = check_script_paths(tracked())
    for p in link_problems + path_problems:
        print(p)
    print(f"{len(markdown)} Markdown files: {links} relative links, {len(link_problems)} broken; "
          f"{paths} script paths named in tracked files, {len(path_problems)} missing")
    lost = check_lost(args.against, args.verbose, args.all_lines) if args.against else []
    sys.exit(1 if link_problems or path_problems or lost else 0)


if __name__ == "__main__":
    main()
