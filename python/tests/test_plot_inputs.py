"""photonsim.plots refuses what it cannot draw with a sentence that names the
argument and says what it may be (issue 51, item 5): a misspelled column is
not silently ignored, wrong rows raise no bare pandas KeyError and a file
that is not a trace raises no bare JSONDecodeError. Pure Python: the rows
are made here, so these run without the compiled module."""

import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from photonsim import plots

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
PLOTS = os.path.join(ROOT, "scripts", "plots")


def sweep_rows():
    """A small sweep's results.csv rows: two planners x two alpha_r x two message sizes."""
    rows = []
    for planner, factor in (("static", 3.0), ("every_step", 1.0)):
        for delay, delay_ps in (("1us", 10**6), ("10us", 10**7)):
            for message, size in (("1MB", 10**6), ("4MB", 4 * 10**6)):
                measured = int(factor * size * 10 + (delay_ps if planner == "every_step" else 0))
                rows.append({"fabric.reconfig_delay": delay, "workload.message": message,
                             "synthesis.planner": planner, "collective": "allreduce", "algorithm": "rhd",
                             "planner": planner, "gpus": 8, "ports": 1, "message_bytes": size,
                             "reconfig_delay_ps": delay_ps, "measured_ps": measured, "predicted_ps": measured,
                             "error_pct": 0.0, "reconfigurations": 7 if planner == "every_step" else 0})
    return pd.DataFrame(rows)


def refused(error_type, call):
    """The exception `call` raises, checked to be `error_type` and not a bare
    KeyError or JSONDecodeError."""
    with pytest.raises(error_type) as raised:
        call()
    assert not isinstance(raised.value, (KeyError, json.JSONDecodeError)), repr(raised.value)
    return str(raised.value)


def script(name, *args):
    return subprocess.run([sys.executable, os.path.join(PLOTS, name), *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def test_a_misspelled_column_argument_is_refused_not_ignored(tmp_path):
    rows = sweep_rows()
    # panel= naming no column used to draw one panel without a word.
    message = refused(ValueError, lambda: plots.vs_alpha_r(rows, None, panel="workload.mesage"))
    assert "vs_alpha_r: panel='workload.mesage' is not a column" in message
    assert "did you mean 'workload.message'" in message and "synthesis.planner" in message
    message = refused(ValueError, lambda: plots.vs_alpha_r(rows, None, color="synthesis.planer"))
    assert "color='synthesis.planer'" in message and "did you mean 'synthesis.planner'" in message
    # A keyword the function does not take: named, with the closest it takes and all of them.
    message = refused(TypeError, lambda: plots.speedup_heatmap(rows, None, baseline="static", panel="ports"))
    assert "speedup_heatmap() takes no argument panel=" in message and "its arguments: results, prefix" in message
    message = refused(TypeError, lambda: plots.vs_alpha_r(rows, None, panels="fabric.ports"))
    assert "did you mean panel=?" in message
    # The command line says the same and exits 1.
    csv = tmp_path / "results.csv"
    rows.to_csv(csv, index=False)
    done = script("plot_vs_alpha_r.py", csv, tmp_path / "time", "--panel", "fabric.port")
    assert done.returncode == 1 and "panel='fabric.port' is not a column" in done.stderr, done.stderr
    assert "did you mean 'fabric.reconfig_delay'" in done.stderr or "the swept keys are" in done.stderr
    assert not (tmp_path / "time.png").exists()


def test_wrong_rows_raise_a_sentence_not_a_key_error():
    rows = sweep_rows()
    message = refused(ValueError, lambda: plots.measured_vs_predicted(rows, None, by="planer"))
    assert "measured_vs_predicted: by='planer' is not a column" in message and "'planner'" in message
    message = refused(ValueError, lambda: plots.speedup_heatmap(rows, None, by="synthesis.planners"))
    assert "by='synthesis.planners'" in message and "did you mean 'synthesis.planner'" in message
    message = refused(ValueError, lambda: plots.worst_errors(rows, by="algo"))
    assert "worst_errors: by='algo'" in message
    # A run's per-step table is not a sweep's rows.
    steps = pd.DataFrame({"step": [0, 1], "measured_ps": [1, 2], "predicted_ps": [1, 2]})
    message = refused(ValueError, lambda: plots.measured_vs_predicted(steps, None))
    assert "results has no column" in message and "photonsim.sweep" in message and "reconfig_delay_ps" in message
    message = refused(ValueError, lambda: plots.speedup_heatmap(rows.drop(columns=["measured_ps"]), None))
    assert "speedup_heatmap: results has no column measured_ps" in message
    message = refused(ValueError, lambda: plots.speedup_heatmap(rows, None, where={"synthesis.topolgy": "ring"}))
    assert "where={'synthesis.topolgy': ...}" in message
    # A sweep varying another key is not one heatmap: it is cut to that key's last value, said in a warning
    # and in the title (it used to keep each cell's last row without a word).
    doubled = pd.concat([rows.assign(**{"fabric.ports": 1}), rows.assign(**{"fabric.ports": 2})])
    with pytest.warns(UserWarning, match=r"also vary fabric.ports: drawn for fabric.ports = 2 of 1/2 only"):
        fig = plots.speedup_heatmap(doubled, None)
    assert "(only fabric.ports = 2 of 1/2)" in fig._suptitle.get_text()
    message = refused(ValueError, lambda: plots.speedup_heatmap(pd.concat([rows, rows]), None))
    assert "that no swept key tells apart" in message and "where=" in message


def test_a_file_that_is_not_a_trace_is_refused_with_a_sentence(tmp_path):
    csv = tmp_path / "results.csv"
    sweep_rows().to_csv(csv, index=False)
    message = refused(ValueError, lambda: plots.timeline(csv))
    assert f"timeline: trace='{csv}' is not JSON" in message and "--trace FILE.json" in message
    assert "vs_alpha_r" in message  # a results.csv: what draws it
    cut = tmp_path / "cut.json"
    cut.write_text('{"traceEvents": [{"ph": "X",')
    message = refused(ValueError, lambda: plots.timeline(cut))
    assert "is not JSON" in message and "line 1" in message
    other = tmp_path / "other.json"
    other.write_text('{"events": []}')
    message = refused(ValueError, lambda: plots.graph_timeline(other))
    assert "not a photonsim trace (no traceEvents array)" in message
    # A trace given where a sweep's rows belong.
    message = refused(ValueError, lambda: plots.vs_alpha_r(cut))
    assert "is a JSON file, not a sweep's results.csv" in message and "timeline" in message
    done = script("plot_timeline.py", csv, tmp_path / "t.png")
    assert done.returncode == 1 and "is not JSON" in done.stderr and "--trace" in done.stderr, done.stderr


def a_study(days=30, policy="replan"):
    """The least of an availability study's JSON that the figure reads."""
    return {"config": "x.yaml", "sets": [], "days": days, "seeds": 1, "healthy_per_hour": 100.0,
            "policies": [{"policy": policy, "goodput_per_hour": 99.0, "goodput_pct": 99.0,
                          "cdf": [[10**9, 0.99], [2 * 10**9, 1.0]], "lost_ps": {"detection": 10**6}}]}


def test_an_availability_figure_refuses_what_is_not_a_study(tmp_path):
    trace = tmp_path / "trace.json"
    trace.write_text('{"traceEvents": []}')
    assert "lacks policies" in refused(ValueError, lambda: plots.availability(trace))
    assert "no such file" in refused(ValueError, lambda: plots.availability(tmp_path / "missing.json"))
    (tmp_path / "bad.json").write_text("{")
    assert "is not JSON" in refused(ValueError, lambda: plots.availability(tmp_path / "bad.json"))
    broken = a_study()
    del broken["policies"][0]["cdf"]
    assert "a policy lacks cdf" in refused(ValueError, lambda: plots.availability(broken))
    assert "one label per study" in refused(ValueError, lambda: plots.availability([a_study()], labels=["a", "b"]))
    assert "its own label" in refused(ValueError, lambda: plots.availability([a_study(), a_study()], labels=["a", "a"]))
    assert "same length" in refused(ValueError, lambda: plots.availability([a_study(30), a_study(7)],
                                                                                    labels=["a", "b"]))
    assert "give labels=" in refused(ValueError, lambda: plots.availability([a_study(), a_study()]))
    assert "at least one study" in refused(ValueError, lambda: plots.availability([]))
    assert "takes no argument label=" in refused(TypeError, lambda: plots.availability(a_study(), label="x"))


def test_plot_availability_exits_with_the_reason(tmp_path):
    trace = tmp_path / "trace.json"
    trace.write_text('{"traceEvents": []}')
    done = script("plot_availability.py", trace, tmp_path / "out")
    assert done.returncode != 0 and "lacks policies" in done.stderr, done.stderr
    study = tmp_path / "study.json"
    study.write_text(json.dumps(a_study()))
    done = script("plot_availability.py", study, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert "replan: 99 useful iterations/h (99.00 % of healthy), 1 us lost per 30 days" in done.stdout
    assert os.path.isfile(tmp_path / "out.png") and os.path.isfile(tmp_path / "out.pdf")
