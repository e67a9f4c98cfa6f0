#!/usr/bin/env python3
"""Writes the example notebook from its script, so the two never drift:
python/examples/quickstart.py -> python/examples/quickstart.ipynb (outputs
stripped). Cells are the script's "# %%" sections; the first (before any
"# %%") loses its argparse lines, the plot its headless backend, the notebook writing to
results/python_quickstart under the repository.

  scripts/dev/notebook_from_script.py [--check]   (--check: exit 1 if the notebook is stale)
"""
import json
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.realpath(__file__)), os.pardir, os.pardir))
SCRIPT = os.path.join(ROOT, "python", "examples", "quickstart.py")
NOTEBOOK = os.path.join(ROOT, "python", "examples", "quickstart.ipynb")


def cells(source):
    body = source.split('"""', 2)[2].lstrip("\n")  # without the shebang and docstring
    sections = body.split("# %% ")
    first = [line for line in sections[0].splitlines()
             if "argparse" not in line and "parser." not in line and not line.startswith("out = ")]
    first = "\n".join(first).replace(
        'os.makedirs(out, exist_ok=True)',
        'out = os.path.join(ROOT, "results", "python_quickstart")\nos.makedirs(out, exist_ok=True)')
    first = first.replace('os.path.dirname(os.path.realpath(__file__)), os.pardir, os.pardir', 'os.getcwd(), os.pardir, os.pardir')
    out = [first.strip()]
    for section in sections[1:]:
        title, _, code = section.partition("\n")
        # A notebook shows its figures: no headless backend there.
        code = code.replace('import matplotlib\n\nmatplotlib.use("Agg")\n', "")
        out.append("# " + title.strip() + "\n" + code.strip())
    return out


def notebook(source):
    def cell(text):
        lines = text.splitlines(keepends=True)
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": lines}

    intro = {"cell_type": "markdown", "metadata": {}, "source": [
        "# photonsim from Python\n", "\n",
        "Run from `python/examples/` with `/usr/bin/python3` after `scripts/setup` (Jupyter: a kernel on Debian's\n",
        "python3). The same code runs as a script: `python/examples/quickstart.py`.\n"]}
    return {"cells": [intro] + [cell(c) for c in cells(source)],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def main():
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(f"notebook_from_script.py: unknown arguments {' '.join(sys.argv[1:])} (takes --check or nothing)")
    with open(SCRIPT) as f:
        text = json.dumps(notebook(f.read()), indent=1) + "\n"
    if sys.argv[1:] == ["--check"]:
        with open(NOTEBOOK) as f:
            if f.read() != text:
                sys.exit(f"{NOTEBOOK} is stale: run scripts/dev/notebook_from_script.py")
        return
    with open(NOTEBOOK, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
