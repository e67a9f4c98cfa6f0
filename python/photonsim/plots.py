"""Figures for a paper, from a sweep's results (a DataFrame, a results.csv or
its folder) or a --trace file. Each function returns the matplotlib Figure
and, given `prefix`, writes PREFIX.png and PREFIX.pdf atomically (or the
`formats` given); the scripts in scripts/plots/ are their command lines.

    photonsim.plots.measured_vs_predicted(df, "mvp")      # + error panels
    photonsim.plots.vs_alpha_r(df, "time")                # colour: algorithm/planner, dashes: message size
    photonsim.plots.speedup_heatmap(df, "speedup", by="synthesis.planner", baseline="static")
    photonsim.plots.fastest(df, by="synthesis.planner")   # the fastest per cell, ties within 0.5 %
    photonsim.plots.timeline("trace.json", "timeline")    # a collective's ports, or a training iteration's GPUs
    photonsim.plots.availability(["ocs.json", "static.json"], "month", labels=["ocs", "static"])  # goodput

What a figure says is computed, never typed in: ties are a rule with a
tolerance (TIE_PCT, shown on the figure), panels that compare share one
colour scale spanning the data, heatmap cells carry their values. Arguments
that name no column, rows that are not a sweep's and files that are not a
trace are refused with a sentence naming the argument and what it may be.
"""

import json
import math
import os
import re
import warnings

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

TIE_PCT = 0.5  # two times within 0.5 % of each other are a tie (speedup_heatmap, fastest)


def _arguments(function):
    """Refuses a keyword the function does not take with a sentence naming
    it, the closest it does take and all of them (instead of Python's bare
    "unexpected keyword argument")."""
    import difflib
    import functools
    import inspect

    names = list(inspect.signature(function).parameters)

    @functools.wraps(function)
    def checked(*args, **kwargs):
        for key in kwargs:
            if key not in names:
                close = difflib.get_close_matches(key, names, n=1, cutoff=0.5)
                hint = f"; did you mean {close[0]}=?" if close else ""
                raise TypeError(f"{function.__name__}() takes no argument {key}={hint} (its arguments: "
                                f"{', '.join(names)})")
        return function(*args, **kwargs)

    return checked


def _columns_hint(df):
    swept = [str(c) for c in df.columns if "." in str(c)]
    return (f"the swept keys are {', '.join(swept)}" if swept else "the results have no swept key") + \
        "; output columns include algorithm, planner, message_bytes, reconfig_delay_ps"


def _column(df, column, argument, function, what=None):
    """`column`, when the results have it; else a ValueError naming the
    argument, the closest column and what it can be."""
    import difflib

    if column in df.columns:
        return column
    close = difflib.get_close_matches(str(column), [str(c) for c in df.columns], n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    what = what or f"{argument}={column!r}"
    raise ValueError(f"{function}: {what} is not a column of the results{hint}; it can be any "
                     f"column: {_columns_hint(df)}")


def _need(df, columns, function):
    """The columns a figure reads from a sweep's rows; a ValueError saying
    what to pass when one is missing (a run's steps, a trace's table, ...)."""
    missing = [c for c in columns if c not in df.columns]
    if missing:
        shown = ", ".join(str(c) for c in list(df.columns)[:8]) + (", ..." if len(df.columns) > 8 else "")
        raise ValueError(f"{function}: results has no column {', '.join(missing)}: pass a sweep's rows "
                         f"(photonsim.sweep's DataFrame, a results.csv or its folder), which have "
                         f"{', '.join(columns)}; these rows have {shown or 'no columns'}")
    if df.empty:
        raise ValueError(f"{function}: results has no rows")


def table(results, function="table"):
    """A sweep's rows as a DataFrame: given one, a results.csv, its folder or a Results."""
    import pandas as pd

    if isinstance(results, pd.DataFrame):
        return results
    if hasattr(results, "table") and isinstance(getattr(results, "table"), pd.DataFrame):
        return results.table
    if not isinstance(results, (str, bytes, os.PathLike)):
        raise TypeError(f"{function}: results={type(results).__name__}: pass a sweep's rows (photonsim.sweep's "
                        "DataFrame, photonsim.load_results(...), a results.csv or its folder)" +
                        ("; a run's Result is one row: photonsim.sweep gives many" if hasattr(results, "row")
                         else ""))
    path = os.fspath(results)
    if os.path.isfile(path) and path.endswith(".json"):
        raise ValueError(f"{function}: results={path!r} is a JSON file, not a sweep's results.csv (a --trace "
                         "file is drawn by photonsim.plots.timeline)")
    from photonsim.results import load_results

    try:
        return load_results(path).table
    except (UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise ValueError(f"{function}: results={path!r} cannot be read as a CSV table ({e}): pass a sweep's "
                         "results.csv or its folder") from None


# No dates, versions or tool names in the files: the same figure is the same bytes.
_METADATA = {"png": {"Software": None}, "pdf": {"Creator": None, "Producer": None, "CreationDate": None},
             "svg": {"Creator": None, "Date": None}}


def save(fig, prefix, dpi=150, formats=("png", "pdf")):
    """Writes PREFIX.png and PREFIX.pdf (or the given formats), each
    atomically (a temporary file renamed into place), without dates or
    versions in their metadata (the same figure is the same bytes)."""
    paths = []
    folder = os.path.dirname(os.fspath(prefix))
    if folder:
        os.makedirs(folder, exist_ok=True)
    for ext in formats:
        path = f"{prefix}.{ext}"
        tmp = f"{prefix}.tmp.{ext}"
        fig.savefig(tmp, dpi=dpi, format=ext, bbox_inches="tight", metadata=_METADATA.get(ext))
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


@_arguments
def measured_vs_predicted(results, prefix=None, by="algorithm", band=2.0, title=None, formats=("png", "pdf")):
    """Measured against predicted completion time, with error panels: the
    error (%) against alpha_r and against the predicted time, the +-band
    shaded, so a 23 % error is as visible as a 0.1 % one. Colour: `by`."""
    df = table(results, "measured_vs_predicted")
    _need(df, ["measured_ps", "predicted_ps", "error_pct", "reconfig_delay_ps"], "measured_vs_predicted")
    by = _column(df, by, "by", "measured_vs_predicted")
    plt = pyplot()
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
                         color="gray", alpha=0.25, label=f"within +-{band:g} %")
    worst = max(float(df["error_pct"].abs().max()), band)
    for ax in (vs_delay, vs_time):
        ax.axhspan(-band, band, color="gray", alpha=0.25)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylim(-worst * 1.15, worst * 1.15)
        ax.set_xscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.set_ylabel("error (%): (measured - predicted) / predicted")
    for i, g in enumerate(groups):
        rows = df[df[by].astype(str) == g]
        marker = MARKERS[i % len(MARKERS)]
        # Hollow and nested: each group's markers larger than the next's, so coinciding points show every group.
        kw = {"s": 14 + 14 * (len(groups) - 1 - i), "facecolors": "none", "edgecolors": colors[g], "marker": marker,
              "linewidths": 1.0}
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


@_arguments
def worst_errors(results, by="algorithm"):
    """The worst |error %| per value of `by`, largest first (what measured_vs_predicted shows)."""
    df = table(results, "worst_errors")
    _need(df, ["error_pct"], "worst_errors")
    by = _column(df, by, "by", "worst_errors")
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


@_arguments
def vs_alpha_r(results, prefix=None, color=None, style=None, panel=None, title=None, reconfigurations=True,
               formats=("png", "pdf")):
    """Completion time against alpha_r: colour and marker for the algorithm
    or planner (`color`, by default whichever of synthesis.planner /
    synthesis.algorithm the sweep varies), line style for the message size
    (`style`), one panel per value of `panel` (default fabric.ports when the
    results have it). Lines that coincide stay visible: each colour's line
    and hollow markers are wider than the next colour's, which is drawn on
    top. Below, the number of reconfigurations each plan chose
    (`reconfigurations=False` leaves it out). Legend outside the data; the
    title says the fabric."""
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    df = table(results, "vs_alpha_r").copy()
    _need(df, ["reconfig_delay_ps", "measured_ps"], "vs_alpha_r")
    if panel is None:
        panel = "fabric.ports" if "fabric.ports" in df.columns else None
    else:
        _column(df, panel, "panel", "vs_alpha_r")
    color = _column(df, color, "color", "vs_alpha_r") if color is not None else _default_color_key(df)
    style = _column(df, style, "style", "vs_alpha_r") if style is not None else _message_key(df)
    _column(df, color, "color", "vs_alpha_r")
    plt = pyplot()
    if style in df.columns and df[style].nunique() <= 1 or style == panel:
        style = None
    if style is not None and style not in df.columns:
        style = None
    lower = reconfigurations and "reconfigurations" in df.columns
    panels = sorted(df[panel].unique(), key=_sort_key_of(panel)) if panel else [None]
    names = sorted(df[color].astype(str).unique())
    colors = _group_colors(names)
    # Nested widths: the first colour widest and lowest, so a line it shares with a later one shows around it.
    width = {c: 1.2 + 0.9 * (len(names) - 1 - i) for i, c in enumerate(names)}
    marker = {c: MARKERS[i % len(MARKERS)] for i, c in enumerate(names)}
    msize = {c: 3.5 + 1.5 * (len(names) - 1 - i) for i, c in enumerate(names)}
    order = {c: 2 + i for i, c in enumerate(names)}
    styles = sorted(df[style].unique(), key=_sort_key_of(style)) if style else [None]
    dash = {s: DASHES[i % len(DASHES)] for i, s in enumerate(styles)}
    others = [k for k in _varying(df, [c for c in df.columns if "." in str(c)])
              if k not in (color, style, panel, "fabric.reconfig_delay")]
    rows_of = 2 if lower else 1
    fig, axes = plt.subplots(rows_of, len(panels), figsize=(5.6 * len(panels) + (1.2 if len(panels) == 1 else 0),
                                                            4.2 + 1.6 * (rows_of - 1)),
                             squeeze=False, sharey="row", sharex="col",
                             gridspec_kw={"height_ratios": [3, 1.25] if lower else [1]})
    for k, p in enumerate(panels):
        ax = axes[0][k]
        part = df if p is None else df[df[panel] == p]
        keys = [color] + ([style] if style else []) + others
        for values, rows in part.groupby(keys if len(keys) > 1 else keys[0], sort=False):
            values = values if isinstance(values, tuple) else (values,)
            rows = rows.sort_values("reconfig_delay_ps")
            c = str(values[0])
            s = values[1] if style else None
            x = rows["reconfig_delay_ps"].astype(float) / 1e6
            line = {"color": colors[c], "linestyle": dash[s], "linewidth": width[c], "marker": marker[c],
                    "markersize": msize[c], "markerfacecolor": "none", "markeredgewidth": 1.0, "zorder": order[c]}
            ax.plot(x, rows["measured_ps"].astype(float) / 1e9, **line)
            if lower:
                axes[1][k].plot(x, rows["reconfigurations"].astype(float), **line)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.set_title(f"{panel.split('.')[-1]} = {p}" if p is not None else "")
        bottom = axes[rows_of - 1][k]
        bottom.set_xlabel("reconfiguration delay alpha_r (us)")
        if lower:
            bottom.set_xscale("log")
            bottom.grid(True, which="both", alpha=0.3)
            bottom.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=4))
    axes[0][0].set_ylabel("completion time (ms)")
    if lower:
        axes[1][0].set_ylabel("reconfigurations\n(chosen by the plan)")
    handles = [Line2D([], [], color=colors[c], linewidth=width[c], marker=marker[c], markersize=msize[c],
                      markerfacecolor="none", label=c) for c in names]
    if style:
        handles.append(Line2D([], [], linestyle="none", label=""))
        handles += [Line2D([], [], color="black", linestyle=dash[s], label=_label(style, s)) for s in styles]
    legend_title = color.split(".")[-1] + (f" / {style.split('.')[-1]}" if style else "")
    if len(names) > 1:
        legend_title += "\n(lines that coincide nest:\nthe wider one is underneath)"
    fig.legend(handles=handles, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8, title=legend_title,
               title_fontsize=8)
    joint = " " if title and title.rstrip().endswith((",", ":", ";")) else ": "
    fig.suptitle((title.rstrip() + joint if title else "") + fabric_title(df))
    fig.tight_layout()
    return _finish(fig, prefix, formats)


# --- speedup heatmaps ---------------------------------------------------------------


def fmt_cell(r):
    """A speedup in a heatmap cell: 114x, 10.4x, 2.62x, 1.00x, 0.82x, 0.0088x."""
    if r >= 100:
        return f"{r:.0f}x"
    if r >= 10:
        return f"{r:.1f}x"
    if r >= 0.995:
        return f"{r:.2f}x"
    return f"{r:#.2g}x"


def _cells(results, by, baseline, where, function):
    """{(contender, delay_ps, message_bytes): measured_ps} of a sweep, checked."""
    import pandas as pd

    df = table(results, function)
    _need(df, ["reconfig_delay_ps", "measured_ps"], function)
    by = _column(df, by, "by", function)
    for key, value in (where or {}).items():
        if key not in df.columns:
            _column(df, key, "where", function, what=f"where={{{key!r}: ...}}: {key!r}")
        df = df[df[key].astype(str) == str(value)]
        if df.empty:
            raise ValueError(f"{function}: where: no row has {key} = {value}")
    _need(df, ["reconfig_delay_ps", "measured_ps"] + (["workload.message"] if "workload.message" in df.columns
                                                       else ["message_bytes"]), function)
    message_of = (lambda r: quantity(r["workload.message"], SIZE_UNITS)) if "workload.message" in df.columns \
        else (lambda r: int(r["message_bytes"]))
    # A sweep that also varies another key has several rows per cell: keep the last value of each such key (what
    # a cell showed before this check, the last row), say so in a warning and in the figure, never silently.
    cell = [by, "reconfig_delay_ps", "workload.message" if "workload.message" in df.columns else "message_bytes"]
    cut = []
    for k in [c for c in df.columns if "." in str(c) and c not in cell and c != "fabric.reconfig_delay"]:
        if df.groupby(cell)[k].nunique(dropna=False).max() > 1:
            kept = df[k].iloc[-1]
            cut.append(f"{k} = {kept} of {'/'.join(str(v) for v in pd.unique(df[k]))}")
            df = df[df[k] == kept]
    if cut:
        warnings.warn(f"{function}: the results also vary {', '.join(c.split(' = ')[0] for c in cut)}: drawn for "
                      f"{'; '.join(cut)} only (choose with where={{KEY: VALUE}})", stacklevel=4)
    time = {}
    for _, r in df.iterrows():
        key = (str(r[by]), int(r["reconfig_delay_ps"]), message_of(r))
        if key in time:
            raise ValueError(f"{function}: two rows for {by} = {key[0]} at alpha_r {fmt_time(key[1])} and "
                             f"{fmt_bytes(key[2])} that no swept key tells apart; keep one with where={{KEY: VALUE}}")
        time[key] = int(r["measured_ps"])
    contenders = sorted({k[0] for k in time})
    if baseline is not None and baseline not in contenders:
        raise ValueError(f"{function}: baseline {baseline}: not a value of {by} (values: {', '.join(contenders)})")
    return df, by, time, "; ".join(cut)


@_arguments
def fastest(results, by="synthesis.planner", tie_pct=TIE_PCT, where=None):
    """Which value of `by` is fastest in each (alpha_r, message size) cell,
    by a rule that can come out either way: every contender within `tie_pct`
    percent of the cell's fastest time is tied for fastest. A DataFrame with
    one row per cell: reconfig_delay_ps, message_bytes, fastest (the tied
    contenders, fastest first, joined by '='), tied (how many), lead (the
    next contender's time over the fastest's: how far ahead the winners are;
    NaN when all tie). fastest.counts: {contender: cells it wins or ties}."""
    import pandas as pd

    _, by, time, _ = _cells(results, by, None, where, "fastest")
    contenders = sorted({k[0] for k in time})
    rows = []
    for d, m in sorted({(k[1], k[2]) for k in time}, key=lambda dm: (dm[1], dm[0])):
        cell = sorted((time[(c, d, m)], c) for c in contenders if (c, d, m) in time)
        best = cell[0][0]
        tied = [c for t, c in cell if t <= best * (1 + tie_pct / 100)]
        rest = [t for t, c in cell if c not in tied]
        rows.append({"reconfig_delay_ps": d, "message_bytes": m, "fastest": "=".join(tied), "tied": len(tied),
                     "lead": rest[0] / best if rest else float("nan")})
    out = pd.DataFrame(rows)
    out.attrs["counts"] = {c: int(sum(c in f.split("=") for f in out["fastest"])) for c in contenders}
    out.attrs["tie_pct"] = tie_pct
    out.attrs["by"] = by
    return out


def fastest_summary(cells):
    """One line for fastest(...): "fastest synthesis.planner per cell (ties within 0.5 %): harvest 27 of 27
    cells, every_step 17, static 11"."""
    counts = sorted(cells.attrs["counts"].items(), key=lambda kv: (-kv[1], kv[0]))
    parts = [f"{c} {n}" + (f" of {len(cells)} cells" if i == 0 else "") for i, (c, n) in enumerate(counts)]
    return f"fastest {cells.attrs['by']} per cell (ties within {cells.attrs['tie_pct']:g} %): " + ", ".join(parts)


def _ratio_ticks(low, high):
    """Colour-bar ticks for speedups from low to high: both ends, 1x and the
    1-2-5 steps between them not crowding an end."""
    import numpy as np

    span = np.log10(high) - np.log10(low)
    candidates = sorted({m * 10.0 ** e for e in range(-6, 7) for m in (1, 2, 5)})
    step_gap = 0.12 * span if span > 0 else 0
    inside = [t for t in candidates if low < t < high and
              min(abs(np.log10(t) - np.log10(low)), abs(np.log10(t) - np.log10(high))) > step_gap]
    decades = [t for t in inside if math.isclose(np.log10(t), round(np.log10(t)))]
    picked = decades if len(decades) >= 2 else inside
    if len(picked) > 6:
        picked = [t for t in picked if math.isclose(np.log10(t), round(np.log10(t)))] or picked[::2]
    return sorted({low, high, *picked} | ({1.0} if low < 1 < high else set()))


@_arguments
def speedup_heatmap(results, prefix=None, by="synthesis.planner", baseline="static", title=None, where=None,
                    tie_pct=TIE_PCT, formats=("png", "pdf")):
    """For each value of `by` against `baseline`: the speedup baseline_time /
    time per (alpha_r, message size) cell, written in the cell, all panels on
    one log colour scale from the smallest speedup to the largest (white at
    1x; cells within `tie_pct` % of 1x hatched as ties); then which value is
    fastest in each cell (fastest(): ties within `tie_pct` % striped with
    every tied value's colour, the lead over the next value written in the
    cell, the legend counting the cells each wins or ties).
    `where`: {column: value} to cut a sweep that varies more keys."""
    import numpy as np
    from matplotlib import colormaps
    from matplotlib.colors import ListedColormap, LogNorm
    from matplotlib.legend_handler import HandlerTuple
    from matplotlib.patches import Patch, Rectangle

    df, by, time, cut = _cells(results, by, baseline, where, "speedup_heatmap")
    cells = fastest(df, by=by, tie_pct=tie_pct)
    plt = pyplot()
    delays = sorted({k[1] for k in time})
    messages = sorted({k[2] for k in time})
    contenders = sorted({k[0] for k in time})
    others = [c for c in contenders if c != baseline]
    grids = []
    for other in others:
        grid = np.full((len(messages), len(delays)), np.nan)
        for i, m in enumerate(messages):
            for j, d in enumerate(delays):
                if (baseline, d, m) in time and (other, d, m) in time:
                    grid[i, j] = time[(baseline, d, m)] / time[(other, d, m)]
        grids.append(grid)
    finite = np.concatenate([g[np.isfinite(g)] for g in grids]) if grids else np.array([])
    low = min(float(finite.min()), 1.0) if finite.size else 0.5
    high = max(float(finite.max()), 1.0) if finite.size else 2.0
    if high / low < 1.02:
        low, high = low / 1.01, high * 1.01
    # The bar spans the data, no more (log scale): white at 1x, red down to the smallest speedup, blue up to the
    # largest, each side reaching its full colour at its end.
    at_one = math.log(1 / low) / math.log(high / low)
    x = np.linspace(0, 1, 256)
    shade = np.where(x < at_one, 0.5 * x / max(at_one, 1e-9), 0.5 + 0.5 * (x - at_one) / max(1 - at_one, 1e-9))
    cmap = ListedColormap(colormaps["RdBu"](np.clip(shade, 0, 1)))
    norm = LogNorm(low, high)
    # One row of panels up to three, else two rows (four panels: 2 x 2), so the cells stay readable.
    total = len(others) + 1
    ncols = total if total <= 3 else math.ceil(total / 2) if total <= 6 else 3
    nrows = math.ceil(total / ncols)
    fig, grid_axes = plt.subplots(nrows, ncols, figsize=(5.3 * ncols + 0.8, 4.4 * nrows + 0.4), squeeze=False,
                                  layout="constrained")
    flat = [ax for row in grid_axes for ax in row]
    for ax in flat[total:]:
        ax.set_visible(False)
    panels = flat[:total]
    # A value at 7 points is about 4.2 points wide a character: across its cell if it fits, else along it.
    longest = max([len(fmt_cell(r)) for g in grids for r in g[np.isfinite(g)]] + [5])
    need, cell_w, cell_h = 4.2 * longest, 4.1 * 72 / len(delays), 3.2 * 72 / len(messages)
    font, rotation = (7, 0) if cell_w >= need else (7, 90) if cell_h >= need else (max(4.5, 7 * cell_w / need), 0)
    tie_hatch = "////"
    image = None
    for ax, other, grid in zip(panels, others, grids):
        image = ax.imshow(grid, origin="lower", aspect="auto", cmap=cmap, norm=norm)
        for i in range(len(messages)):
            for j in range(len(delays)):
                r = grid[i, j]
                if not np.isfinite(r):
                    continue
                if abs(r - 1) <= tie_pct / 100:
                    ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch=tie_hatch, edgecolor="0.6",
                                           linewidth=0))
                rgb = cmap(norm(r))[:3]
                dark = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] < 0.5
                ax.text(j, i, fmt_cell(r), ha="center", va="center", fontsize=font, rotation=rotation,
                        color="white" if dark else "black")
        ax.set_title(f"{other} vs {baseline}", fontsize=10)
    if image is not None:
        ticks = _ratio_ticks(low, high)
        # One bar for a row of panels; on two rows one per panel, each the same scale.
        for bar_axes in [panels[:len(others)]] if nrows == 1 else [[ax] for ax in panels[:len(others)]]:
            bar = fig.colorbar(image, ax=bar_axes, ticks=ticks, shrink=0.95, pad=0.02)
            bar.set_label(f"speedup over {baseline}" + (" (one scale for every panel)" if len(others) > 1 else ""),
                          fontsize=8)
            bar.ax.set_yticklabels([fmt_cell(t) if t in (low, high) else fmt_ratio(t) for t in ticks], fontsize=8)
            bar.ax.minorticks_off()
    # The fastest contender per cell: every tied contender's colour as a stripe, the lead over the next written.
    last = panels[-1]
    palette = _group_colors(contenders)
    where_of = {(row.message_bytes, row.reconfig_delay_ps): row for row in cells.itertuples()}
    for i, m in enumerate(messages):
        for j, d in enumerate(delays):
            row = where_of.get((m, d))
            if row is None:
                continue
            tied = sorted(row.fastest.split("="), key=contenders.index)
            for k, c in enumerate(tied):
                last.add_patch(Rectangle((j - 0.5 + k / len(tied), i - 0.5), 1 / len(tied), 1, facecolor=palette[c],
                                         edgecolor="none"))
            last.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="white", linewidth=1.5))
            text = "all tie" if math.isnan(row.lead) else fmt_cell(row.lead)
            last.text(j, i, text, ha="center", va="center", fontsize=font, color="black", rotation=rotation,
                      bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})
    last.set_xlim(-0.5, len(delays) - 0.5)
    last.set_ylim(-0.5, len(messages) - 0.5)
    counts = cells.attrs["counts"]
    last.legend(handles=[Patch(facecolor=palette[c]) for c in contenders] +
                [tuple(Patch(facecolor=palette[c]) for c in contenders[:2])],
                labels=[f"{c}: {counts[c]} of {len(cells)}" for c in contenders] + ["stripes: a tie"],
                handler_map={tuple: HandlerTuple(ndivide=None, pad=0)}, fontsize=8,
                **({"loc": "upper left", "bbox_to_anchor": (1.02, 1.0)} if nrows == 1 else
                   {"loc": "upper center", "bbox_to_anchor": (0.5, -0.3), "ncols": 2}),
                title=f"fastest, or tied\nwithin {tie_pct:g} %, in cells", title_fontsize=8)
    last.set_title(f"fastest {by.split('.')[-1]}; number: its lead over the next", fontsize=10)
    for ax in panels:
        step_x, step_y = max(1, len(delays) // 12), max(1, len(messages) // 8)
        ax.set_xticks(range(0, len(delays), step_x))
        ax.set_xticklabels([fmt_time(delays[j]) for j in range(0, len(delays), step_x)], rotation=45, fontsize=8)
        ax.set_yticks(range(0, len(messages), step_y))
        ax.set_yticklabels([fmt_bytes(messages[i]) for i in range(0, len(messages), step_y)], fontsize=8)
        ax.set_xlabel("reconfiguration delay alpha_r")
        ax.set_ylabel("message size")
    fig.suptitle((title + "\n" if title else "") + fabric_title(df) + (f"\n(only {cut})" if cut else ""),
                 fontsize=10)
    fig.supxlabel(f"Cells: the speedup over {baseline} (baseline time / time); hatched: within {tie_pct:g} % of "
                  f"1x, a tie. Fastest: every {by.split('.')[-1]} within {tie_pct:g} % of the cell's fastest time, "
                  "striped when several.", fontsize=8)
    fig.photonsim_summary = fastest_summary(cells)
    return _finish(fig, prefix, formats)


# --- timelines --------------------------------------------------------------------------


def _read_trace(trace, function="timeline"):
    """A --trace file's JSON (or the dict itself), or a ValueError saying
    what the argument must be."""
    expected = "pass the file `photonsim run CONFIG --trace FILE.json` writes (or its dict)"
    if isinstance(trace, dict):
        doc = trace
    elif isinstance(trace, (str, bytes, os.PathLike)):
        path = os.fspath(trace)
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except json.JSONDecodeError as e:
            raise ValueError(f"{function}: trace={path!r} is not JSON ({e.msg} at line {e.lineno} column "
                             f"{e.colno}): {expected}" + ("; a results.csv is drawn by vs_alpha_r, "
                                                         "speedup_heatmap or measured_vs_predicted"
                                                         if path.endswith(".csv") else "")) from None
        except UnicodeDecodeError:
            raise ValueError(f"{function}: trace={path!r} is not a text file: {expected}") from None
    else:
        raise TypeError(f"{function}: trace={type(trace).__name__}: {expected}")
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        shown = "the dict given" if isinstance(trace, dict) else repr(os.fspath(trace))
        raise ValueError(f"{function}: trace={shown} is not a photonsim trace (no traceEvents array): {expected}")
    return doc


@_arguments
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


@_arguments
def graph_timeline(trace, prefix=None, gpus=8, title=None, formats=("png", "pdf")):
    """The training iteration of a task graph's trace (see timeline)."""
    plt = pyplot()
    from matplotlib.patches import Patch

    doc = _read_trace(trace, "graph_timeline")
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


@_arguments
def availability(studies, prefix=None, labels=None, title=None, formats=("png", "pdf")):
    """A month of training under failures (scripts/plots/plot_availability.py):
    for each `photonsim availability ... --format json` study (a dict or its
    path; one, or a list of them, e.g. a reconfigurable fabric and a static
    one, each with its label), the tail of the iteration time per policy
    (1 - CDF, log axes), the goodput per policy against each study's healthy
    rate, and the time lost per cause. The highest goodput over every study
    is named by a rule (the highest mean; a tie names none)."""
    from photonsim._availability import availability_figure, default_label, read_study

    many = studies if isinstance(studies, (list, tuple)) else [studies]
    if not many:
        raise ValueError("availability: studies=[]: give at least one study")
    docs = [read_study(s, "availability") for s in many]
    given = labels is not None
    if not given:
        labels = [default_label(d) for d in docs]
    elif isinstance(labels, str) or len(labels) != len(docs):
        raise ValueError(f"availability: labels={labels!r}: give one label per study ({len(docs)})")
    if len(set(labels)) != len(labels):
        named = f"labels={list(labels)!r}" if given else \
            f"the studies' configs and --set overrides ({', '.join(labels)})"
        raise ValueError(f"availability: {named}: each study needs its own label; give labels=[...]")
    days = sorted({d["days"] for d in docs})
    if len(days) > 1:
        raise ValueError(f"availability: the studies ran for {days} days: compare studies of the same length")
    return _finish(availability_figure(docs, list(labels), title, pyplot()), prefix, formats)
