"""The documentation's examples print what it shows: scripts/dev/docs_runner.py
runs every command block of README.md and docs/*.md that shows its output
(conventions: docs/testing.md#documentation-examples) against the binary
under test ($PHOTONSIM_BINARY or build/photonsim) and compares, timing masked.
A changed number fails here; `scripts/dev/docs_runner.py --update` rewrites
the docs from what the binary prints."""

import os
import subprocess
import sys
import textwrap

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
BINARY = os.environ.get("PHOTONSIM_BINARY", os.path.join(ROOT, "build", "photonsim"))
RUNNER = os.path.join(ROOT, "scripts", "dev", "docs_runner.py")


def runner(*args, timeout=300):
    return subprocess.run([sys.executable, RUNNER, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_every_documented_output_is_what_the_binary_prints():
    done = runner("--photonsim", BINARY)
    assert done.returncode == 0, done.stderr + done.stdout


def test_list_counts_the_checked_and_the_skipped_examples():
    done = runner("--list")
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().split("\n")[-1]
    checked, skipped = int(last.split()[0]), int(last.split(", ")[1].split()[0])
    assert checked >= 9 and skipped >= 2, done.stdout
    assert "docs/workloads.md:" in done.stdout and "README.md:" in done.stdout
    assert "skip (needs an MPI build and mpirun)" in done.stdout


def write(tmp_path, text):
    path = tmp_path / "doc.md"
    path.write_text(textwrap.dedent(text))
    return path


def test_a_changed_number_fails_with_file_line_and_a_diff_and_update_fixes_it(tmp_path):
    doc = write(tmp_path, """\
        Some prose.

        ```sh
        printf 'header 1.2.3\\nvalue 42\\nwall 0.1 s\\ntail\\n'
        ```

        ```
        header 9.9.9
        value 41
        wall 7 s
        ...
        ```

        <!-- docs-check table: echo 1 2; echo 3 4 -->
        | row | a | b |
        | --- | --- | --- |
        | x | 1 | 2 |
        | y | 3 | 5 |

        <!-- docs-check skip: needs a cluster -->
        ```sh
        mpirun -np 4 photonsim sweep x.yaml
        ```

        ```
        $ echo one
        one
        $ echo two && \\
          echo three
        two
        three
        ```
        """)
    done = runner(str(doc), "--photonsim", sys.executable)
    assert done.returncode == 1
    assert "doc.md:3: the output shown differs" in done.stderr
    assert "-value 41\n" in done.stderr and "+value 42\n" in done.stderr  # version and wall line masked, `...` any lines
    assert "doc.md:14: the table's cells" in done.stderr and "-3 5\n+3 4" in done.stderr
    assert "2 failed" in done.stderr and "1 skipped" in done.stderr
    listed = runner(str(doc), "--list").stdout
    assert "doc.md:21: skip (needs a cluster)" in listed and "4 examples checked, 1 skipped" in listed
    updated = runner(str(doc), "--update", "--photonsim", sys.executable)
    assert updated.returncode == 0, updated.stderr
    text = doc.read_text()
    assert "value 42" in text and "header 9.9.9" in text and "wall 7 s" in text and "| y | 3 | 4 |" in text
    assert runner(str(doc), "--photonsim", sys.executable).returncode == 0
