"""photonsim.load_results: what photonsim wrote to a folder, as DataFrames."""

import json
import os


class Results:
    """The contents of one --out folder or sweep folder.

    kind: "sweep" (results.csv), "run" (result.json/.csv) or "graph"
    (graph.json, nodes.csv). table: the sweep's rows in point order, or the
    run's one-row CSV, or the graph's per-node table. steps: a run's
    per-step table. report: the run's or graph's JSON as a dict. provenance:
    what the folder records of how it was made (the resolved config, the
    command line, photonsim's version and git revision), when present.
    files: every file read."""

    def __init__(self, folder, kind, table, steps=None, report=None, provenance=None, files=()):
        self.folder = folder
        self.kind = kind
        self.table = table
        self.steps = steps
        self.report = report
        self.provenance = provenance or {}
        self.files = list(files)

    def __repr__(self):
        return f"<photonsim {self.kind} results in {self.folder}: {len(self.table)} rows>"


def _provenance(folder):
    found = {}
    for name, key in (("config.yaml", "config"), ("command.txt", "command"), ("provenance.json", "about")):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            with open(path) as f:
                found[key] = json.load(f) if name.endswith(".json") else f.read()
    return found


def load_results(folder):
    """Reads a folder photonsim wrote (run --out, replay --out, a task graph's
    --out, sweep --out) - or a results.csv itself - into a Results."""
    import pandas as pd

    folder = os.fspath(folder)
    if os.path.isfile(folder):
        table = pd.read_csv(folder)
        if "point" in table.columns:
            table = table.sort_values("point", kind="stable").reset_index(drop=True)
        return Results(folder, "sweep", table, files=[folder])
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{folder}: no such folder (photonsim writes one with --out)")

    def path(name):
        return os.path.join(folder, name)

    if os.path.exists(path("results.csv")):
        table = pd.read_csv(path("results.csv"))
        if "point" in table.columns:
            table = table.sort_values("point", kind="stable").reset_index(drop=True)
        return Results(folder, "sweep", table, provenance=_provenance(folder), files=[path("results.csv")])
    if os.path.exists(path("result.json")):
        with open(path("result.json")) as f:
            report = json.load(f)
        table = pd.read_csv(path("result.csv")) if os.path.exists(path("result.csv")) else pd.DataFrame([report])
        steps = pd.json_normalize(report.get("per_step", []), sep="_")
        files = [p for p in (path("result.json"), path("result.csv")) if os.path.exists(p)]
        return Results(folder, "run", table, steps=steps, report=report, provenance=_provenance(folder), files=files)
    if os.path.exists(path("graph.json")):
        with open(path("graph.json")) as f:
            report = json.load(f)
        table = pd.read_csv(path("nodes.csv")) if os.path.exists(path("nodes.csv")) else pd.DataFrame()
        files = [p for p in (path("graph.json"), path("nodes.csv")) if os.path.exists(p)]
        return Results(folder, "graph", table, report=report, provenance=_provenance(folder), files=files)
    raise FileNotFoundError(f"{folder}: holds none of results.csv, result.json or graph.json (what photonsim writes "
                            "with --out)")
