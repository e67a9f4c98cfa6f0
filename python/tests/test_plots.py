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
