#!/usr/bin/python3
"""What photonsim's plotting scripts share (scripts/plots/plot_*.py and the
figure drivers in scripts/repro/ import it): the interpreter check, the
figures themselves (plots(): photonsim.plots, python/photonsim/plots.py),
reading a sweep's results.csv, saving figures (PNG + PDF) and CSV files
atomically.

The plots need matplotlib, numpy and pandas. Debian's /usr/bin/python3 sees
them once python3-matplotlib, python3-numpy and python3-pandas are
installed (scripts/setup installs them); a pyenv `python3` on PATH does not,
so every plotting script starts with #!/usr/bin/python3.

Run on its own, this file checks the interpreter:

  scripts/plots/photonsim_plots.py     prints matplotlib's and numpy's versions, or what to install
"""
import argparse
import csv
import os
import sys

DEBIAN_PACKAGES = "python3-matplotlib python3-numpy python3-pandas"

def script_name():
    return os.path.basename(sys.argv[0]) or "photonsim_plots.py"


def argument_parser(doc):
    """An argparse parser whose --help prints the script's docstring as written."""
    return argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)


def pyplot():
    """matplotlib.pyplot on the Agg backend (no display needed), or exit saying
    which packages the interpreter lacks."""
    try:
        import matplotlib
        import numpy  # noqa: F401  (the heatmaps need it; check both at once)
    except ImportError as e:
        sys.exit(f"{script_name()}: {sys.executable} cannot import {e.name}: install Debian's {DEBIAN_PACKAGES} "
                 "(scripts/setup installs them) and run the script with "
                 "/usr/bin/python3 (its shebang); a pyenv python3 does not see Debian's packages")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plots():
    """photonsim.plots, the figures themselves (python/photonsim/plots.py),
    from this checkout; exits naming what the interpreter lacks."""
    pyplot()
    try:
        import pandas  # noqa: F401
    except ImportError as e:
        sys.exit(f"{script_name()}: {sys.executable} cannot import {e.name}: install Debian's {DEBIAN_PACKAGES} "
                 "(scripts/setup installs them)")
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.realpath(__file__)), os.pardir, os.pardir))
    sys.path.insert(0, os.path.join(root, "python"))
    from photonsim import plots as module

    return module


def read_results(path):
    """A sweep's results.csv (photonsim sweep): (rows as dicts, column names).
    Exits naming the file when it cannot be read or holds no rows."""
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
            columns = reader.fieldnames or []
    except OSError as e:
        sys.exit(f"{script_name()}: {path}: {e.strerror}")
    if not rows:
        sys.exit(f"{path}: no rows")
    return rows, columns


def save_file(fig, path, dpi=130):
    """Writes the figure to `path` (format from its extension, PNG without
    one) atomically: a temporary file beside it, renamed into place."""
    root, ext = os.path.splitext(path)
    tmp = f"{root}.tmp{ext}"
    fig.savefig(tmp, dpi=dpi, format=ext.lstrip(".").lower() or "png")
    os.replace(tmp, path)
    return path


def save_figure(fig, prefix, dpi=130):
    """Writes PREFIX.png and PREFIX.pdf, each atomically."""
    return [save_file(fig, f"{prefix}.{ext}", dpi) for ext in ("png", "pdf")]


def write_csv(path, header, rows):
    """Writes a CSV file atomically (temporary file, then rename)."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    os.replace(tmp, path)


def main():
    argument_parser(__doc__).parse_args()
    pyplot()
    import matplotlib
    import numpy
    print(f"{sys.executable}: matplotlib {matplotlib.__version__}, numpy {numpy.__version__}: the plots will run")


if __name__ == "__main__":
    main()
