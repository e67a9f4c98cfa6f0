#!/usr/bin/python3
"""Draws the README's figures (docs/images/plot_*.png, PNG only) with photonsim.plots,
from runs made here: Harvest's recursive doubling on 64 GPUs (its three
planners and its Eq. 8 cost as printed, `{type: harvest, cost: paper}`,
which over-predicts cut-through steps by up to 23 %) over alpha_r and two
buffer sizes, and a training iteration of the 32-GPU transformer.

  python/examples/readme_figures.py [--out docs/images]      (needs build/photonsim: scripts/setup)
"""
import argparse
import os
import subprocess
import tempfile

import photonsim
from photonsim import plots

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.realpath(__file__)), os.pardir, os.pardir))
parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--out", default=os.path.join(ROOT, "docs", "images"))
out = parser.parse_args().out

harvest = os.path.join(ROOT, "configs", "harvest_paper", "recursive_doubling_64.yaml")
df = photonsim.sweep(harvest, {"synthesis.planner": ["static", "every_step", "harvest", "{type: harvest, cost: paper}"],
                               "workload.message": ["1MB", "64MB"],
                               "fabric.reconfig_delay": "100ns..10ms x2"}, jobs=2)
png = {"formats": ("png",)}
plots.measured_vs_predicted(df, os.path.join(out, "plot_measured_vs_predicted"), by="synthesis.planner", **png)
plots.vs_alpha_r(df, os.path.join(out, "plot_vs_alpha_r"), title="recursive doubling", **png)
plots.speedup_heatmap(df, os.path.join(out, "plot_speedup_heatmap"), by="synthesis.planner", baseline="static",
                      title="recursive doubling: each planner against the static ring", **png)
with tempfile.TemporaryDirectory() as folder:
    trace = os.path.join(folder, "trace.json")
    subprocess.run([os.path.join(ROOT, "build", "photonsim"), "run",
                    os.path.join(ROOT, "configs", "training", "transformer_32.yaml"), "--trace", trace],
                   check=True, stdout=subprocess.DEVNULL)
    plots.timeline(trace, os.path.join(out, "plot_training_timeline"), gpus=4, **png)
for name in ("plot_measured_vs_predicted", "plot_vs_alpha_r", "plot_speedup_heatmap", "plot_training_timeline"):
    print(f"wrote {os.path.join(out, name)}.png")
