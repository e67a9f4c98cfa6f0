"""The figure of one or more `photonsim availability --format json` studies
(photonsim.plots.availability): the iteration time's tail per policy, the
goodput per policy and the time lost per cause. Studies of one config with
other --set overrides (a reconfigurable fabric and a static one) share the
axes, so their goodput compares in absolute iterations per hour."""

import json
import os

KEYS = ("policies", "healthy_per_hour", "days", "seeds", "config")
POLICY_KEYS = ("policy", "goodput_per_hour", "goodput_pct", "cdf", "lost_ps")
CAUSES = ("detection", "reconfiguration", "degraded", "waiting", "flaps", "watchdog", "restart", "rollback")
PS_PER_S = 1e12


def read_study(study, function):
    """A study as a dict, from a dict or the path of its JSON; refuses what is not one."""
    expected = "a dict or the path of `photonsim availability ... --format json`'s output"
    if isinstance(study, dict):
        doc, shown = study, "the dict given"
    elif isinstance(study, (str, os.PathLike)):
        shown = repr(os.fspath(study))
        try:
            with open(study, encoding="utf-8") as f:
                doc = json.load(f)
        except FileNotFoundError:
            raise ValueError(f"{function}: study={shown}: no such file: {expected}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ValueError(f"{function}: study={shown} is not JSON ({e}): {expected}") from None
    else:
        raise TypeError(f"{function}: study={type(study).__name__}: {expected}")
    missing = [k for k in KEYS if not isinstance(doc, dict) or k not in doc]
    if missing:
        raise ValueError(f"{function}: study={shown} lacks {', '.join(missing)}: {expected}")
    for p in doc["policies"]:
        lacking = [k for k in POLICY_KEYS if k not in p]
        if lacking:
            raise ValueError(f"{function}: study={shown}: a policy lacks {', '.join(lacking)}: {expected}")
    return doc


def default_label(doc):
    sets = doc.get("sets") or []
    return os.path.basename(doc["config"]) + "".join(f" {s}" for s in sets)


def highest(bars):
    """The (label, policy) with the highest mean goodput over every study, or None on a tie."""
    if not bars:
        return None
    top = max(b[2] for b in bars)
    leaders = [b for b in bars if b[2] == top]
    return leaders[0][:2] if len(leaders) == 1 else None


def _rate_unit(largest):
    """The axis unit for rates up to `largest` per hour: a word and its scale."""
    for word, scale in (("million ", 1e6), ("thousand ", 1e3)):
        if largest >= 10 * scale:
            return word, scale
    return "", 1.0


def _seconds(s):
    for unit, scale in (("h", 3600.0), ("min", 60.0), ("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return "0 s" if s == 0 else f"{s:.3g} s"


def availability_figure(docs, labels, title, plt):
    """The figure for the studies (dicts) with their labels."""
    fig, (tail, goodput, lost) = plt.subplots(1, 3, figsize=(16, 4.6), gridspec_kw={"width_ratios": [1.2, 1, 1]})
    several = len(docs) > 1
    bars = []  # (label, policy, goodput per hour, % of its healthy, lost seconds per cause)
    for doc, label in zip(docs, labels):
        for p in doc["policies"]:
            name = f"{label}, {p['policy']}" if several else p["policy"]
            # P(longer than x) holds from each point to the next; the longest iteration ends the last step.
            points = [(x / PS_PER_S, 1 - float(f)) for x, f in p["cdf"] if float(f) < 1]
            if points:
                end = p["cdf"][-1][0] / PS_PER_S
                xs, ys = [x for x, _ in points] + [end], [y for _, y in points] + [points[-1][1]]
                tail.step(xs, ys, where="post", marker=".", markevery=list(range(len(points))), label=name)
            bars.append((label, p["policy"], float(p["goodput_per_hour"]), float(p["goodput_pct"]),
                         [float(p["lost_ps"].get(c, 0)) / PS_PER_S for c in CAUSES]))
    tail.set_xscale("log")
    tail.set_yscale("log")
    tail.set_xlabel("iteration time (s)")
    tail.set_ylabel("fraction of iterations longer (1 - CDF)")
    tail.set_title("the iteration time's tail")
    tail.grid(True, which="major", alpha=0.3)
    if tail.get_legend_handles_labels()[0]:
        tail.legend(fontsize=7)

    names = [f"{b[0]}, {b[1]}" if several else b[1] for b in bars]
    ys = list(range(len(bars)))[::-1]
    largest = max([b[2] for b in bars] + [float(d["healthy_per_hour"]) for d in docs])
    unit, scale = _rate_unit(largest)
    goodput.barh(ys, [b[2] / scale for b in bars], color="#8fb3d9")
    for y, b in zip(ys, bars):
        goodput.text(b[2] / scale, y, f" {b[2]:,.0f}/h ({b[3]:.2f} %)", va="center", fontsize=7)
    for doc in docs:
        goodput.axvline(float(doc["healthy_per_hour"]) / scale, color="black", linestyle="--", linewidth=0.8)
    goodput.set_yticks(ys)
    goodput.set_yticklabels(names, fontsize=7)
    goodput.set_xlim(0, 1.5 * largest / scale)
    goodput.set_xlabel(f"goodput ({unit}useful iterations per hour; dashed: healthy)")
    best = highest(bars)
    shown = (f"{best[0]}, {best[1]}" if several else best[1]) if best else "none (a tie)"
    goodput.set_title(f"highest goodput: {shown}")

    colours = plt.get_cmap("tab10").colors
    left = [0.0] * len(bars)
    for c, cause in enumerate(CAUSES):
        widths = [b[4][c] for b in bars]
        if any(widths):
            lost.barh(ys, widths, left=left, color=colours[c % 10], label=cause)
            left = [a + w for a, w in zip(left, widths)]
    for y, total in zip(ys, left):
        lost.text(total, y, f" {_seconds(total)}", va="center", fontsize=7)
    lost.set_xlim(0, 1.3 * max(left + [1e-9]))
    lost.set_yticks(ys)
    lost.set_yticklabels(names, fontsize=7)
    lost.set_xlabel(f"time lost per run of {docs[0]['days']} days (s, mean over seeds)")
    lost.set_title("time lost, by cause")
    if lost.get_legend_handles_labels()[0]:
        lost.legend(fontsize=7)
    first = docs[0]
    fig.suptitle(title or f"{os.path.basename(first['config'])}: {first['days']} days x {first['seeds']} seeds")
    fig.tight_layout()
    lines = [f"{name}: {b[2]:,.0f} useful iterations/h ({b[3]:.2f} % of healthy), {_seconds(sum(b[4]))} lost "
             f"per {docs[0]['days']} days" for name, b in zip(names, bars)]
    fig.photonsim_summary = "\n".join(lines + [f"highest goodput: {shown}"])
    return fig
