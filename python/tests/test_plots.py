"""photonsim.plots: every figure draws from a sweep (or a trace) and writes
PNG and PDF; speedups read as people write them."""

import os
import subprocess

import pytest

import photonsim
from photonsim import plots

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
BINARY = os.environ.get("PHOTONSIM_BINARY", os.path.join(ROOT, "build", "photonsim"))
QUICKSTART = os.path.join(ROOT, "configs", "quickstart.yaml")


@pytest.fixture(scope="module")
def sweep():
    return photonsim.sweep(QUICKSTART, {"synthesis.planner": ["static", "every_step"],
                                        "workload.message": ["1MB", "4MB"],
                                        "fabric.reconfig_delay": "1us..1ms x1"}, progress=False)


def written(prefix):
    for ext in ("png", "pdf"):
        path = f"{prefix}.{ext}"
        assert os.path.getsize(path) > 1000, path
    with open(f"{prefix}.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    return True


def test_ratios_read_as_people_write_them():
    assert [plots.fmt_ratio(r) for r in (130.4, 2.5, 1.0, 0.4, 0.008, 0.0123)] == \
        ["130x", "2.5x", "1x", "0.4x", "0.008x", "0.012x"]
    assert plots.fmt_time(1_000_000) == "1us" and plots.fmt_bytes(16_000_000) == "16MB"
    assert plots.quantity("4MB", plots.SIZE_UNITS) == 4_000_000


def test_every_sweep_figure_writes_png_and_pdf(sweep, tmp_path):
    fig = plots.measured_vs_predicted(sweep, tmp_path / "mvp", by="synthesis.planner")
    assert len(fig.axes) == 3 and written(tmp_path / "mvp")  # the scatter and its two error panels
    fig = plots.vs_alpha_r(sweep, tmp_path / "time")
    assert written(tmp_path / "time")
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels[:2] == ["every_step", "static"] and "1MB" in labels and "4MB" in labels
    assert "8 GPUs" in fig._suptitle.get_text()
    fig = plots.speedup_heatmap(sweep, tmp_path / "heat", by="synthesis.planner", baseline="static")
    assert written(tmp_path / "heat")
    ticks = [t.get_text() for t in fig.axes[-1].get_yticklabels()]  # the colour bar
    assert ticks and all(t.endswith("x") and "e+" not in t for t in ticks)
    with pytest.raises(ValueError, match="baseline nonesuch"):
        plots.speedup_heatmap(sweep, None, by="synthesis.planner", baseline="nonesuch")


def test_worst_errors_per_group(sweep):
    assert set(plots.worst_errors(sweep, by="synthesis.planner").index) == {"static", "every_step"}


def test_timelines_of_a_collective_and_of_a_training_iteration(tmp_path):
    collective = tmp_path / "c.json"
    subprocess.run([BINARY, "run", QUICKSTART, "--trace", str(collective)], check=True, capture_output=True)
    fig = plots.timeline(collective, tmp_path / "c", gpus=4)
    assert written(tmp_path / "c") and "port" in fig.photonsim_summary
    graph = tmp_path / "g.json"
    subprocess.run([BINARY, "run", os.path.join(ROOT, "configs", "training", "transformer_32.yaml"), "--trace",
                    str(graph)], check=True, capture_output=True)
    fig = plots.timeline(graph, tmp_path / "g", gpus=2)
    assert written(tmp_path / "g")
    rows = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert rows[0] == "critical path"
    assert rows[1:5] == ["GPU 0 compute", "GPU 0 communication", "GPU 0 setup", "GPU 0 waiting"]


# --- figures that say what the text says (issue 51, item 4) ------------------------------------------------


def cell_rows(times):
    """Sweep rows from {(planner, delay_ps, message_bytes): measured_ps}."""
    import pandas as pd

    return pd.DataFrame([{"synthesis.planner": p, "reconfig_delay_ps": d, "message_bytes": m, "measured_ps": t,
                          "gpus": 8} for (p, d, m), t in times.items()])


def test_fastest_is_a_rule_with_a_tolerance_that_can_come_out_either_way():
    rows = cell_rows({("static", 1, 10): 1010, ("every_step", 1, 10): 1004, ("harvest", 1, 10): 1000,
                      ("static", 2, 10): 1000, ("every_step", 2, 10): 3000, ("harvest", 2, 10): 1200})
    cells = plots.fastest(rows, by="synthesis.planner")  # ties within 0.5 %
    assert list(cells["fastest"]) == ["harvest=every_step", "static"]
    assert cells["lead"].round(3).tolist() == [1.01, 1.2]
    assert cells.attrs["counts"] == {"every_step": 1, "harvest": 1, "static": 1}
    assert plots.fastest_summary(cells) == ("fastest synthesis.planner per cell (ties within 0.5 %): every_step 1 of "
                                            "2 cells, harvest 1, static 1")
    strict = plots.fastest(rows, by="synthesis.planner", tie_pct=0.1)
    assert list(strict["fastest"]) == ["harvest", "static"] and strict.attrs["counts"]["every_step"] == 0


def test_heatmap_panels_share_one_scale_spanning_the_data_cells_carry_values_and_ties_show(tmp_path):
    import numpy as np
    from matplotlib.patches import Rectangle

    a, b = 1_000_000, 4_000_000
    rows = cell_rows({("static", 1000, a): 1000, ("every_step", 1000, a): 100, ("harvest", 1000, a): 100,
                      ("static", 1000, b): 1000, ("every_step", 1000, b): 250, ("harvest", 1000, b): 1000,
                      ("static", 10**6, a): 1000, ("every_step", 10**6, a): 50000, ("harvest", 10**6, a): 1002,
                      ("static", 10**6, b): 1000, ("every_step", 10**6, b): 2000, ("harvest", 10**6, b): 500})
    fig = plots.speedup_heatmap(rows, tmp_path / "heat", by="synthesis.planner", baseline="static")
    assert written(tmp_path / "heat")
    speedup_panels = [ax for ax in fig.axes if ax.get_title().endswith(" vs static")]
    assert len(speedup_panels) == 2
    norms = {(ax.images[0].norm.vmin, ax.images[0].norm.vmax) for ax in speedup_panels}
    assert len(norms) == 1  # one colour scale for both panels
    low, high = norms.pop()
    assert np.isclose(low, 1000 / 50000) and np.isclose(high, 10.0)  # the data's range, not mirrored around 1x
    for ax in speedup_panels:  # every cell carries its value
        assert len([t for t in ax.texts if t.get_text().endswith("x")]) == 4
    every_step = next(ax for ax in speedup_panels if ax.get_title().startswith("every_step"))
    assert sorted(t.get_text() for t in every_step.texts) == ["0.020x", "0.50x", "10.0x", "4.00x"]
    harvest = next(ax for ax in speedup_panels if ax.get_title().startswith("harvest"))
    hatched = [p for p in harvest.patches if isinstance(p, Rectangle) and p.get_hatch()]
    assert len(hatched) == 2  # 1.00x at 4 MB and 0.998x: ties with static, within 0.5 %
    fastest_panel = next(ax for ax in fig.axes if ax.get_title().startswith("fastest planner"))
    labels = [t.get_text() for t in fastest_panel.get_legend().get_texts()]
    assert labels == ["every_step: 2 of 4", "harvest: 3 of 4", "static: 1 of 4", "stripes: a tie"]
    assert "0.5 %" in fastest_panel.get_legend().get_title().get_text()
    striped = [p for p in fastest_panel.patches if p.get_width() < 1]
    assert len(striped) == 4  # two tied cells, two stripes each
    assert "within 0.5 %" in fig._supxlabel.get_text()
    assert fig.photonsim_summary.startswith("fastest synthesis.planner per cell (ties within 0.5 %): harvest 3 of 4")


def test_vs_alpha_r_defines_its_labels_and_keeps_coinciding_lines_visible(sweep, tmp_path):
    fig = plots.vs_alpha_r(sweep, tmp_path / "time")
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert not [t for t in texts if t.startswith("d=")]  # no undefined labels on the lines
    time_ax, count_ax = fig.axes[0], fig.axes[1]
    assert "reconfigurations" in count_ax.get_ylabel() and "completion time" in time_ax.get_ylabel()
    by_colour = {}
    for line in time_ax.get_lines():
        by_colour.setdefault(line.get_color(), set()).add((line.get_linewidth(), line.get_marker()))
    assert len(by_colour) == 2
    (wide,), (narrow,) = sorted(by_colour.values(), key=lambda s: -min(w for w, _ in s))
    assert wide[0] > narrow[0] and wide[1] != narrow[1]  # nested widths, different markers
    assert "underneath" in fig.legends[0].get_title().get_text()


AVAILABILITY = os.path.join(ROOT, "configs", "availability", "transformer_128.yaml")


def availability_study(tmp_path, name, *sets, policies="all"):
    args = [BINARY, "availability", AVAILABILITY, "--days", "30", "--seeds", "5", "--policies", policies,
            "--format", "json"]
    for s in sets:
        args += ["--set", s]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    path = tmp_path / name
    path.write_text(done.stdout)
    return path


def test_availability_draws_studies_and_names_the_highest_goodput_by_rule(tmp_path):
    import json

    ocs = availability_study(tmp_path, "ocs.json")
    static = availability_study(tmp_path, "static.json", "synthesis.planner=static", policies="abort_restart")
    fig = plots.availability([ocs, static], tmp_path / "month", labels=["ocs", "static"])
    assert written(tmp_path / "month")
    lines = fig.photonsim_summary.split("\n")
    bars = [(label, p) for label, path in (("ocs", ocs), ("static", static))
            for p in json.loads(path.read_text())["policies"]]
    assert len(lines) == len(bars) + 1
    for line, (label, p) in zip(lines, bars):
        assert line.startswith(f"{label}, {p['policy']}: {float(p['goodput_per_hour']):,.0f} useful iterations/h")
    best = max(bars, key=lambda b: float(b[1]["goodput_per_hour"]))
    assert lines[-1] == f"highest goodput: {best[0]}, {best[1]['policy']}"
    # The same study twice under two names ties everywhere: no single highest.
    tie = plots.availability([static, static], labels=["a", "b"], formats=())
    assert tie.photonsim_summary.split("\n")[-1] == "highest goodput: none (a tie)"
    # One study: the policies alone, its label left out.
    one = plots.availability(str(ocs))
    assert one.photonsim_summary.split("\n")[0].startswith("replan: ")
