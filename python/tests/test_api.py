"""photonsim from Python: run, sweep, synthesize/replay, plan, errors and
load_results, against the command line's own output (build/photonsim)."""

import json
import os
import subprocess

import pandas as pd
import pytest

import photonsim

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
BINARY = os.environ.get("PHOTONSIM_BINARY", os.path.join(ROOT, "build", "photonsim"))
QUICKSTART = os.path.join(ROOT, "configs", "quickstart.yaml")
TIMINGS = {"wall_s", "synthesis_s", "simulation_s"}


def cli_json(*args):
    out = subprocess.run([BINARY, *args, "--format", "json"], check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout)


def without_timings(value):
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def test_quickstart_measures_its_closed_form():
    r = photonsim.run(QUICKSTART)
    assert r.measured_ps == 1134000000  # 28 T, T = 500 ns + 4 MB / 800 Gbps
    assert r.predicted_ps == 1134000000
    assert r.kind == "run"
    steps = r.steps
    assert isinstance(steps, pd.DataFrame)
    assert list(steps["step"]) == list(range(7))
    assert steps["measured_ps"].sum() == r.measured_ps
    assert "predicted_propagation_ps" in steps.columns
    assert r.row["measured_ps"][0] == 1134000000


def test_run_equals_the_command_line_field_by_field():
    for overrides, args in (({}, []), ({"fabric.reconfig_delay": "1us"}, ["--set", "fabric.reconfig_delay=1us"])):
        py = photonsim.run(QUICKSTART, overrides=overrides, fidelity="chunk", seed=7).to_dict()
        cli = cli_json("run", QUICKSTART, "--fidelity", "chunk", "--seed", "7", *args)
        assert without_timings(py) == without_timings(cli)


def test_a_dict_config_runs_like_its_file(tmp_path):
    config = {
        "fabric": {"gpus": 8, "ports": 1, "bandwidth": "800Gbps", "latency": "500ns", "reconfig_delay": "10us"},
        "workload": {"collective": "allreduce", "message": "8MB"},
        "synthesis": {"algorithm": "ring", "planner": "static", "topology": "ring"},
    }
    path = tmp_path / "c.json"
    path.write_text(json.dumps(config))
    assert photonsim.run(config).measured_ps == photonsim.run(str(path)).measured_ps


def test_errors_carry_the_one_line_message(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("fabric:\n  gpus: -3\n")
    with pytest.raises(photonsim.PhotonsimError) as e:
        photonsim.run(str(bad))
    assert str(bad) + ":2" in str(e.value)
    assert "fabric.gpus" in str(e.value)
    with pytest.raises(photonsim.PhotonsimError, match="no-such.yaml"):
        photonsim.run(str(tmp_path / "no-such.yaml"))
    with pytest.raises(photonsim.PhotonsimError, match="synthesis.algorithm"):
        photonsim.run(QUICKSTART, overrides={"synthesis.algorithm": "nonesuch"})
    with pytest.raises(ValueError, match="fidelity"):
        photonsim.run(QUICKSTART, fidelity="exact")
    with pytest.raises(TypeError):
        photonsim.run(42)
    # The interpreter is still there, and runs again.
    assert photonsim.run(QUICKSTART).measured_ps == 1134000000


def test_synthesize_save_and_replay(tmp_path):
    s = photonsim.synthesize(QUICKSTART)
    assert s.collective == "alltoall"
    assert s.gpus == 8
    assert len(s.steps) == 7
    assert s.prediction["total_ps"] == 1134000000
    assert s.verify() == "verified"
    transfers = s.transfers
    assert len(transfers) == sum(len(step["transfers"]) for step in s.steps)
    assert set(transfers["op"]) == {"copy"}
    for name in ("s.pb", "s.pbtxt", "s.xml"):
        assert s.save(tmp_path / name) == str(tmp_path / name)
        assert (tmp_path / name).stat().st_size > 0
    s.save(tmp_path / "trace", format="chakra")
    assert sorted(p.name for p in tmp_path.glob("trace.*.et")) == [f"trace.{r}.et" for r in range(8)]
    loaded = photonsim.load_schedule(tmp_path / "s.pb")
    assert loaded.to_dict() == s.to_dict()
    replayed = photonsim.replay(loaded, QUICKSTART)
    assert replayed.measured_ps == 1134000000
    cli = cli_json("replay", str(tmp_path / "s.pb"), QUICKSTART)
    assert without_timings(replayed.to_dict()) == without_timings(cli)


def test_a_synthesis_shows_its_stage_and_how_far_it_is(capfd):
    # progress=0: the status line from the first report, not after three
    # seconds (then at most every half second: this synthesis takes less).
    config = os.path.join(ROOT, "configs", "bench", "scale", "fast_random_n1024.yaml")
    s = photonsim.synthesize(config, {"fabric.gpus": 16}, progress=0)
    assert s.gpus == 16
    err = capfd.readouterr().err
    # A row of the padded 16 x 16 demand has 16 positive entries: at least 16 permutations.
    assert "\rphotonsim: FAST: permutations of the demand: 0 of at least 16, 0 s" in err
    assert err.endswith("\n")
    photonsim.synthesize(config, {"fabric.gpus": 16}, progress=False)
    assert capfd.readouterr().err == ""
    with pytest.raises(ValueError, match="progress"):
        photonsim.synthesize(config, {"fabric.gpus": 16}, progress=-1)


def test_plan_ranks_every_planner():
    df = photonsim.plan(QUICKSTART)
    cli = cli_json("plan", QUICKSTART)
    assert df.attrs["best"] == cli["best"]
    assert list(df["planner"]) == [p["planner"] for p in cli["planners"]]
    ok = df[df["ok"]]
    assert list(ok["predicted_ps"]) == [p["predicted_ps"] for p in cli["planners"] if p["ok"]]
    assert list(df["ok"]) == [p["ok"] for p in cli["planners"]]


def test_sweep_rows_come_in_grid_order(tmp_path):
    grid = {"fabric.reconfig_delay": ["1us", "100us"], "workload.message": ["1MB", "4MB"]}
    df = photonsim.sweep(QUICKSTART, grid, jobs=2, out=tmp_path / "sweep", progress=False)
    assert list(df["point"]) == [0, 1, 2, 3]
    assert list(df["workload.message"]) == ["1MB", "4MB", "1MB", "4MB"]
    for _, row in df.iterrows():
        one = photonsim.run(QUICKSTART, overrides={"fabric.reconfig_delay": row["fabric.reconfig_delay"],
                                                   "workload.message": row["workload.message"]})
        assert row["measured_ps"] == one.measured_ps
    # The same rows from the folder, which keeps how it was made.
    loaded = photonsim.load_results(tmp_path / "sweep")
    assert loaded.kind == "sweep"
    assert list(loaded.table["measured_ps"]) == list(df["measured_ps"])
    assert loaded.provenance["about"]["config"] == QUICKSTART
    assert "photonsim.sweep(" in loaded.provenance["command"]
    assert json.loads(loaded.provenance["config"])["grid"]["workload.message"] == ["1MB", "4MB"]


def _timings_blanked(csv_text):
    rows = [line.split(",") for line in csv_text.splitlines()]
    timing = [name in TIMINGS for name in rows[0]]
    return [[("-" if t else v) for v, t in zip(row, timing)] for row in rows]


def test_a_sweeps_saved_config_and_command_rerun_from_its_folder(tmp_path):
    # Issue 51, item 6: before, command.txt was `photonsim.sweep(...)` without an import, an out= or the folder
    # it ran in; config.yaml's base was absolute here, but the command line's kept a relative one.
    out = tmp_path / "sweep"
    photonsim.sweep(QUICKSTART, {"workload.message": ["1MB", "2MB"]}, out=out, progress=False)
    first = (out / "results.csv").read_text()
    subprocess.run([BINARY, "sweep", "config.yaml", "--jobs", "1", "--out", str(tmp_path / "again")], check=True,
                   capture_output=True, cwd=out)
    assert _timings_blanked((tmp_path / "again" / "results.csv").read_text()) == _timings_blanked(first)
    (out / "results.csv").unlink()
    (out / "results.csv.base_hash").unlink()
    subprocess.run(["sh", str(out / "command.txt")], check=True, capture_output=True, cwd="/",
                   env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(photonsim.__file__))})
    assert _timings_blanked((out / "results.csv").read_text()) == _timings_blanked(first)


def test_a_dict_sweeps_saved_config_reruns_from_its_folder(tmp_path):
    # Before: config.yaml's base named the temporary file the dict was written to, deleted after the sweep.
    config = {
        "fabric": {"gpus": 4, "ports": 1, "bandwidth": "800Gbps", "latency": "500ns", "reconfig_delay": "5us"},
        "workload": {"collective": "allreduce", "message": "4000B"},
        "synthesis": {"algorithm": {"type": "msccl", "file": "ring_allreduce_4.xml"}, "planner": "static",
                      "topology": "ring"},
    }
    out = tmp_path / "sweep"
    photonsim.sweep(config, {"fabric.reconfig_delay": ["1us", "10us"]}, out=out, progress=False,
                    base_dir=os.path.join(ROOT, "configs", "msccl"))
    subprocess.run([BINARY, "sweep", "config.yaml", "--jobs", "1", "--out", str(tmp_path / "again")], check=True,
                   capture_output=True, cwd=out)
    assert _timings_blanked((tmp_path / "again" / "results.csv").read_text()) == \
        _timings_blanked((out / "results.csv").read_text())


def test_sweep_of_a_dict_with_a_range(tmp_path):
    config = {
        "fabric": {"gpus": 8, "ports": 1, "bandwidth": "800Gbps", "latency": "500ns", "reconfig_delay": "10us"},
        "workload": {"collective": "allreduce", "message": "8MB"},
        "synthesis": {"algorithm": "ring", "planner": "static", "topology": "ring"},
    }
    df = photonsim.sweep(config, {"workload.message": "1MB..100MB x1"}, progress=False)
    assert list(df["point"]) == [0, 1, 2]
    assert df["measured_ps"].is_monotonic_increasing
    assert not list(tmp_path.glob(".photonsim-sweep-*"))


def test_load_results_of_a_run_folder(tmp_path):
    out = tmp_path / "run"
    subprocess.run([BINARY, "run", QUICKSTART, "--out", str(out)], check=True, capture_output=True, cwd=ROOT)
    loaded = photonsim.load_results(out)
    assert loaded.kind == "run"
    assert loaded.report["measured_ps"] == 1134000000
    assert loaded.table["measured_ps"][0] == 1134000000
    assert list(loaded.steps["step"]) == list(range(7))
    assert loaded.provenance["about"]["command"][1:3] == ["run", QUICKSTART]
    assert "collective: alltoall" in loaded.provenance["config"]
    # command.txt goes to the folder it ran in first, so that `sh command.txt` reruns it from anywhere.
    assert loaded.provenance["command"].startswith("cd " + ROOT + " && " + BINARY + " run ")
    with pytest.raises(FileNotFoundError):
        photonsim.load_results(tmp_path / "nothing")


def test_a_task_graph_from_python():
    nodes = photonsim.transformer_graph(8, tp=2, pp=2, layers=2)
    assert nodes[0] == {"name": "r0.s0.l0.fwd.attn", "type": "compute", "gpus": ["0-1"], "duration": "30us"}
    config = {
        "fabric": {"gpus": 8, "ports": 2, "bandwidth": "800Gbps", "latency": "500ns", "reconfig_delay": "5us"},
        "workload": {"graph": nodes},
        "synthesis": {"algorithm": "rhd", "planner": "static", "topology": "ring"},
    }
    r = photonsim.run(config, fidelity="analytical")
    assert r.kind == "graph"
    assert r.iteration_ps > 0
    assert len(r.nodes) == len(nodes)
    with pytest.raises(ValueError, match="multiple of tp"):
        photonsim.transformer_graph(6, tp=4, pp=2)


def shipped_configs():
    """Every experiment config under configs/, as tests/support/shipped_configs.h lists them, with the training ones."""
    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, "configs")):
        top = os.path.relpath(folder, os.path.join(ROOT, "configs")).split(os.sep)[0]
        if top in ("bench", "sweeps", "availability"):  # availability: its random failures, drawn by that verb
            continue
        found += [os.path.relpath(os.path.join(folder, f), ROOT) for f in files
                  if f.endswith(".yaml") and not f.endswith("_graph.yaml")]
    return sorted(found)


@pytest.mark.parametrize("config", shipped_configs())
def test_every_shipped_config_runs_as_the_command_line_does(config, monkeypatch):
    monkeypatch.chdir(ROOT)
    py = photonsim.run(config).to_dict()
    assert without_timings(py) == without_timings(cli_json("run", config))


# Python that speaks Python (issue 51, item 5). Each of these failed before the fix.


def test_a_refused_sweep_lets_go_of_its_folder(tmp_path):
    # Before: the refusal left out/.results.lock held by the interpreter, so every later resume=True
    # failed with "another photonsim sweep is writing there" until the interpreter restarted.
    out = tmp_path / "sweep"
    grid = {"workload.message": ["1MB", "2MB"]}
    photonsim.sweep(QUICKSTART, {"workload.message": ["1MB"]}, out=out, progress=False)
    with pytest.raises(photonsim.PhotonsimError, match="exists"):
        photonsim.sweep(QUICKSTART, grid, out=out, progress=False)
    df = photonsim.sweep(QUICKSTART, grid, out=out, resume=True, progress=False)
    assert list(df["point"]) == [0, 1]


def test_errors_name_the_python_arguments_and_real_locations(tmp_path):
    # Before: "--set fabric.gpuss=4: ...", "pass --resume ... or choose another --out", "<dict>:1: ...".
    with pytest.raises(photonsim.PhotonsimError) as e:
        photonsim.run(QUICKSTART, overrides={"fabric.gpuss": 4})
    assert "overrides: fabric.gpuss=4" in str(e.value) and "--set" not in str(e.value)
    out = tmp_path / "sweep"
    photonsim.sweep(QUICKSTART, {"workload.message": ["1MB"]}, out=out, progress=False)
    with pytest.raises(photonsim.PhotonsimError) as e:
        photonsim.sweep(QUICKSTART, {"workload.message": ["1MB"]}, out=out, progress=False)
    assert "resume=True" in str(e.value) and "--resume" not in str(e.value) and "--out" not in str(e.value)
    with pytest.raises(photonsim.PhotonsimError) as e:
        photonsim.run({"fabric": {"gpus": -3}})
    assert "<dict>" not in str(e.value) and "config (a dict): fabric.gpus" in str(e.value)
    with pytest.raises(photonsim.PhotonsimError) as e:
        photonsim.run(QUICKSTART, max_memory="1KB")
    assert "max_memory" in str(e.value) and "--max-memory" not in str(e.value)


@pytest.mark.parametrize("progress", [False, True])
def test_failed_sweep_points_keep_their_reasons_in_the_frame(progress, capfd):
    # Before: with progress=False the failed point was dropped with "their messages are above", and nothing above.
    with pytest.warns(UserWarning, match="1 of the sweep's 3 points failed"):
        df = photonsim.sweep(QUICKSTART, {"fabric.gpus": [8, 1, 6]}, progress=progress)
    assert list(df["point"]) == [0, 1, 2]
    assert list(df["fabric.gpus"]) == [8, 1, 6]
    assert pd.isna(df["error"][0]) and pd.isna(df["error"][2])
    assert "fabric.gpus must be an integer >= 2" in df["error"][1]
    assert df["error"][1].startswith("grid: fabric.gpus=1")
    assert pd.isna(df["measured_ps"][1]) and df["measured_ps"][0] > 0


def test_a_number_without_a_unit_gets_the_spelling_to_use():
    # Before: "cannot parse time '1e-05': unknown unit 'e-05'".
    with pytest.raises(photonsim.PhotonsimError) as e:
        photonsim.run(QUICKSTART, overrides={"fabric.reconfig_delay": 10e-6})
    assert "write 10us" in str(e.value) and "unknown unit" not in str(e.value)
    with pytest.raises(photonsim.PhotonsimError, match="write 1MiB"):
        photonsim.run(QUICKSTART, overrides={"workload.message": 1048576})


def test_a_sweep_runs_its_points_in_this_process():
    # Before: a child process per point, and a fork of an interpreter with pandas loaded costs ~5 ms, more than a
    # quickstart point's run: 81 points took 2.2x the command line's time. Now no child process is made (their
    # page faults would show in RUSAGE_CHILDREN), and the rows equal the command line's.
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    grid = {"fabric.reconfig_delay": ["1us", "100us"], "synthesis.planner": ["static", "harvest"]}
    df = photonsim.sweep(QUICKSTART, grid, jobs=2, progress=False)
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt == before
    for _, row in df.iterrows():
        one = photonsim.run(QUICKSTART, overrides={k: row[k] for k in grid})
        assert row["measured_ps"] == one.measured_ps and row["events"] == one.events


def _fake_checkout(root):
    """A second checkout at `root`: its own python/photonsim (copies) and build/python/photonsim (links to them
    and to this build's compiled module), as scripts/setup leaves one."""
    import shutil

    package = os.path.dirname(os.path.realpath(photonsim._api.__file__))
    (root / "python").mkdir(parents=True)
    shutil.copytree(package, root / "python" / "photonsim", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (root / "CMakeLists.txt").write_text("project(photonsim)\n")
    built = root / "build" / "python" / "photonsim"
    built.mkdir(parents=True)
    for f in (root / "python" / "photonsim").iterdir():
        (built / f.name).symlink_to(f)
    module = photonsim._api._core.__file__
    (built / os.path.basename(module)).symlink_to(module)
    return root


def test_inside_a_checkout_import_gets_that_checkouts_build(tmp_path):
    # Issue 51, item 1: before, `import photonsim` followed the one photonsim.pth that the last scripts/setup wrote,
    # whichever checkout the working directory was in. Here this build stands for the .pth's (on sys.path, not
    # chosen with PYTHONPATH) and a second checkout is the working directory.
    other = _fake_checkout(tmp_path / "clone")
    here = os.path.dirname(os.path.dirname(os.path.abspath(photonsim.__file__)))
    script = f"import sys; sys.path.insert(0, {here!r}); import photonsim; print(photonsim.__file__); " \
             "print(photonsim.build_info()['package']); print(photonsim.run.__module__)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    (other / "configs").mkdir()
    for cwd in (other, other / "configs"):
        out = subprocess.run(["/usr/bin/python3", "-c", script], cwd=cwd, env=env, capture_output=True, text=True,
                             check=True).stdout.split()
        assert out[0] == str(other / "build" / "python" / "photonsim" / "__init__.py"), out
        assert out[1] == str(other / "build" / "python" / "photonsim")
    # Chosen on purpose (PYTHONPATH), or outside any checkout, the build on the path stays.
    for cwd, chosen in ((other, {"PYTHONPATH": here}), (tmp_path, {})):
        out = subprocess.run(["/usr/bin/python3", "-c", script], cwd=cwd, env={**env, **chosen}, capture_output=True,
                             text=True, check=True).stdout.split()
        assert out[0] == os.path.join(here, "photonsim", "__init__.py"), (cwd, out)


def test_build_info_names_the_build_and_its_revision():
    info = photonsim.build_info()
    assert info["package"] == os.path.dirname(os.path.abspath(photonsim.__file__))
    assert info["version"] == photonsim.version()
    version = subprocess.run([BINARY, "--version"], check=True, capture_output=True, text=True).stdout
    assert f"git revision {info['git_revision']}, built in {info['build_dir']}" in version
    assert info["git_revision"] != "unknown"  # a git worktree too (its .git is a file)
