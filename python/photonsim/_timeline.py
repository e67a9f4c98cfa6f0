"""The Gantt chart of a collective's --trace (photonsim.plots.timeline):
a top row with the run's steps (reconfiguration hatched, start-up light),
then one row per egress port of the first GPUs: busy spans coloured by
step, dark (reconfiguring) spans grey and hatched."""


def collective_timeline(trace, max_gpus, title, plt):
    """The figure for a collective's trace document (a dict)."""
    from matplotlib.patches import Patch

    other = trace.get("otherData", {})
    process = {}  # pid -> name
    thread = {}  # (pid, tid) -> name
    spans = {}  # (pid, tid) -> [event]
    for e in trace["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            process[e["pid"]] = e["args"]["name"]
        elif e.get("ph") == "M" and e.get("name") == "thread_name":
            thread[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e.get("ph") == "X":
            spans.setdefault((e["pid"], e["tid"]), []).append(e)

    steps_pid = next((pid for pid, name in process.items() if name == "steps"), None)
    gpus = sorted((int(name.split()[1]), pid) for pid, name in process.items() if name.startswith("GPU "))
    shown = gpus[:max_gpus]
    rows = []  # (label, pid, tid), top to bottom below the steps row
    for gpu, pid in shown:
        ports = sorted((int(name.split()[1]), tid) for (p, tid), name in thread.items() if p == pid and name.startswith("port "))
        rows.extend((f"GPU {gpu} port {port}" if len(ports) > 1 else f"GPU {gpu}", pid, tid) for port, tid in ports)

    end = max((e["ts"] + e["dur"] for events in spans.values() for e in events), default=0.0)
    scale, unit = (1e-3, "ms") if end >= 1e4 else (1.0, "us")
    colours = plt.get_cmap("tab20").colors
    step_count = int(other.get("steps", 0)) or 1 + max(
        (e.get("args", {}).get("step", 0) for events in spans.values() for e in events), default=0)


    def colour(step):
        return colours[(2 * step) % 20 if step < 10 else (2 * step + 1) % 20]


    height = 0.8
    figure_height = min(2.0 + 0.28 * (len(rows) + 1), 40)
    fig, ax = plt.subplots(figsize=(12, figure_height))


    def draw(y, events, dark_names, light_names=()):
        """Busy spans coloured by step; dark ones grey and hatched; light ones faded."""
        busy, busy_colours = [], []
        dark, light = [], []
        for e in events:
            bar = (e["ts"] * scale, e["dur"] * scale)
            name = e["name"]
            if any(name.startswith(n) for n in dark_names):
                dark.append(bar)
            elif any(name.startswith(n) for n in light_names):
                light.append(bar)
            else:
                busy.append(bar)
                busy_colours.append(colour(e.get("args", {}).get("step", 0)))
        # One collection per row and kind: thousands of small ones make matplotlib crawl.
        if busy:
            ax.broken_barh(busy, (y - height / 2, height), facecolors=busy_colours, linewidth=0)
        if light:
            ax.broken_barh(light, (y - height / 2, height), facecolors="white", edgecolor="0.5", alpha=0.6, linewidth=0.3)
        if dark:
            ax.broken_barh(dark, (y - height / 2, height), facecolors="0.75", edgecolor="0.35", hatch="///",
                           linewidth=0.3)


    labels = []
    if steps_pid is not None:
        step_events = [e for (pid, _), events in spans.items() if pid == steps_pid for e in events]
        whole = [e for e in step_events if e["name"].startswith("step ")]
        parts = [e for e in step_events if not e["name"].startswith("step ")]
        draw(0, whole, ())
        draw(0, parts, ("reconfiguration",), ("start-up",))
        labels.append("steps")
    for i, (label, pid, tid) in enumerate(rows, start=1):
        draw(i, spans.get((pid, tid), []), ("dark",))
        labels.append(label)

    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8 if len(labels) < 40 else 6)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_xlim(0, end * scale if end > 0 else 1)
    ax.set_xlabel(f"time ({unit})")
    ax.grid(axis="x", color="0.9", linewidth=0.5)
    ax.set_axisbelow(True)

    if title is None:
        title = " / ".join(str(other[k]) for k in ("collective", "algorithm") if k in other)
        if "gpus" in other:
            title += f" on {other['gpus']} GPUs"
        if other.get("fidelity"):
            title += f" ({other['fidelity']})"
    notes = []
    total_gpus = int(other.get("gpus", len(gpus)))
    if gpus and total_gpus > len(shown):
        notes.append(f"ports of the first {len(shown)} of {total_gpus} GPUs")
    aggregation = str(other.get("photonsim_aggregation", "none"))
    if not aggregation.startswith("none"):
        notes.append("port spans aggregated per step (see otherData)")
    if not gpus and steps_pid is not None:
        notes.append("steps only: no packet run")
    ax.set_title(title + ("\n" + "; ".join(notes) if notes else ""), fontsize=10)

    legend = [Patch(facecolor=colour(s), label=f"step {s}") for s in range(min(step_count, 10))]
    if step_count > 10:
        legend.append(Patch(facecolor="white", edgecolor="0.5", label="(colours repeat)"))
    legend.append(Patch(facecolor="0.75", edgecolor="0.35", hatch="///", label="dark (reconfiguration)"))
    legend.append(Patch(facecolor="white", edgecolor="0.5", label="start-up (steps row)"))
    ax.legend(handles=legend, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    fig.tight_layout()
    fig.photonsim_summary = (f"{len(rows)} port rows of {len(shown)} GPUs, "
                             f"{sum(map(len, spans.values()))} spans")
    return fig
