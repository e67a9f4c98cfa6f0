#!/usr/bin/python3
"""Draws every image README.md embeds (docs/images/*.png) with photonsim.plots, and
writes beside each the data it is drawn from:

  tutorial_speedup.png            the tutorial's speedup heatmap (its step 3), from
                                  tutorial_speedup.csv: the tutorial's sweep, its fabric.yaml
                                  and sweep.yaml read from README.md, run by `photonsim sweep`
  plot_measured_vs_predicted.png  Harvest's recursive doubling on 64 GPUs, its three planners
  plot_vs_alpha_r.png             and its Eq. 8 cost as printed (`{type: harvest, cost: paper}`,
  plot_speedup_heatmap.png        which over-predicts cut-through steps by up to 23 %) over
                                  alpha_r and two buffer sizes, from plot_sweep.csv
                                  (photonsim.sweep)
  plot_training_timeline.png      a training iteration of the 32-GPU transformer, from
                                  plot_training_timeline.json: the spans it draws of
                                  `photonsim run configs/training/transformer_32.yaml --trace`
  plot_availability.png           a month of training of the 128-GPU transformer under port failures,
                                  from plot_availability.json: AVAILABILITY_STUDIES, each
                                  `photonsim availability ... --format json` (its reconfigurable fabric
                                  under every on_failure policy, and the static fabric aborting)

The data files hold no timing (columns *_s) and no version; every PNG is drawn from
its data file as written, on the Agg backend with matplotlib's default style and
no dates or versions in the file, so the same data gives the same bytes.
readme_figures.json records the matplotlib and FreeType that drew them.
python/tests/test_readme_images.py recomputes the data, redraws the PNGs from the
stored data and fails when either differs (docs/testing.md#the-readmes-images).

  python/examples/readme_figures.py                  recompute the data, redraw every image (docs/images)
  python/examples/readme_figures.py --data-only --out DIR          only the data
  python/examples/readme_figures.py --from-data docs/images --out DIR   only the images, from stored data
(`build/photonsim` and the Python package, as scripts/setup builds them; --photonsim PATH for another binary)
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.rcdefaults()  # no matplotlibrc of the user's or the system's
matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from photonsim import plots  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.realpath(__file__)), os.pardir, os.pardir))
README = os.path.join(ROOT, "README.md")
COMMAND = "/usr/bin/python3 python/examples/readme_figures.py"
PNG = {"formats": ("png",)}
# How README.md's tutorial draws its heatmap (step 3); the image must be what this line draws.
TUTORIAL_PLOT = ("scripts/plots/plot_speedup_heatmap.py $R results/tutorial/speedup --by synthesis.planner "
                 "--baseline static")
TIMELINE_GPUS = 4
DRAWN_KINDS = ("compute", "communication", "reconfiguration", "wait")  # plots.graph_timeline's rows


def table_text(df):
    """A sweep's rows as stored: by point, without the timing columns (*_s) and the version."""
    df = df.sort_values("point", kind="stable").reset_index(drop=True)
    df = df.drop(columns=[c for c in df.columns if c.endswith("_s") or c == "version"])
    return df.to_csv(index=False, lineterminator="\n")


def tutorial_sweep(binary):
    """The tutorial's sweep: README.md's fabric.yaml and sweep.yaml, run by the binary."""
    with open(README, encoding="utf-8") as f:
        readme = f.read()
    files = dict(re.findall(r"cat > results/tutorial/(\S+) <<'EOF'\n(.*?)\nEOF\n", readme, re.S))
    if set(files) != {"fabric.yaml", "sweep.yaml"} or TUTORIAL_PLOT not in readme:
        sys.exit(f"readme_figures.py: README.md's tutorial no longer writes fabric.yaml and sweep.yaml with "
                 f"`cat > results/tutorial/NAME <<'EOF'` or draws its heatmap with `{TUTORIAL_PLOT}` "
                 f"(found {sorted(files)}): update tutorial_sweep() and TUTORIAL_PLOT to match it")
    with tempfile.TemporaryDirectory() as folder:
        for name, text in files.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text + "\n")
        subprocess.run([binary, "sweep", os.path.join(folder, "sweep.yaml"), "--out", os.path.join(folder, "sweep")],
                       check=True, stdout=subprocess.DEVNULL)
        return table_text(pd.read_csv(os.path.join(folder, "sweep", "results.csv")))


def harvest_sweep(binary):
    import photonsim

    harvest = os.path.join(ROOT, "configs", "harvest_paper", "recursive_doubling_64.yaml")
    return table_text(photonsim.sweep(harvest, {
        "synthesis.planner": ["static", "every_step", "harvest", "{type: harvest, cost: paper}"],
        "workload.message": ["1MB", "64MB"],
        "fabric.reconfig_delay": "100ns..10ms x2"}, jobs=2, progress=False))


def training_trace(binary):
    """The spans plots.timeline draws of the transformer's trace (its critical path and the
    first TIMELINE_GPUS GPUs' rows), one event a line; the config's path relative, no version."""
    config = os.path.join(ROOT, "configs", "training", "transformer_32.yaml")
    with tempfile.TemporaryDirectory() as folder:
        trace = os.path.join(folder, "trace.json")
        subprocess.run([binary, "run", config, "--trace", trace], check=True, stdout=subprocess.DEVNULL)
        with open(trace, encoding="utf-8") as f:
            doc = json.load(f)
    events = doc["traceEvents"]
    gpus = sorted((int(e["args"]["name"].split()[1]), e["pid"]) for e in events
                  if e.get("ph") == "M" and e.get("name") == "process_name" and e["args"]["name"].startswith("GPU "))
    kept = {pid for _, pid in gpus[:TIMELINE_GPUS]}
    drawn = [e for e in events if (e.get("ph") == "M" and e.get("name") == "process_name" and e["pid"] in kept)
             or (e.get("ph") == "X" and (e.get("cat") == "graph" or (e.get("pid") in kept and
                                                                      e.get("cat") in DRAWN_KINDS)))]
    other = dict(doc.get("otherData", {}))
    other.pop("photonsim_version", None)
    other["config"] = os.path.relpath(other.get("config", config), ROOT)
    lines = ",\n".join(json.dumps(e, sort_keys=True) for e in drawn)
    return f'{{"otherData": {json.dumps(other, sort_keys=True)},\n"traceEvents": [\n{lines}\n]}}\n'


# The README's month of training: (label, the availability command's arguments after the verb).
AVAILABILITY_CONFIG = "configs/availability/transformer_128.yaml"
AVAILABILITY_STUDIES = (
    ("reconfigurable", [AVAILABILITY_CONFIG, "--days", "30", "--seeds", "100", "--policies", "all"]),
    ("static", [AVAILABILITY_CONFIG, "--days", "30", "--seeds", "100", "--set", "synthesis.planner=static",
                "--policies", "abort_restart"]),
)


def availability_studies(binary):
    """Each study of AVAILABILITY_STUDIES, run from the repository root (its config path relative)."""
    with open(README, encoding="utf-8") as f:
        readme = " ".join(f.read().replace("\\\n", " ").split())  # continued lines joined
    for label, arguments in AVAILABILITY_STUDIES:
        shown = " ".join(["build/photonsim", "availability", *arguments])
        if shown not in readme or f"--label {label}" not in readme:
            sys.exit(f"readme_figures.py: README.md no longer runs `{shown}` or labels it `--label {label}`: "
                     f"update AVAILABILITY_STUDIES to match it")
    studies = []
    for label, arguments in AVAILABILITY_STUDIES:
        done = subprocess.run([binary, "availability", *arguments, "--format", "json"], cwd=ROOT, check=True,
                              capture_output=True, text=True)
        studies.append({"label": label, "command": " ".join(["photonsim", "availability", *arguments]),
                        "study": json.loads(done.stdout)})
    return json.dumps(studies, indent=1, sort_keys=True) + "\n"


def draw_availability(data, prefix):
    with open(data, encoding="utf-8") as f:
        studies = json.load(f)
    return plots.availability([s["study"] for s in studies], prefix, labels=[s["label"] for s in studies],
                              title="128-GPU transformer, 30 days x 100 seeds of port failures", **PNG)


# name: (data file, function computing its text from the binary).
DATA = {
    "tutorial_speedup.csv": tutorial_sweep,
    "plot_sweep.csv": harvest_sweep,
    "plot_training_timeline.json": training_trace,
    "plot_availability.json": availability_studies,
}
# image: (data file, function drawing it from the data file's path to a prefix).
IMAGES = {
    "tutorial_speedup.png": ("tutorial_speedup.csv", lambda data, prefix: plots.speedup_heatmap(
        data, prefix, by="synthesis.planner", baseline="static", **PNG)),
    "plot_measured_vs_predicted.png": ("plot_sweep.csv", lambda data, prefix: plots.measured_vs_predicted(
        data, prefix, by="synthesis.planner", **PNG)),
    "plot_vs_alpha_r.png": ("plot_sweep.csv", lambda data, prefix: plots.vs_alpha_r(
        data, prefix, title="recursive doubling", **PNG)),
    "plot_speedup_heatmap.png": ("plot_sweep.csv", lambda data, prefix: plots.speedup_heatmap(
        data, prefix, by="synthesis.planner", baseline="static",
        title="recursive doubling: each planner against the static ring", **PNG)),
    "plot_training_timeline.png": ("plot_training_timeline.json", lambda data, prefix: plots.timeline(
        data, prefix, gpus=TIMELINE_GPUS, **PNG)),
    "plot_availability.png": ("plot_availability.json", draw_availability),
}
MANIFEST = "readme_figures.json"


def renderer():
    import matplotlib.ft2font

    return {"matplotlib": matplotlib.__version__, "freetype": matplotlib.ft2font.__freetype_version__}


def write_data(out, binary):
    for name, compute in DATA.items():
        path = os.path.join(out, name)
        with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as f:
            f.write(compute(binary))
        os.replace(path + ".tmp", path)
        print(f"wrote {path}")


def draw(data, out):
    import matplotlib.pyplot as plt

    for image, (name, function) in IMAGES.items():
        prefix = os.path.join(out, image[:-len(".png")])
        fig = function(os.path.join(data, name), prefix)
        if getattr(fig, "photonsim_summary", None):
            print(fig.photonsim_summary)
        plt.close(fig)
        print(f"wrote {prefix}.png")
    manifest = {"command": COMMAND, **renderer(), "images": {image: name for image, (name, _) in IMAGES.items()}}
    with open(os.path.join(out, MANIFEST), "w", encoding="utf-8") as f:
        f.write(json.dumps(manifest, indent=2) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "images"),
                        help="where to write (default docs/images)")
    parser.add_argument("--photonsim", default=os.environ.get("PHOTONSIM_BINARY",
                                                              os.path.join(ROOT, "build", "photonsim")),
                        help="the binary (default $PHOTONSIM_BINARY or build/photonsim)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--data-only", action="store_true", help="only compute and write the data files")
    what.add_argument("--from-data", metavar="DIR", help="only draw the images, from the data files in DIR")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.from_data:
        draw(args.from_data, args.out)
        return
    write_data(args.out, args.photonsim)
    if not args.data_only:
        draw(args.out, args.out)


if __name__ == "__main__":
    main()
