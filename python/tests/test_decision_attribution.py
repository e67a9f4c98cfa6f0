"""What makes the papers' costs choose worse in the decision check, measured
(scripts/repro/decision_check.py --attribution-only, docs/papers.md#what-makes-a-plan-choose-worse-measured):
each row's worst point rerun with one setting of the fabric changed. The
causes the docs state must hold for the binary under test ($PHOTONSIM_BINARY
or build/photonsim): PCCL's Eq. 1 chooses worse only with whole transfers
stored and forwarded, Harvest's Eq. 3/8 prices the static ring as
store-and-forward measures it, Harvest on 2 ports loses to its LP's routes
under either router mode, rdc only under the old egress order. About 10 s."""

import csv
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
BINARY = os.environ.get("PHOTONSIM_BINARY", os.path.join(ROOT, "build", "photonsim"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "repro"))

import decision_check  # noqa: E402


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    if not os.access(BINARY, os.X_OK):
        pytest.skip(f"no binary at {BINARY}")
    out = tmp_path_factory.mktemp("attribution")
    done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "repro", "decision_check.py"),
                           "--attribution-only", "--binary", os.path.abspath(BINARY), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with open(out / "attribution.csv", newline="", encoding="utf-8") as f:
        return {(r["check"], r["row"], r["setting"]): r for r in csv.DictReader(f)}


def at(rows, check, setting, row=None):
    found = [r for (c, w, s), r in rows.items() if c == check and s == setting and (row is None or w == row)]
    assert len(found) == 1, (check, setting, row)
    r = found[0]
    return r, float(r["ratio"])


def test_pccl_eq1_chooses_worse_only_with_whole_transfers_stored_at_every_hop(rows):
    row = "cost: paper (Eq. 1)"
    swept, ratio = at(rows, "pccl", "as swept: store_and_forward, packet = chunk", row)
    assert ratio > 2.0 and float(swept["plan_us"]) > 2 * float(swept["plan_predicted_us"])
    cut, ratio = at(rows, "pccl", "cut_through", row)
    assert ratio < 1.0 and cut["plan_us"] == cut["plan_predicted_us"]
    small, ratio = at(rows, "pccl", "packet 64KiB", row)
    assert ratio < 1.0


def test_harvest_eq3_8_prices_the_static_ring_as_store_and_forward_measures_it(rows):
    swept, ratio = at(rows, "harvest", "as swept: cut_through")
    assert ratio > 1.1
    assert float(swept["staying_priced_us"]) > float(swept["plan_predicted_us"]) > float(swept["static_us"])
    stored, ratio = at(rows, "harvest", "store_and_forward")
    assert ratio < 1.0 and stored["plan_us"] == stored["plan_predicted_us"]
    assert stored["staying_priced_us"] == stored["static_us"] == swept["staying_priced_us"]


def test_harvest_on_two_ports_loses_to_its_routes_under_either_router(rows):
    for setting in ("as swept: cut_through", "store_and_forward"):
        r, ratio = at(rows, "harvest_2port", setting)
        assert ratio > 10
        assert int(r["plan_packet_hops"]) > 5 * int(r["baseline_packet_hops"])
        assert abs(float(r["plan_us"]) - float(r["plan_predicted_us"])) < 1e-3 * float(r["plan_us"])


def test_rdc_chooses_worse_only_under_the_old_egress_order(rows):
    _, ratio = at(rows, "alltoall", "as swept: egress_order chunk, packet 4KiB")
    assert ratio > 1.01
    _, ratio = at(rows, "alltoall", "egress_order chunk_fifo")
    assert ratio < 1.0


def test_grid_fixes_a_key_in_a_copy_of_the_sweep(tmp_path):
    path = decision_check.with_grid(os.path.join(ROOT, "configs", "sweeps", "decisions_alltoall.yaml"),
                                    ["fabric.packet=4KiB", "fabric.router=cut_through"], str(tmp_path / "s.yaml"))
    text = open(path, encoding="utf-8").read()
    assert '  fabric.packet: ["4KiB"]' in text and '  fabric.router: ["cut_through"]' in text
    assert "fabric.packet: [chunk, 4KiB]" not in text
    assert "base: " + os.path.join(ROOT, "configs", "alltoall_paper", "figure11.yaml") in text
