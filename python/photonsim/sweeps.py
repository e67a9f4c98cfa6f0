"""photonsim.sweep: a grid of runs, as `photonsim sweep`, into a DataFrame."""

import json
import os
import sys
import tempfile
import warnings

from photonsim._api import _need_core, _pythonic, _speaks_python, _value_text


def _values(value):
    """A grid entry as the sweep file takes it: a list, a range string ("1us..1ms x10") or one value."""
    if isinstance(value, (list, tuple)):
        return [_value_text(v) for v in value]
    return _value_text(value)


def _progress_writer(stream):
    def write(text):
        stream.write(text)
        stream.flush()

    return write


def _write_provenance(core, out, config, grid, zip, jobs, spec, base_dir):
    """What the folder keeps of how it was made, as `photonsim sweep --out` does: provenance.json,
    command.txt (here the Python call, after a cd to the folder it ran in, so that `sh command.txt`
    reruns it) and config.yaml (the sweep as a sweep file, JSON, its base an absolute path; a dict config is
    kept beside it as base_config.yaml)."""
    if isinstance(config, dict):
        where = f", base_dir={os.path.abspath(base_dir if base_dir is not None else os.getcwd())!r}"
        shown = config
    else:
        where = ""
        shown = os.fspath(config)
    call = (f"import photonsim; photonsim.sweep({shown!r}, {grid!r}" + (f", zip={zip!r}" if zip else "") +
            f", jobs={jobs}, out={os.fspath(out)!r}{where})")
    base = config if not isinstance(config, dict) else "<dict>"
    if isinstance(config, dict):
        # The dict as a config file beside config.yaml (its file names absolute), so that the sweep reruns.
        folder = os.path.abspath(base_dir if base_dir is not None else os.getcwd())
        resolved = core.resolved_config(json.dumps(config), os.path.join(folder, "<dict>"))
        base = os.path.join(os.path.abspath(out), "base_config.yaml")
        core.write_file(base, resolved)
        spec = {**spec, "base": base}
    core.write_provenance([sys.executable, "-c", call], os.fspath(base), json.dumps(spec, indent=1) + "\n",
                          os.getcwd(), os.fspath(out))


@_speaks_python
def sweep(config, grid, zip=None, jobs=1, out=None, resume=False, progress=True, base_dir=None, max_memory=None):
    """Runs every point of the grid (and zip) over the config, as `photonsim sweep`.

    grid: {"dotted.key": [values] | "1us..10ms x10" | value}, swept as a
    product, the last key varying fastest; zip: keys whose lists vary
    together. jobs: points run at once (worker processes). out: the folder
    for results.csv (kept; resume=True continues it), else a temporary one.
    Returns a DataFrame, one row per point in grid order: the point's index
    (`point`), the swept keys, then the run's CSV columns, as results.csv.
    Progress (with the time left) goes to standard error, in a terminal and
    in a notebook. A point that fails keeps its row, whatever `progress` is:
    its swept values and why, in the `error` column (and a warning says how
    many failed)."""
    import pandas as pd

    core = _need_core()
    if not isinstance(grid, dict) or not grid:
        raise TypeError("grid must be a non-empty dict of dotted config keys to values")
    spec = {"grid": {key: _values(value) for key, value in grid.items()}}
    if zip:
        spec["zip"] = {key: [_value_text(v) for v in values] for key, values in zip.items()}
    folder = os.path.abspath(base_dir if base_dir is not None else os.getcwd())
    written_base = None
    if isinstance(config, dict):
        # The sweep reads its base from a file: the dict, next to the files it names.
        fd, written_base = tempfile.mkstemp(prefix=".photonsim-sweep-", suffix=".yaml", dir=folder)
        with os.fdopen(fd, "w") as f:
            json.dump(config, f)
        spec["base"] = written_base
    elif isinstance(config, (str, os.PathLike)):
        spec["base"] = os.path.abspath(os.fspath(config))
    else:
        raise TypeError(f"config must be a path or a dict, not {type(config).__name__}")
    temporary = None
    if out is None:
        temporary = tempfile.TemporaryDirectory(prefix="photonsim-sweep-")
        out = temporary.name
    try:
        log = _progress_writer(sys.stderr) if progress else (lambda text: None)
        outcome = core.sweep(json.dumps(spec), os.path.join(folder, "<sweep>"), folder, os.fspath(out), int(jobs),
                             bool(resume), max_memory, log)
        if temporary is None:
            _write_provenance(core, out, config, grid, zip, jobs, spec, base_dir)
        path = os.path.join(out, "results.csv")
        # Why each failed point failed, in Python's terms (a point's values are its grid entries).
        failures = sorted((point, _pythonic(why, "grid:"), values) for point, why, values in outcome["failures"])
        df = pd.read_csv(path) if os.path.exists(path) else pd.DataFrame()
    finally:
        if written_base:
            os.unlink(written_base)
        if temporary is not None:
            temporary.cleanup()
    if failures:
        # A failed point keeps its row, whatever `progress` is: its swept values and why, in `error`.
        failed = pd.DataFrame([{"point": point, **values, "error": why} for point, why, values in failures])
        for key in failed.columns:
            if key in df.columns and pd.api.types.is_numeric_dtype(df[key]):
                failed[key] = pd.to_numeric(failed[key], errors="coerce")
        df = failed if df.empty else pd.concat([df, failed], ignore_index=True)
        warnings.warn(f"{len(failures)} of the sweep's {outcome['points']} points failed: their rows hold why in "
                      f"the `error` column (point {failures[0][0]}: {failures[0][1]})", stacklevel=3)
    if "point" in df.columns:
        df = df.sort_values("point", kind="stable").reset_index(drop=True)
        df = df[["point"] + [c for c in df.columns if c != "point"]]
    return df
