#!/usr/bin/python3
"""photonsim from Python, as in python/examples/quickstart.ipynb (the same
cells): run a config, look at its steps, sweep alpha_r against two planners,
plot, and save and replay a schedule. scripts/test runs it.

  python/examples/quickstart.py [--out DIR]     (default: results/python_quickstart)
"""
import argparse
import os

import photonsim

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.realpath(__file__)), os.pardir, os.pardir))
parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--out", default=os.path.join(ROOT, "results", "python_quickstart"))
out = parser.parse_args().out
os.makedirs(out, exist_ok=True)
config = os.path.join(ROOT, "configs", "quickstart.yaml")

# %% One run: measured (simulated) next to predicted, and its steps.
r = photonsim.run(config)
print(f"measured {r.measured_ps} ps, predicted {r.predicted_ps} ps, error {r.error_pct} %")
print(r.steps[["step", "topology", "transfers", "measured_ps", "predicted_ps"]].to_string(index=False))

# %% A sweep: alpha_r from 100 ns to 1 ms, the static ring against reconfiguring every step.
df = photonsim.sweep(config, {"synthesis.planner": ["static", "every_step"],
                              "fabric.reconfig_delay": "100ns..1ms x1"}, jobs=2)
print(df[["point", "synthesis.planner", "fabric.reconfig_delay", "measured_ps", "predicted_ps"]].to_string(index=False))

# %% Completion time against alpha_r, one line per planner.
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(5, 3.2))
for planner, rows in df.groupby("synthesis.planner"):
    ax.plot(rows["reconfig_delay_ps"] / 1e6, rows["measured_ps"] / 1e6, marker="o", label=planner)
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("reconfiguration delay alpha_r (us)")
ax.set_ylabel("completion time (us)")
ax.set_title("quickstart: all-to-all on 8 GPUs")
ax.legend(title="planner")
fig.tight_layout()
fig.savefig(os.path.join(out, "quickstart_vs_alpha_r.png"), dpi=150)

# %% The schedule itself: synthesize, inspect, save, replay.
s = photonsim.synthesize(config, overrides={"synthesis.planner": "every_step"})
print(s, "-", s.verify())
print(s.transfers.head().to_string(index=False))
s.save(os.path.join(out, "quickstart.pb"))
replayed = photonsim.replay(os.path.join(out, "quickstart.pb"), config, overrides={"synthesis.planner": "every_step"})
print(f"replayed: measured {replayed.measured_ps} ps")
