"""Figures for a paper, from a sweep's results (a DataFrame, a results.csv or
its folder) or a --trace file. Each function returns the matplotlib Figure
and, given `prefix`, writes PREFIX.png and PREFIX.pdf atomically (or the
`formats` given); the scripts in scripts/plots/ are their command lines.

    photonsim.plots.measured_vs_predicted(df, "mvp")      # + error panels
    photonsim.plots.vs_alpha_r(df, "time")                # colour: algorithm/planner, dashes: message size
    photonsim.plots.speedup_heatmap(df, "speedup", by="synthesis.planner", baseline="static")
    photonsim.plots.timeline("trace.json", "timeline")    # a collective's ports, or a training iteration's GPUs
"""

import json
import math
import os
import re

SIZE_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30,
              "TiB": 2**40}
TIME_UNITS = {"ps": 1, "ns": 10**3, "us": 10**6, "ms": 10**9, "s": 10**12}
DASHES = ["-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3))]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def pyplot():
    """matplotlib.pyplot on the Agg backend unless a backend was chosen (a notebook's inline one)."""
    import matplotlib

    if "MPLBACKEND" not in os.environ and matplotlib.get_backend().lower() not in ("agg",) and \
            "inline" not in matplotlib.get_backend().lower():
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# --- units ---------------------------------------------------------------------


def _short(v):
    return f"{v:.0f}" if v >= 10 else f"{v:.2g}"


def fmt_time(ps):
    """A label for a time in picoseconds: 1us, 150ms, ..."""
    for unit, scale in (("s", 1e12), ("ms", 1e9), ("us", 1e6), ("ns", 1e3)):
        if ps >= scale:
            return _short(ps / scale) + unit
    return f"{ps:g}ps"


def fmt_bytes(b):
    """A label for a size in bytes (decimal units): 1KB, 256MB, ..."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if b >= scale:
            return _short(b / scale) + unit
    return f"{b:g}B"


def fmt_ratio(r):
    """A speedup as people write it: 130x, 2.5x, 1x, 0.4x, 0.008x (never 1.3e+02x)."""
    if r >= 10:
        return f"{r:.0f}x"
    if r >= 1:
        return f"{r:.2g}x"
    if r <= 0:
        return "0x"
    digits = 1 - math.floor(math.log10(r))  # two significant digits: 0.012, 0.4, 0.008
    return f"{r:.{digits}f}".rstrip("0").rstrip(".") + "x"


def quantity(text, units):
    """The integer value of "4MB", "1us" or "4000000B" (plain numbers pass)."""
    text = str(text).strip()
    m = re.fullmatch(r"([0-9.]+)\s*([A-Za-z]*)", text)
    if not m:
        raise ValueError(f"cannot read the quantity {text!r}")
    unit = m.group(2)
    if unit and unit not in units:
        raise ValueError(f"{text!r}: unknown unit (valid: {', '.join(units)})")
    return int(round(float(m.group(1)) * (units[unit] if unit else 1)))


# --- inputs and outputs -----------------------------------------------------------


def table(results):
    """A sweep's rows as a DataFrame: given one, a results.csv, its folder or a Results."""
    import pandas as pd

    if isinstance(results, pd.DataFrame):
        return results
    if hasattr(results, "table"):
        return results.table
    from photonsim.results import load_results

    return load_results(results).table


def save(fig, prefix, dpi=150, formats=("png", "pdf")):
    """Writes PREFIX.png and PREFIX.pdf (or the given formats), each
    atomically (a temporary file renamed into place)."""
    paths = []
    folder = os.path.dirname(os.fspath(prefix))
    if folder:
        os.makedirs(folder, exist_ok=True)
    for ext in formats:
        path = f"{prefix}.{ext}"
        tmp = f"{prefix}.tmp.{ext}"
        fig.savefig(tmp, dpi=dpi, format=ext, bbox_inches="tight")
        os.replace(tmp, path)
        paths.append(path)
    return paths


def _finish(fig, prefix, formats=("png", "pdf")):
    if prefix is not None:
        save(fig, prefix, formats=formats)
    return fig


def fabric_title(rows):
    """What the rows' fabric is, for a title: "alltoall, 64 GPUs, 1 port, 800
    Gbps/port, 500ns hop"; a value the rows vary is listed ("64/81 GPUs")."""
    import pandas as pd

    df = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame([rows])

    def values(column, show):
        if column not in df.columns:
            return None
        found = sorted(df[column].dropna().unique(), key=lambda v: float(v) if str(v).replace(".", "").isdigit()
                       else str(v))
        shown = [show(v) for v in found[:4]] + (["..."] if len(found) > 4 else [])
        return "/".join(shown)

    parts = []
    gpus = values("gpus", lambda v: str(int(v)))
    if gpus:
        parts.append(f"{gpus} GPUs")
    ports = values("ports", lambda v: str(int(v)))
    if ports:
        parts.append(f"{ports} port{'' if ports == '1' else 's'}")
    bandwidth = values("bandwidth_bps", lambda v: f"{float(v) / 1e9:g}")
    if bandwidth:
        parts.append(f"{bandwidth} Gbps/port")
    latency = values("latency_ps", lambda v: fmt_time(float(v)))
    if latency:
        parts.append(f"{latency} hop")
    collective = values("collective", str)
    return (f"{collective}, " if collective else "") + ", ".join(parts)


def _varying(df, columns):
    return [c for c in columns if c in df.columns and df[c].nunique() > 1]


def _group_colors(values):
    import matplotlib

    palette = matplotlib.colormaps["tab10"].colors
    return {v: palette[i % len(palette)] for i, v in enumerate(values)}


# --- measured vs predicted ------------------------------------------------------------


def measured_vs_predicted(results, prefix=None, by="algorithm", band=2.0, title=None, formats=("png", "pdf")):
    """Measured against predicted completion time, with error panels: the
    error (%) against alpha_r and against the predicted time, the +-band
    shaded, so a 23 % error is as visible as a 0.1 % one. Colour: `by`."""
    plt = pyplot()
    df = table(results)
    groups = sorted(df[by].astype(str).unique())
    colors = _group_colors(groups)
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.3), gridspec_kw={"width_ratios": [1.15, 1, 1]})
    scatter, vs_delay, vs_time = axes
    predicted_ms = df["predicted_ps"].astype(float) / 1e9
    measured_ms = df["measured_ps"].astype(float) / 1e9
    low, high = min(predicted_ms.min(), measured_ms.min()), max(predicted_ms.max(), measured_ms.max())
    line = [low, high]
    scatter.plot(line, line, color="black", linewidth=0.8, label="measured = predicted")
    scatter.fill_between(line, [x * (1 - band / 100) for x in line], [x * (1 + band / 100) for x in line],
                         color="gray", alpha=0.25, label=f"+-{band:g} %")
    worst = max(float(df["error_pct"].abs().max()), band)
    for ax in (vs_delay, vs_time):
        ax.axhspan(-band, band, color="gray", alpha=0.25)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylim(-worst * 1.15, worst * 1.15)
        ax.set_xscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.set_ylabel("error: measured vs predicted (%)")
    for i, g in enumerate(groups):
        rows = df[df[by].astype(str) == g]
        marker = MARKERS[i % len(MARKERS)]
        kw = {"s": 14, "color": colors[g], "marker": marker}
        scatter.scatter(rows["predicted_ps"] / 1e9, rows["measured_ps"] / 1e9, label=g, **kw)
        vs_delay.scatter(rows["reconfig_delay_ps"].astype(float) / 1e6, rows["error_pct"], **kw)
        vs_time.scatter(rows["predicted_ps"].astype(float) / 1e9, rows["error_pct"], **kw)
    scatter.set_xscale("log")
    scatter.set_yscale("log")
    scatter.grid(True, which="both", alpha=0.3)
    scatter.set_xlabel("predicted completion time (ms)")
    scatter.set_ylabel("measured (simulated) completion time (ms)")
    scatter.set_title("measured vs predicted")
    vs_delay.set_xlabel("reconfiguration delay alpha_r (us)")
    vs_delay.set_title("error against alpha_r")
    vs_time.set_xlabel("predicted completion time (ms)")
    vs_time.set_title("error against predicted time")
    handles, labels = scatter.get_legend_handles_labels()
    fig.legend(handles, labels, title=by, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8, title_fontsize=8)
    fig.suptitle(title or fabric_title(df))
    fig.tight_layout()
    return _finish(fig, prefix, formats)


def worst_errors(results, by="algorithm"):
    """The worst |error %| per value of `by`, largest first (what measured_vs_predicted shows)."""
    df = table(results)
    out = df.groupby(df[by].astype(str))["error_pct"].agg(lambda e: e.abs().max()).rename("worst_error_pct")
    return out.sort_values(ascending=False)


# --- completion time against alpha_r ---------------------------------------------------------


def _default_color_key(df):
    for key in ("synthesis.planner", "synthesis.algorithm"):
        if key in df.columns and df[key].nunique() > 1:
            return key
    return "algorithm"


def _message_key(df):
    return "workload.message" if "workload.message" in df.columns else "message_bytes"


def _sort_key_of(key):
    if key == "workload.message":
        return lambda v: quantity(v, SIZE_UNITS)
    return lambda v: (len(str(v)), str(v))


def _label(key, value):
    if key in ("workload.message", "message_bytes"):
        return fmt_bytes(quantity(value, SIZE_UNITS))
    return re.sub(r"^\{type: ([^,}]+).*", r"\1", str(value))  # a map value by its type


def vs_alpha_r(results, prefix=None, color=None, style=None, panel="fabric.ports", title=None, formats=("png", "pdf")):
    """Completion time against alpha_r: colour for the algorithm or planner
    (`color`, by default whichever of synthesis.planner / synthesis.algorithm
    the sweep varies), line style for the message size (`style`), one panel
    per value of `panel`; the number of reconfigurations a joint synthesizer
    chose is marked where it changes. Legend outside the data; the title
    says the fabric."""
    plt = pyplot()
    from matplotlib.lines import Line2D

    df = table(results).copy()
    color = color or _default_color_key(df)
    style = style or _message_key(df)
    if style in df.columns and df[style].nunique() <= 1:
        style = None
    panels = sorted(df[panel].unique(), key=_sort_key_of(panel)) if panel in df.columns else [None]
    colors = _group_colors(sorted(df[color].astype(str).unique()))
    styles = sorted(df[style].unique(), key=_sort_key_of(style)) if style else [None]
    dash = {s: DASHES[i % len(DASHES)] for i, s in enumerate(styles)}
    others = [k for k in _varying(df, [c for c in df.columns if "." in c])
              if k not in (color, style, panel, "fabric.reconfig_delay")]
    fig, axes = plt.subplots(1, len(panels), figsize=(5.6 * len(panels), 4.2), squeeze=False, sharey=True)
    for ax, p in zip(axes[0], panels):
        part = df if p is None else df[df[panel] == p]
        keys = [color] + ([style] if style else []) + others
        for values, rows in part.groupby(keys, sort=False):
            values = values if isinstance(values, tuple) else (values,)
            rows = rows.sort_values("reconfig_delay_ps")
            c = str(values[0])
            s = values[1] if style else None
            x = rows["reconfig_delay_ps"].astype(float) / 1e6
            y = rows["measured_ps"].astype(float) / 1e9
            ax.plot(x, y, color=colors[c], linestyle=dash[s], marker=".", markersize=4, linewidth=1.2)
            d = rows["reconfigurations"].tolist()
            if len(set(d)) > 1:
                previous = None
                for xi, yi, di in zip(x, y, d):
                    if di != previous:
                        ax.annotate(f"d={di}", (xi, yi), textcoords="offset points", xytext=(0, 5), fontsize=6,
                                    ha="center", color=colors[c])
                        previous = di
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.set_xlabel("reconfiguration delay alpha_r (us)")
        ax.set_title(f"{panel.split('.')[-1]} = {p}" if p is not None else "")
    axes[0][0].set_ylabel("completion time (ms)")
    handles = [Line2D([], [], color=colors[c], linewidth=2, label=c) for c in colors]
    if style:
        handles.append(Line2D([], [], linestyle="none", label=""))
        handles += [Line2D([], [], color="black", linestyle=dash[s], label=_label(style, s)) for s in styles]
    fig.legend(handles=handles, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8,
               title=color.split(".")[-1] + (f" / {style.split('.')[-1]}" if style else ""), title_fontsize=8)
    fig.suptitle((title + ": " if title else "") + fabric_title(df))
    fig.tight_layout()
    return _finish(fig, prefix, formats)


# --- speedup heatmaps ---------------------------------------------------------------


def speedup_heatmap(results, prefix=None, by="synthesis.planner", baseline="static", title=None, where=None, formats=("png", "pdf")):
    """For each value of `by` against `baseline`: the speedup baseline_time /
    time per (alpha_r, message size) cell, colour on a log scale with ticks
    such as 130x and 0.008x; then which value is fastest in each cell.
    `where`: {column: value} to cut a sweep that varies more keys."""
    plt = pyplot()
    import numpy as np
    from matplotlib.colors import ListedColormap, LogNorm

    df = table(results)
    for key, value in (where or {}).items():
        if key not in df.columns:
            raise ValueError(f"where: {key} is not a column")
        df = df[df[key].astype(str) == str(value)]
        if df.empty:
            raise ValueError(f"where: no row has {key} = {value}")
    message_of = (lambda r: quantity(r["workload.message"], SIZE_UNITS)) if "workload.message" in df.columns \
        else (lambda r: int(r["message_bytes"]))
    time = {}
    for _, r in df.iterrows():
        time[(str(r[by]), int(r["reconfig_delay_ps"]), message_of(r))] = int(r["measured_ps"])
    delays = sorted({k[1] for k in time})
    messages = sorted({k[2] for k in time})
    contenders = sorted({k[0] for k in time})
    if baseline not in contenders:
        raise ValueError(f"baseline {baseline}: not a value of {by} (values: {', '.join(contenders)})")
    others = [c for c in contenders if c != baseline]
    fig, axes = plt.subplots(1, len(others) + 1, figsize=(5.4 * (len(others) + 1), 4.5), squeeze=False)
    for ax, other in zip(axes[0], others):
        grid = np.full((len(messages), len(delays)), np.nan)
        for i, m in enumerate(messages):
            for j, d in enumerate(delays):
                if (baseline, d, m) in time and (other, d, m) in time:
                    grid[i, j] = time[(baseline, d, m)] / time[(other, d, m)]
        finite = grid[np.isfinite(grid)]
        spread = max(finite.max(), 1 / finite.min(), 1.01) if finite.size else 2
        image = ax.imshow(grid, origin="lower", aspect="auto", cmap="RdBu", norm=LogNorm(1 / spread, spread))
        ticks = np.geomspace(1 / spread, spread, 5)
        bar = fig.colorbar(image, ax=ax, ticks=ticks)
        bar.set_label(f"speedup of {other} over {baseline}")
        bar.ax.set_yticklabels([fmt_ratio(t) for t in ticks])
        bar.ax.minorticks_off()
        ax.set_title(f"{other} vs {baseline}")
    best = np.full((len(messages), len(delays)), np.nan)
    for i, m in enumerate(messages):
        for j, d in enumerate(delays):
            # The simplest within 0.5 % of the fastest, the baseline first.
            cell = {c: time[(c, d, m)] for c in contenders if (c, d, m) in time}
            if cell:
                fastest = min(cell.values())
                for c in [baseline] + others:
                    if c in cell and cell[c] <= fastest * 1.005:
                        best[i, j] = contenders.index(c)
                        break
    palette = ListedColormap([_group_colors(contenders)[c] for c in contenders])
    last = axes[0][-1]
    last.imshow(best, origin="lower", aspect="auto", cmap=palette, vmin=-0.5, vmax=len(contenders) - 0.5)
    last.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=palette(k)) for k in range(len(contenders))],
                labels=contenders, fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    last.set_title("fastest " + by.split(".")[-1])
    for ax in axes[0]:
        step_x, step_y = max(1, len(delays) // 8), max(1, len(messages) // 8)
        ax.set_xticks(range(0, len(delays), step_x))
        ax.set_xticklabels([fmt_time(delays[j]) for j in range(0, len(delays), step_x)], rotation=45, fontsize=8)
        ax.set_yticks(range(0, len(messages), step_y))
        ax.set_yticklabels([fmt_bytes(messages[i]) for i in range(0, len(messages), step_y)], fontsize=8)
        ax.set_xlabel("reconfiguration delay alpha_r")
        ax.set_ylabel("message size")
    fig.suptitle((title + "\n" if title else "") + fabric_title(df), fontsize=10)
    fig.tight_layout()
    return _finish(fig, prefix, formats)


# --- timelines --------------------------------------------------------------------------


def _read_trace(trace):
    if isinstance(trace, dict):
        return trace
    with open(trace) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise ValueError(f"{trace}: not a photonsim trace (no traceEvents array)")
    return doc


def timeline(trace, prefix=None, gpus=8, title=None, formats=("png", "pdf")):
    """A Gantt chart of a --trace file: for a collective, its steps and the
    first `gpus` GPUs' ports (scripts/plots/plot_timeline.py); for a training
    iteration (a task graph's trace), per GPU its compute, communication,
    setup (ports taken until the circuits light) and waiting rows, with the
    critical path's nodes outlined and drawn on a top row of their own."""
    doc = _read_trace(trace)
    if any(e.get("cat") == "graph" for e in doc["traceEvents"]):
        return graph_timeline(doc, prefix, gpus, title, formats)
    from photonsim._timeline import collective_timeline

    return _finish(collective_timeline(doc, gpus, title, pyplot()), prefix, formats)


def graph_timeline(trace, prefix=None, gpus=8, title=None, formats=("png", "pdf")):
    """The training iteration of a task graph's trace (see timeline)."""
    plt = pyplot()
    from matplotlib.patches import Patch

    doc = _read_trace(trace)
    events = doc["traceEvents"]
    process = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "process_name"}
    critical = [e for e in events if e.get("ph") == "X" and e.get("cat") == "graph"]
    on_path = {e["name"] for e in critical}
    gpu_pids = sorted((int(name.split()[1]), pid) for pid, name in process.items() if name.startswith("GPU "))
    gpu_pids = gpu_pids[:gpus]
    kinds = [("compute", "compute", "#4c72b0"), ("communication", "communication", "#dd8452"),
             ("setup", "reconfiguration", "#8c8c8c"), ("waiting", "wait", "#c44e52")]
    rows = [("critical path", None, None)]
    for u, pid in gpu_pids:
        rows += [(f"GPU {u} {label}", pid, cat) for label, cat, _ in kinds]
    color = {cat: c for _, cat, c in kinds}
    fig, ax = plt.subplots(figsize=(12, 0.22 * len(rows) + 1.6))
    y = {r[0]: len(rows) - 1 - i for i, r in enumerate(rows)}
    for e in critical:
        kind = e.get("args", {}).get("kind", "compute")
        c = color["compute"] if kind == "compute" else color["communication"]
        ax.broken_barh([(e["ts"], e["dur"])], (y["critical path"] - 0.4, 0.8), facecolors=c, edgecolor="black",
                       linewidth=0.6)
    for u, pid in gpu_pids:
        for label, cat, _ in kinds:
            spans = [e for e in events if e.get("ph") == "X" and e.get("pid") == pid and e.get("cat") == cat]
            row = y[f"GPU {u} {label}"]
            plain = [(e["ts"], e["dur"]) for e in spans if e["name"] not in on_path]
            hot = [(e["ts"], e["dur"]) for e in spans if e["name"] in on_path]
            ax.broken_barh(plain, (row - 0.35, 0.7), facecolors=color[cat], alpha=0.75,
                           hatch="///" if cat == "reconfiguration" else None)
            if hot:
                ax.broken_barh(hot, (row - 0.35, 0.7), facecolors=color[cat], edgecolor="black", linewidth=1.0)
    ax.set_yticks([y[r[0]] for r in rows])
    ax.set_yticklabels([r[0] for r in rows], fontsize=7)
    ax.set_xlabel("time (us)")
    ax.grid(True, axis="x", alpha=0.3)
    handles = [Patch(facecolor=c, label=label, hatch="///" if cat == "reconfiguration" else None)
               for label, cat, c in kinds]
    handles.append(Patch(facecolor="white", edgecolor="black", label="on the critical path"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    other = doc.get("otherData", {})
    shown = f"first {len(gpu_pids)} of {other.get('gpus', '?')} GPUs" if gpu_pids else "no GPU rows"
    ax.set_title(title or (f"training iteration: {other.get('algorithm', '')} / {other.get('planner', '')}, "
                           f"{fmt_time(float(other.get('iteration_ps', 0)))} ({shown})"))
    fig.tight_layout()
    return _finish(fig, prefix, formats)
