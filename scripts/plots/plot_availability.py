#!/usr/bin/python3
"""The CDF of iteration time and the goodput per on_failure policy from a
photonsim availability study's JSON (docs/cli.md, "availability"):

  build/photonsim availability CONFIG --days 30 --seeds 100 --policies all --format json > study.json
  scripts/plots/plot_availability.py study.json OUT_PREFIX

Left: the CDF's complement, the fraction of iterations longer than x, on
log axes (nearly every iteration is a healthy one: the tail is the story); right: mean goodput per policy, in
iterations per hour, with the healthy rate as a line. The policy named best is the study's own `highest_goodput`.

usage: plot_availability.py STUDY.json OUT_PREFIX [--title TEXT]
writes OUT_PREFIX.png and OUT_PREFIX.pdf
"""
import json

import photonsim_plots as pp

args = pp.argument_parser(__doc__)
args.add_argument("study", help="photonsim availability ... --format json")
args.add_argument("prefix", help="OUT_PREFIX: writes OUT_PREFIX.png and .pdf")
args.add_argument("--title", default="", help="the figure's title")
args = args.parse_args()
with open(args.study) as f:
    try:
        study = json.load(f)
    except json.JSONDecodeError as e:
        raise SystemExit(f"{pp.script_name()}: {args.study} is not JSON: {e}")
for key in ("policies", "healthy_per_hour", "days", "seeds"):
    if key not in study:
        raise SystemExit(f"{pp.script_name()}: {args.study} lacks '{key}': is it photonsim availability's JSON?")
plt = pp.pyplot()
fig, (cdf, bars) = plt.subplots(1, 2, figsize=(11, 4.2))
for p in study["policies"]:
    points = [(point[0] / 1e9, 1 - float(point[1])) for point in p["cdf"] if float(point[1]) < 1]
    if points:
        cdf.step([x for x, _ in points], [y for _, y in points], where="post", marker=".", label=p["policy"])
cdf.set_xscale("log")
cdf.set_yscale("log")
cdf.set_xlabel("iteration time (ms)")
cdf.set_ylabel("fraction of iterations longer (1 - CDF)")
cdf.legend()
names = [p["policy"] for p in study["policies"]]
means = [float(p["goodput_per_hour"]) for p in study["policies"]]
bars.bar(names, means, color="#8fb3d9")
bars.axhline(float(study["healthy_per_hour"]), color="black", linestyle="--", linewidth=1, label="healthy")
low = min(float(p["goodput_min"]) for p in study["policies"])
bars.set_ylim(low * 0.999, float(study["healthy_per_hour"]) * 1.0002)
bars.set_ylabel("goodput (useful iterations per hour)")
best = study.get("highest_goodput")
bars.set_title(f"highest goodput: {best}" if best else "no single highest goodput")
bars.legend()
fig.suptitle(args.title or f"{study['config']}: {study['days']} days x {study['seeds']} seeds")
fig.tight_layout()
pp.save_figure(fig, args.prefix)
