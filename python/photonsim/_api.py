"""run, synthesize, replay and plan: photonsim's pipeline through the
compiled module, results as Python values (and pandas DataFrames)."""

import json
import os
import re
import sys

try:
    from photonsim import _photonsim as _core
except ImportError as _error:  # the pure-Python parts still work
    _core = None
    _core_error = _error

    class PhotonsimError(ValueError):
        """photonsim's one-line message for a bad input (file:line and key)."""

else:
    PhotonsimError = _core.PhotonsimError

FIDELITIES = ("packet", "chunk", "analytical")

# The command line's names in photonsim's messages, and the Python arguments they are here.
_ARGUMENTS = (
    (re.compile(r"--resume\b"), "resume=True"),
    (re.compile(r"--out\b"), "out"),
    (re.compile(r"--max-memory\b"), "max_memory"),
    (re.compile(r"--fidelity\b"), "fidelity"),
    (re.compile(r"--seed\b"), "seed"),
    (re.compile(r"--jobs\b"), "jobs"),
    (re.compile(r"--no-verify\b"), "verify=False"),
)
_SET = re.compile(r"--set(?= )")
# A dict config is read as FOLDER/<dict>, one line of JSON: the key its message names is the location.
_DICT_LOCATION = re.compile(r"\S*<dict>(:\d+)?:")


def _pythonic(message, overrides="overrides:"):
    """photonsim's one-line message in Python's terms: arguments by their Python names (--set as
    `overrides`, a sweep point's as `grid`), and a dict config named as one instead of as a file's line."""
    message = _DICT_LOCATION.sub("config (a dict):", message)
    message = _SET.sub(overrides, message)
    for pattern, name in _ARGUMENTS:
        message = pattern.sub(name, message)
    return message


def _speaks_python(function):
    """`function`, its PhotonsimErrors re-raised with their messages in Python's terms."""
    import functools

    @functools.wraps(function)
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except PhotonsimError as error:
            raise PhotonsimError(_pythonic(str(error))) from None

    return call


def _need_core():
    if _core is None:
        raise ImportError(
            "photonsim's compiled module (_photonsim) is not built or not on this interpreter's path: run "
            "scripts/setup, which builds build/python/photonsim and makes /usr/bin/python3 import it"
        ) from _core_error
    return _core


def _value_text(value):
    """A --set value: YAML scalars as photonsim reads them, lists and maps as JSON (which YAML reads)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value)
    return str(value)


def _overrides(overrides):
    if overrides is None:
        return []
    if isinstance(overrides, dict):
        return [f"{key}={_value_text(value)}" for key, value in overrides.items()]
    if isinstance(overrides, str):
        return [overrides]
    return [str(o) for o in overrides]


def _config(config, overrides=None, base_dir=None):
    """The module's config arguments: a path, or a dict as JSON text read as BASE_DIR/<dict>."""
    sets = _overrides(overrides)
    if isinstance(config, (str, os.PathLike)):
        return {"path": os.fspath(config), "text": None, "source": "", "sets": sets}
    if isinstance(config, dict):
        folder = os.path.abspath(base_dir if base_dir is not None else os.getcwd())
        return {"path": None, "text": json.dumps(config), "source": os.path.join(folder, "<dict>"), "sets": sets}
    raise TypeError(f"config must be a path or a dict, not {type(config).__name__}")


def _fidelity(fidelity):
    if fidelity not in FIDELITIES:
        raise ValueError(f"fidelity must be one of {', '.join(FIDELITIES)}, not {fidelity!r}")
    return fidelity


class Result:
    """One run, with the fields and values of `photonsim run --format json`.

    Every top-level field is an attribute (r.measured_ps, r.error_pct, ...).
    r.steps is the per-step table as a DataFrame (a task graph's result has
    r.nodes, its per-node table, instead), r.row the run's CSV row as a
    one-row DataFrame (the columns of a sweep row), r.to_dict() the whole
    report, r.warnings what photonsim warned about."""

    def __init__(self, kind, report_json, csv_text, warnings):
        self.kind = kind
        self._data = json.loads(report_json)
        self._csv = csv_text
        self.warnings = list(warnings)

    def __getattr__(self, name):
        data = self.__dict__.get("_data", {})
        if name in data:
            return data[name]
        raise AttributeError(f"a photonsim {self.__dict__.get('kind', 'run')} result has no field {name!r}")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._data))

    def to_dict(self):
        return json.loads(json.dumps(self._data))

    @property
    def steps(self):
        import pandas as pd

        if "per_step" not in self._data:
            raise AttributeError("a task graph's result has nodes, not steps: use .nodes")
        return pd.json_normalize(self._data["per_step"], sep="_")

    @property
    def nodes(self):
        import io

        import pandas as pd

        if self.kind != "graph":
            raise AttributeError("a collective's result has steps, not nodes: use .steps")
        return pd.read_csv(io.StringIO(self._csv))

    @property
    def csv(self):
        return self._csv

    @property
    def row(self):
        import io

        import pandas as pd

        return pd.read_csv(io.StringIO(self._csv))

    def __repr__(self):
        d = self._data
        if self.kind == "graph":
            return f"<photonsim graph result: iteration {d.get('iteration_ps')} ps on {d.get('gpus')} GPUs>"
        return (f"<photonsim result: {d.get('collective')} / {d.get('algorithm')} / {d.get('planner')} on "
                f"{d.get('gpus')} GPUs: measured {d.get('measured_ps')} ps, predicted {d.get('predicted_ps')} ps>")


def _result(answer):
    return Result(answer["kind"], answer["json"], answer["csv"], answer["warnings"])


def _log(progress):
    """Where progress lines go: standard error (a terminal or a notebook), or nowhere."""
    if progress is False or progress is None:
        return None

    def write(text):
        sys.stderr.write(text)
        sys.stderr.flush()

    return write


def _show_after(progress):
    """Seconds before the status line shows: 3 for progress=True, else the number given."""
    if progress is True or progress is False or progress is None:
        return 3.0
    if isinstance(progress, (int, float)) and progress >= 0:
        return float(progress)
    raise ValueError(f"progress: True, False or the seconds before the status line shows (>= 0), got {progress!r}")


@_speaks_python
def run(config, overrides=None, fidelity="packet", seed=None, base_dir=None, max_memory=None, progress=True):
    """Synthesizes and simulates the config (a path or a dict), as `photonsim run`.

    overrides: {"dotted.key": value} or ["key=value", ...] (--set); fidelity:
    packet, chunk or analytical (--fidelity); seed: the experiment seed
    (--seed); max_memory: "8GiB" (--max-memory). A run past three seconds
    keeps a status line on standard error (the synthesis's stage, then the
    step; the time so far, about how long is left) unless progress=False;
    progress=SECONDS shows it after that many seconds instead. Returns a
    Result."""
    core = _need_core()
    c = _config(config, overrides, base_dir)
    return _result(core.run(c["path"], c["text"], c["source"], c["sets"], _fidelity(fidelity), seed, max_memory,
                            _log(progress), _show_after(progress)))


class Schedule:
    """A synthesized (or loaded) schedule: immutable, readable from Python.

    s.steps (each step's topology index, whether it reconfigures, its
    transfers), s.topologies (name and circuits), s.prediction, s.transfers
    (every transfer as a DataFrame row with its step), s.to_dict();
    s.save(path) writes it as `photonsim synth --out` does (.pb, .pbtxt,
    .xml MSCCL; format="chakra": PATH.N.et); s.verify() proves it."""

    def __init__(self, handle):
        self._handle = handle
        self._dict = handle.to_dict()

    def to_dict(self):
        return json.loads(json.dumps(self._dict))

    def __getattr__(self, name):
        d = self.__dict__.get("_dict", {})
        if name in d:
            return d[name]
        raise AttributeError(f"a photonsim schedule has no field {name!r}")

    @property
    def transfers(self):
        import pandas as pd

        rows = []
        for i, step in enumerate(self._dict["steps"]):
            for t in step["transfers"]:
                rows.append({"step": i, **t})
        return pd.DataFrame(rows, columns=["step", "src", "dst", "bytes", "blocks", "op", "path"])

    @_speaks_python
    def save(self, path, format=None):
        """Writes the schedule; returns what was written."""
        return self._handle.save(os.fspath(path), format or "")

    @_speaks_python
    def verify(self):
        """'verified' (or 'not verified: ...' for a custom collective); raises PhotonsimError on a violation."""
        return self._handle.verify()

    def __repr__(self):
        d = self._dict
        return (f"<photonsim schedule: {d['collective']} / {d['algorithm']} / {d['planner']} on {d['gpus']} GPUs, "
                f"{len(d['steps'])} steps, {d['reconfigurations']} reconfigurations>")


@_speaks_python
def synthesize(config, overrides=None, base_dir=None, max_memory=None, progress=True):
    """The config's schedule (`photonsim synth`), as a Schedule. A synthesis
    past three seconds keeps a status line on standard error (its stage, how
    far it is, about how long is left) unless progress=False."""
    core = _need_core()
    c = _config(config, overrides, base_dir)
    return Schedule(core.synthesize(c["path"], c["text"], c["source"], c["sets"], max_memory, _log(progress),
                                    _show_after(progress)))


@_speaks_python
def load_schedule(path):
    """A schedule file (.pb or .pbtxt) as a Schedule."""
    return Schedule(_need_core().load_schedule(os.fspath(path)))


@_speaks_python
def replay(schedule, config, overrides=None, fidelity="packet", verify=True, base_dir=None, max_memory=None,
           progress=True):
    """Replays a Schedule (or a schedule file) on the config's fabric, as `photonsim replay` (progress as run)."""
    core = _need_core()
    if not isinstance(schedule, Schedule):
        schedule = load_schedule(schedule)
    c = _config(config, overrides, base_dir)
    return _result(core.replay(schedule._handle, c["path"], c["text"], c["source"], c["sets"], _fidelity(fidelity),
                               bool(verify), max_memory, _log(progress), _show_after(progress)))


@_speaks_python
def plan(config, overrides=None, base_dir=None, max_memory=None, progress=True):
    """Every planner's plan for the config's algorithm, ranked (`photonsim plan --format json`):
    a DataFrame, one row per planner, best first; .attrs["best"] names the best.
    Progress as synthesize."""
    import pandas as pd

    core = _need_core()
    c = _config(config, overrides, base_dir)
    report = json.loads(core.plan(c["path"], c["text"], c["source"], c["sets"], max_memory, _log(progress),
                                  _show_after(progress)))
    df = pd.DataFrame(report["planners"])
    df.attrs["best"] = report.get("best")
    return df


def build_info():
    """Which build this is: {"version", "git_revision", "build_dir", "source_dir" (the checkout it was built
    from), "module" (the compiled module's file), "package" (this package's folder)}, as `photonsim --version`
    names the binary's."""
    core = _need_core()
    info = dict(core.build_info())
    info["module"] = os.path.abspath(core.__file__)
    info["package"] = os.path.dirname(os.path.abspath(__file__))
    return info


def version():
    """photonsim's version (as `photonsim --version`)."""
    return _need_core().version()
