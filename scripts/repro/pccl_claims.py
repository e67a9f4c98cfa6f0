"""PCCL's claims beyond its headline numbers (scripts/repro/claims.py pccl
calls add_rows): Fig. 7's fit of each algorithm to each start topology,
Fig. 8's congestion and dilation breakdown, Figs. 17 and 18 at 64 and 32
GPUs, Swing's bounded congestion, Fig. 5's congested RHD rounds, the
bandwidth optimality and chunk counts of Secs. 3 and 7, Sec. 4.2's round
splitting, PCCL never slower than its two placements, and the hardware
values it takes as inputs; physical() tabulates Fig. 19 (claims.py
pccl_physical). Every row's value
is measured here or read from a sweep `scripts/reproduce pccl` wrote.

Congestion and dilation come from each round's Eq. 1 terms in `photonsim run
--format json`: propagation = alpha x dilation, transmission = beta x
congestion x the round's bytes per transfer (equal within a round in these
collectives). Standard library only.
"""
import collections
import csv
import os
import sys

TOLERANCE_PCT = 5.0
RS = "configs/pccl_paper/rhd_reducescatter_128.yaml"
RING = "{type: ring, bidirectional: true}"
# Start topologies per n (Fig. 12's shapes), named as the paper's figures name them.
SHAPES = {32: ("4x8", "2x4x4"), 64: ("8x8", "4x4x4"), 128: ("8x16", "4x4x8")}


def starts(n):
    d2, d3 = SHAPES[n]
    return {"ring": RING, "2D torus": f"{{type: torus, dims: {d2}}}", "3D torus": f"{{type: torus, dims: {d3}}}",
            "2D grid": f"{{type: grid, dims: {d2}}}", "3D grid": f"{{type: grid, dims: {d3}}}"}


def algorithms(n):
    d2, d3 = SHAPES[n]
    return {"ring": "ring", "rhd": "rhd", "swing": "swing", "2D bucket": f"{{type: bucket, dims: {d2}}}",
            "3D bucket": f"{{type: bucket, dims: {d3}}}"}


# The algorithm with no congestion and no dilation on a start topology (Fig. 12's "ideal algorithms").
IDEAL = {"ring": "ring", "2D torus": "2D bucket", "3D torus": "3D bucket"}
BUFFERS = ("1MB", "4MB", "16MB", "64MB", "256MB", "1GB")


def megabytes(message):
    return int(message[:-2]) * (1000 if message.endswith("GB") else 1)


def sota_cells(path, n, collective, scope="circuit"):
    """{(start name, buffer): {(algorithm name, planner): measured_ps}} from a sota sweep's results.csv."""
    if not os.path.exists(path):
        sys.exit(f"pccl_claims.py: {path} is missing: run scripts/reproduce pccl first")
    start_of = {v: k for k, v in starts(n).items()}
    algorithm_of = {v: k for k, v in algorithms(n).items()}
    cells = collections.defaultdict(dict)
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r.get("fabric.bandwidth_scope", scope) != scope or r["collective"] != collective:
                continue
            key = (start_of[r["synthesis.topology"]], r["workload.message"])
            cells[key][(algorithm_of[r["synthesis.algorithm"]], r["synthesis.planner"])] = int(r["measured_ps"])
    return cells


def best_static(cell):
    """(time, name) of the fastest baseline never reconfiguring."""
    return min((t, a) for (a, p), t in cell.items() if p == "static")


def congestion_dilation(run):
    """[(congestion, dilation)] per round, from the round's predicted Eq. 1 terms."""
    beta = 8e12 / run["bandwidth_bps"]  # ps per byte
    out = []
    for step in run["per_step"]:
        per_transfer = step["bytes"] / step["transfers"]
        out.append((round(step["predicted"]["transmission_ps"] / (beta * per_transfer), 2),
                    round(step["predicted"]["propagation_ps"] / run["latency_ps"], 2)))
    return out


def overhead_share(run):
    """The share of a run's predicted time that is congestion and dilation: what each round costs beyond
    alpha + beta x its bytes per transfer (and its reconfiguration)."""
    beta = 8e12 / run["bandwidth_bps"]
    total = extra = 0
    for step in run["per_step"]:
        p = step["predicted"]
        ideal = run["latency_ps"] + beta * step["bytes"] / step["transfers"]
        cost = p["propagation_ps"] + p["transmission_ps"]
        total += cost + p["reconfiguration_ps"] + p["startup_ps"]
        extra += cost - ideal
    return extra / total


def span(values):
    return f"{min(values):.2f}-{max(values):.2f}x"


def fit_to_starts(cells, n, sweep, photonsim_run, collective):
    """Shared by Fig. 7 (128 GPUs) and Figs. 17-18: per start, the ideal algorithm's time and the fastest
    baseline's over PCCL's; the 3D torus's shortfall measured against PCCL given 3D bucket as its input."""
    names = starts(n)
    ideal = {s: [cells[(s, m)][(IDEAL[s], "static")] / cells[(s, m)][("rhd", "pccl")] for m in BUFFERS]
             for s in IDEAL}
    best = {s: [best_static(cells[(s, m)])[0] / cells[(s, m)][("rhd", "pccl")] for m in BUFFERS] for s in names}
    short = [(g, s, m) for s in names for m, g in zip(BUFFERS, best[s]) if g < 1 - TOLERANCE_PCT / 100]
    # PCCL given the start's own algorithm keeps its topology: measured against that algorithm never reconfiguring.
    own = {(s, m): cells[(s, m)][(IDEAL[s], "pccl")] / cells[(s, m)][(IDEAL[s], "static")]
           for _, s, m in short if s in IDEAL}
    explained = bool(short) and len(own) == len(short) and all(abs(v - 1) <= 0.01 for v in own.values())
    text = {s: span(v) for s, v in ideal.items()}
    why = ""
    if short:
        worst = min(short)
        _, s, m = worst
        shape = {"2D torus": f" {SHAPES[n][0]}", "3D torus": f" {SHAPES[n][1]}"}.get(s, "")
        topology = names[s]
        runs = {}
        for label, algorithm, planner in (("pccl", "rhd", "pccl"), ("ideal", algorithms(n)[IDEAL[s]], "static")):
            runs[label], command = photonsim_run(RS, f"fabric.gpus={n}", f"workload.collective={collective}",
                                                 f"synthesis.topology={topology}", f"workload.message={m}",
                                                 f"synthesis.algorithm={algorithm}", f"synthesis.planner={planner}")
        terms = {label: {k: sum(st["predicted"][k] for st in run["per_step"]) / 1e6
                         for k in ("reconfiguration_ps", "propagation_ps", "transmission_ps")}
                 for label, run in runs.items()}
        sorted_short = sorted({m_ for _, s_, m_ in short if s_ == s}, key=megabytes)
        why = (f"PCCL plans RHD (the paper's input) and RHD cannot match {IDEAL[s]} on the {s} between "
               f"{sorted_short[0]} and {sorted_short[-1]} "
               f"(at worst {worst[0]:.2f}x, {m}): {IDEAL[s]}{shape} takes {runs['ideal']['steps']} rounds of one hop "
               f"each: {terms['ideal']['propagation_ps']:.0f} us of alpha and {terms['ideal']['transmission_ps']:.1f} "
               f"us of transmission (beta b (N - 1) / N a reduce-scatter, twice that an AllReduce: the least any can "
               f"send), where PCCL's "
               f"best RHD plan pays {terms['pccl']['propagation_ps']:.0f} us of alpha and dilation, "
               f"{terms['pccl']['transmission_ps']:.1f} us of transmission (congestion in the rounds it keeps the "
               f"torus for) and {terms['pccl']['reconfiguration_ps']:.0f} us for {runs['pccl']['reconfigurations']} "
               f"reconfigurations (`{command}`, and with synthesis.algorithm=rhd --set synthesis.planner=pccl). "
               f"Given {IDEAL[s]} as its input PCCL keeps the torus and measures "
               + ", ".join(f"{v:.3f}x" for v in own.values()) + f" of {IDEAL[s]} never reconfiguring in those "
               f"cells ({sweep}: synthesis.algorithm={algorithms(n)[IDEAL[s]]}, synthesis.planner=pccl)")
    return ideal, best, short, explained, text, why


def figure7(results, c, run_all, photonsim_run):
    sweep = f"{run_all} (sota/: configs/sweeps/pccl_sota.yaml)"
    cells = sota_cells(os.path.join(results, "sota", "results.csv"), 128, "reducescatter")
    ideal, best, short, explained, text, why = fit_to_starts(cells, 128, sweep, photonsim_run,
                                                            "reducescatter")
    # "The only system that is optimal on all the topologies": every baseline, at every buffer, is more than
    # 5 % slower than the fastest on some start.
    fastest = {k: min(v.values()) for k, v in cells.items()}
    off = {a: min(max(cells[(s, m)][(a, "static")] / fastest[(s, m)] for s in starts(128)) for m in BUFFERS)
           for a in algorithms(128)}
    only = all(v > 1 + TOLERANCE_PCT / 100 for v in off.values())
    c.check("Fig. 7: PCCL matches the ideal algorithm for the topology, the only system optimal on all the "
            "topologies (reduce-scatter, 128 GPUs, 1 MB-1 GB, r = 5 us)", "Sec. 5, Fig. 7",
            "matches ring / 2D bucket / 3D bucket on their own topologies",
            "ideal algorithm's time over PCCL's: " + "; ".join(f"{s} {t}" for s, t in text.items())
            + "; every baseline at every buffer at least "
            + ", ".join(f"{a} {v:.2f}x" for a, v in off.items()) + " the fastest on some start",
            not short and only, sweep, why)
    # "PCCL outperforms several baselines, especially at larger buffer sizes": over the best baseline, per grid.
    grows = {s: best[s] for s in ("2D grid", "3D grid")}
    rising = all(all(b >= a - 0.005 for a, b in zip(v, v[1:])) for v in grows.values())
    c.check("Fig. 7: PCCL's gain over the baselines grows with the buffer (reduce-scatter, 128 GPUs)",
            "Sec. 5, Fig. 7", "especially at larger buffer sizes",
            "over the fastest baseline, 1 MB to 1 GB: " + "; ".join(
                f"{s} " + ", ".join(f"{g:.2f}x" for g in v) for s, v in grows.items()),
            rising, sweep,
            "on the grids, where no algorithm fits; on the ring the gain falls with the buffer instead ("
            + ", ".join(f"{g:.2f}x" for g in best["ring"]) + "): there it is alpha's, log2 N (alpha + r) against "
            "the ring algorithm's (N - 1) alpha, which a larger buffer dilutes")


def fixed_topologies(results, c, run_all):
    """Sec. 1: 'fixed topologies can force suboptimal performance for different collective algorithms degrading
    their communication time by 2-4x due to congestion and dilation': each algorithm never reconfiguring over the
    same algorithm planned by PCCL, on the start topologies it does not fit, at Fig. 8's 256 MB."""
    cells = sota_cells(os.path.join(results, "sota", "results.csv"), 128, "reducescatter")
    fits = set(IDEAL.items())
    pairs = {(s, a): cells[(s, "256MB")][(a, "static")] / cells[(s, "256MB")][(a, "pccl")]
             for s in starts(128) for a in algorithms(128) if (s, a) not in fits}
    ordered = sorted(pairs.values())
    median = (ordered[len(ordered) // 2] + ordered[(len(ordered) - 1) // 2]) / 2
    inside = sum(2 <= v <= 4 for v in ordered)
    above = sorted(((v, s, a) for (s, a), v in pairs.items() if v > 4), reverse=True)
    c.check("Sec. 1: fixed topologies degrade collective algorithms' communication by 2-4x through congestion and "
            "dilation (reduce-scatter, 128 GPUs, 256 MB)", "Sec. 1", "2-4x",
            f"median {median:.2f}x over the {len(pairs)} pairs of algorithm and start topology that do not fit "
            f"({sum(v < 2 for v in ordered)} below 2x, {inside} inside 2-4x, {len(above)} above; "
            f"{min(ordered):.2f}-{max(ordered):.2f}x in all)",
            2 <= median <= 4, f"{run_all} (sota/: configs/sweeps/pccl_sota.yaml)",
            "each algorithm never reconfiguring over the same algorithm planned by PCCL from the same start; above "
            "4x: " + ", ".join(f"{a} on the {s} {v:.1f}x" for v, s, a in above))


def figure8(results, c, run_all, photonsim_run):
    """Fig. 8 (256 MB, r = 5 us): PCCL's rounds free of congestion and dilation on every start; 3D bucket free
    of both on its own torus and worse elsewhere; every baseline paying for both off its ideal topology."""
    names, algs = starts(128), algorithms(128)
    cells = sota_cells(os.path.join(results, "sota", "results.csv"), 128, "reducescatter")
    clean, counts = [], []
    for s, topology in names.items():
        run, command = photonsim_run(RS, f"synthesis.topology={topology}", "workload.message=256MB")
        rounds = congestion_dilation(run)
        clean.append(all(cd == (1, 1) for cd in rounds))
        counts.append(run["reconfigurations"])
    best = {s: best_static(cells[(s, "256MB")])[0] / cells[(s, "256MB")][("rhd", "pccl")] for s in names}
    holds = all(clean) and min(best.values()) >= 1 - TOLERANCE_PCT / 100
    c.check("Fig. 8: PCCL reaches the best possible performance on all topologies, adapting the topology to "
            "every round and so eliminating congestion and dilation (256 MB, 128 GPUs, r = 5 us)",
            "Sec. 5, Fig. 8", "best on all five, no congestion or dilation",
            f"{sum(clean)} of 5 starts with congestion 1 and dilation 1 in every round ({min(counts)}-{max(counts)} "
            "reconfigurations); fastest baseline over PCCL: " + ", ".join(f"{s} {g:.2f}x" for s, g in best.items()),
            holds,
            f"{command.replace(names['3D grid'], 'START')} for each START; {run_all} (sota/)")
    # 3D bucket: optimal on the 3D torus, significantly worse elsewhere.
    run, bucket_command = photonsim_run(RS, f"synthesis.topology={names['3D torus']}", "workload.message=256MB",
                                        f"synthesis.algorithm={algs['3D bucket']}", "synthesis.planner=static")
    rounds = congestion_dilation(run)
    on_torus = cells[("3D torus", "256MB")][("3D bucket", "static")]
    elsewhere = {s: cells[(s, "256MB")][("3D bucket", "static")] / on_torus for s in names if s != "3D torus"}
    exact = all(cd == (1, 1) for cd in rounds)
    c.count("Sec. 5: 3D bucket is optimal on the 3D torus, with no congestion or dilation, and significantly worse "
            "on the other topologies (256 MB, 128 GPUs)", "Sec. 5, Fig. 8", "congestion 1, dilation 1; worse elsewhere",
            f"congestion and dilation 1 in all {len(rounds)} rounds on 4x4x8; elsewhere "
            + ", ".join(f"{s} {g:.2f}x" for s, g in elsewhere.items()) + " its time on the torus",
            True, bool(exact and min(elsewhere.values()) > 1 + TOLERANCE_PCT / 100),
            f"{bucket_command}; {run_all} (sota/)")
    # Every baseline off its ideal topology pays for congestion and dilation.
    share = {}
    for s, topology in names.items():
        for a, algorithm in algs.items():
            run, _ = photonsim_run(RS, f"synthesis.topology={topology}", "workload.message=256MB",
                                   f"synthesis.algorithm={algorithm}", "synthesis.planner=static")
            share[(s, a)] = overhead_share(run)
    fits = {(s, a) for s, a in IDEAL.items()}
    off = {k: v for k, v in share.items() if k not in fits}
    low = min(off, key=off.get)
    on = max(share[k] for k in fits)
    c.check("Fig. 8: all baseline algorithms incur significant congestion and dilation costs when the topology is "
            "not an ideal fit (256 MB, 128 GPUs)", "Sec. 5, Fig. 8", "significant off the ideal fit",
            f"congestion and dilation {100 * min(off.values()):.0f}-{100 * max(off.values()):.0f} % of the time in "
            f"all {len(off)} pairs of baseline and start that do not fit ({low[1]} on the {low[0]} least); "
            f"{100 * on:.0f} % on the 3 that fit",
            min(off.values()) >= 0.1 and on < 0.001,
            f"build/photonsim run {RS} --set workload.message=256MB --set synthesis.topology=START --set "
            "synthesis.algorithm=ALGORITHM --set synthesis.planner=static --format json (each round's predicted "
            "propagation and transmission)",
            "the share of each run's time spent beyond alpha + beta x the round's bytes per transfer: dilation "
            "multiplies alpha, congestion beta (Eq. 1)")


def figures17_18(results, c, run_all, photonsim_run):
    rows = {}
    whys = []
    for n, folder, figure in ((64, "sota_64", "17"), (32, "sota_32", "18"), (128, "sota", "7's AllReduce")):
        sweep = f"{run_all} ({folder}/: configs/sweeps/pccl_{folder}.yaml)"
        cells = sota_cells(os.path.join(results, folder, "results.csv"), n, "allreduce")
        ideal, best, short, explained, text, why = fit_to_starts(cells, n, sweep, photonsim_run,
                                                                "allreduce")
        # Outperforms where no algorithm fits (the ring's algorithm is linear in alpha): never slower than the
        # fastest baseline, faster at some buffer; a tie is PCCL keeping the start topology for the same rounds.
        free = ("ring", "2D grid", "3D grid")
        outperforms = all(min(best[s]) >= 0.995 and max(best[s]) > 1 for s in free)
        ties = [f"{s} at {m}" for s in free for m, g in zip(BUFFERS, best[s]) if g < 1.005]
        rows[n] = (best, short, explained, outperforms)
        if ties:
            whys.append(f"n = {n}: PCCL keeps the start topology and ties the fastest baseline on the "
                        + ", ".join(ties) + ".")
        if why:
            whys.append(f"n = {n}: {why}")
    ok = all(not rows[n][1] and rows[n][3] for n in (64, 32))  # 128 is shown; Fig. 7 checks it
    c.check("Figs. 17, 18: at 64 and 32 GPUs the trends of 128 hold, PCCL outperforming all baselines (AllReduce, "
            "1 MB-1 GB, r = 5 us)", "Sec. 5, Figs. 17-18", "outperforms all baselines",
            "fastest baseline over PCCL per start, 1 MB-1 GB: " + "; ".join(
                f"n = {n}: " + ", ".join(f"{s} {span(v)}" for s, v in rows[n][0].items()) for n in (64, 32, 128)),
            ok,
            f"{run_all} (sota_64/: configs/sweeps/pccl_sota_64.yaml, sota_32/: configs/sweeps/pccl_sota_32.yaml, "
            "sota/ for 128)",
            "on the ring and both grids PCCL is never slower than the fastest baseline and faster at most buffers; "
            "on the tori it matches their ideal algorithm or, at 128 GPUs, falls short of it as in Fig. 7's row. "
            + " ".join(whys))


def swing_congestion(results, c, run_all, photonsim_run):
    """Sec. 6: Swing's 'bounded congestion of 19% and 3% on the 2D and 3D torus' as a congestion factor (the
    paper's c: bandwidth / c): Swing's AllReduce time over the bandwidth-optimal bucket's on the same torus,
    alpha = 0, so only the bandwidth term counts."""
    at_128 = sota_cells(os.path.join(results, "sota", "results.csv"), 128, "allreduce")
    for label, paper, dims, small in (("2D", 1.19, "64x64", "8x16"), ("3D", 1.03, "16x16x16", "4x4x8")):
        n = 1
        for d in dims.split("x"):
            n *= int(d)
        times = {}
        for algorithm in ("swing", "bucket"):
            run, command = photonsim_run(RS, f"fabric.gpus={n}", "workload.collective=allreduce",
                                         f"synthesis.topology={{type: torus, dims: {dims}}}", "workload.message=1GB",
                                         "fabric.latency=0ns", f"synthesis.algorithm={{type: {algorithm}, dims: {dims}}}",
                                         "synthesis.planner=static")
            times[algorithm] = run["measured_ps"]
        start = f"{label} torus"
        # At the paper's 128 GPUs (alpha = 3 us): dimension-wise Swing is not in the sota sweep, so run it.
        small_times = {}
        for algorithm in ("swing", "bucket"):
            run, _ = photonsim_run(RS, "workload.collective=allreduce", f"synthesis.topology={{type: torus, dims: {small}}}",
                                   "workload.message=1GB", f"synthesis.algorithm={{type: {algorithm}, dims: {small}}}",
                                   "synthesis.planner=static")
            small_times[algorithm] = run["measured_ps"]
        one_d = at_128[(start, "1GB")][("swing", "static")] / at_128[(start, "1GB")][(f"{label} bucket", "static")]
        c.number(f"Sec. 6: Swing's bounded congestion on the {label} torus, {round((paper - 1) * 100)} %", "Sec. 6",
                 paper, times["swing"] / times["bucket"],
                 f"{command} (Swing), and with synthesis.algorithm={{type: bucket, dims: {dims}}}", "",
                 note=f"Swing AllReduce over {label} bucket on the torus {dims}, 1 GB, alpha = 0: the congestion "
                      f"factor Swing's peers cost over one-hop rounds, which grows with the torus toward its bound; at "
                      f"the paper's 128 GPUs ({small}, alpha = 3 us) {small_times['swing'] / small_times['bucket']:.3f}"
                      f"x; Swing along the ring order instead of per dimension (the sota sweep's swing) "
                      f"{one_d:.2f}x there")


def small_facts(results, c, run_all, photonsim_run):
    """Fig. 5's congested rounds, Secs. 3 and 7's bytes and chunks, Sec. 4.2's splitting, PCCL never slower."""
    run, command = photonsim_run(RS, "fabric.gpus=8", "workload.collective=allreduce", "synthesis.planner=static",
                                 "workload.message=8MB")
    rounds = congestion_dilation(run)
    gather = rounds[len(rounds) // 2:]
    beta = 8e12 / run["bandwidth_bps"]
    # Measured, not predicted: each round's transfer time less alpha x dilation, over beta x its bytes per transfer.
    shared = {}
    for step, (cong, dil) in zip(run["per_step"], rounds):
        measured = (step["measured"]["transfer_ps"] - dil * run["latency_ps"]) / (beta * step["bytes"] / step["transfers"])
        shared[cong] = round(measured, 2)
    c.check("Fig. 5: RHD's all-gather on an 8-GPU ring overlaps transfers on links in some rounds", "Sec. 3, Fig. 5",
            "congested rounds (red)", "all-gather rounds' (congestion, dilation): "
            + ", ".join(f"({g:g}, {d:g})" for g, d in gather),
            any(g > 1 for g, _ in gather), command,
            "the second half of RHD AllReduce on the bidirectional ring (the figure draws one direction); from each "
            "round's Eq. 1 terms: dilation = propagation / alpha, congestion = transmission / (beta x bytes per "
            "transfer)")
    c.given("Fig. 6: 2 and 4 transfers overlapping on a link get 1/2 and 1/4 of its bandwidth (H100 DGX)",
            "Sec. 3, Fig. 6", "2x, 4x", "the model, measured packet by packet on Fig. 5's rounds: "
            + ", ".join(f"{k:g} sharing: {v:.2f}x" for k, v in sorted(shared.items()) if k > 1),
            command,
            "a measurement of the paper's hardware; photonsim's links divide their bandwidth among the transfers "
            "they carry, which gives the same factors")
    # Secs. 3 and 7: bytes and chunks per GPU.
    facts = {}
    for algorithm in ("ring", "rhd"):
        for collective in ("allreduce", "reducescatter"):
            out, cmd = photonsim_run(RS, f"workload.collective={collective}", f"synthesis.algorithm={algorithm}",
                                     "synthesis.planner=static", "workload.message=128MiB")
            facts[(algorithm, collective)] = (out["bytes_delivered"] / out["gpus"],
                                              sum(s["transfers"] for s in out["per_step"]) / out["gpus"], cmd)
    n, buffer = 128, 128 * 2**20
    beta_optimal = all(facts[(a, "allreduce")][0] == 2 * (n - 1) * buffer / n for a in ("ring", "rhd"))
    c.count("Sec. 3: ring and RHD AllReduce are beta-optimal, each GPU sending about 2x the buffer (N = 128)",
            "Sec. 3", "2 (N - 1) / N of the buffer",
            ", ".join(f"{a} {facts[(a, 'allreduce')][0] / buffer:.4f}" for a in ("ring", "rhd"))
            + f" of the buffer per GPU (2 x 127 / 128 = {2 * (n - 1) / n:.4f})",
            True, bool(beta_optimal), facts[("ring", "allreduce")][2] + "; the same with "
            "synthesis.algorithm=rhd (bytes_delivered / gpus)")
    same_beta = facts[("ring", "reducescatter")][0] == facts[("rhd", "reducescatter")][0]
    chunks = {a: facts[(a, "reducescatter")][1] for a in ("ring", "rhd")}
    c.count("Sec. 7: each GPU sends log2 N chunks against the ring's N, at the same beta cost (reduce-scatter, "
            "N = 128)", "Sec. 7", "7 against 128 (N)",
            f"RHD {chunks['rhd']:g}, ring {chunks['ring']:g} transfers per GPU, each sending "
            f"{facts[('rhd', 'reducescatter')][0]:.0f} bytes ((N - 1) / N of 128 MiB)",
            True, bool(same_beta and chunks["rhd"] == 7 and chunks["ring"] == n - 1),
            facts[("rhd", "reducescatter")][2] + "; the same with synthesis.algorithm=ring",
            "the ring algorithm's reduce-scatter takes N - 1 = 127 rounds: the paper's 'N chunks' counts the "
            "buffer's N blocks")
    # Sec. 7: log2 N reconfigurations against N alpha, from the sota sweep's 1 MB ring cell.
    cells = sota_cells(os.path.join(results, "sota", "results.csv"), 128, "reducescatter")
    cell = cells[("ring", "1MB")]
    gain = cell[("ring", "static")] / cell[("rhd", "pccl")]
    c.check("Sec. 7: log2 N reconfigurations cost less than N alpha when alpha and r are comparable (128 GPUs, "
            "alpha = 3 us, r = 5 us)", "Sec. 7", "cheaper",
            f"PCCL {cell[('rhd', 'pccl')] / 1e6:.1f} us against the ring algorithm's "
            f"{cell[('ring', 'static')] / 1e6:.1f} us on the ring at 1 MB ({gain:.2f}x): at most 7 (alpha + r) = "
            "56 us of latency and reconfiguration against the ring's 127 alpha = 381 us",
            gain > 1, f"{run_all} (sota/: configs/sweeps/pccl_sota.yaml)")
    # Sec. 4.2: a round with more connections than transmitters is split.
    split = {}
    for ports in (4, 3, 2, 1):
        out, cmd = photonsim_run(RS, "fabric.gpus=64", f"fabric.ports={ports}", "workload.collective=allreduce",
                                 "synthesis.algorithm={type: swing, dims: 8x8, multiport: true}",
                                 "synthesis.topology={type: ring, bidirectional: false}", "synthesis.planner=pccl",
                                 "workload.message=64MB")
        split[ports] = out["steps"]
    expected = {p: 12 * -(-4 // p) for p in split}
    c.count("Sec. 4.2: a round needing more connections than a GPU's transmitters is split into ceil(connections "
            "/ Tx) rounds", "Sec. 4.2", "ceil(4 / Tx) per round",
            "12 rounds of 4 connections per GPU: " + ", ".join(f"{split[p]} rounds at Tx = {p}" for p in split),
            expected, split, cmd.replace("fabric.ports=1", "fabric.ports=TX"),
            "multi-port Swing on 64 GPUs (2 x 2 planes: one peer per dimension and direction a round)")
    # Figs. 8-9 and Appendix A: PCCL never slower than never reconfiguring or reconfiguring every round.
    path = os.path.join(results, "reduce_scatter", "results.csv")
    points = collections.defaultdict(dict)
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            key = (r["fabric.gpus"], r["synthesis.topology"], r["fabric.reconfig_delay"])
            points[key][r["synthesis.planner"]] = int(r["measured_ps"])
    worst = max(p["pccl"] / min(p["static"], p["every_step"]) for p in points.values())
    c.check("Sec. 5: PCCL weighs reconfiguration against congestion and dilation, so never loses to never "
            "reconfiguring or reconfiguring every round", "Sec. 5, Figs. 8-9", "never slower",
            f"at most {worst:.4f}x the better of the two over {len(points)} points (32-128 GPUs, ring / torus / "
            "grid, r = 5 us-1 ms, 1 GB)", worst <= 1.01,
            f"{run_all} (reduce_scatter/: configs/sweeps/pccl_reduce_scatter.yaml); scripts/repro/decision_check.py "
            "--only pccl for alpha_r x buffer x algorithm")


def add_rows(results, c, run_all, photonsim_run):
    fixed_topologies(results, c, run_all)
    figure7(results, c, run_all, photonsim_run)
    figure8(results, c, run_all, photonsim_run)
    figures17_18(results, c, run_all, photonsim_run)
    swing_congestion(results, c, run_all, photonsim_run)
    small_facts(results, c, run_all, photonsim_run)
    hardware_rows(c)


def hardware_rows(c):
    """The paper's hardware measurements and cited values: what photonsim takes as input, never reruns."""
    c.given("Sec. 4: reconfiguration delays from 3.7 us (Passage) to tens of milliseconds (MEMS)", "Sec. 4",
            "3.7 us-tens of ms", "an input, fabric.reconfig_delay (r); swept 5 us-1 ms in reduce_scatter/",
            "configs/sweeps/pccl_reduce_scatter.yaml", "cited hardware values")
    c.given("Sec. 5: alpha = 3 us, 450 GB/s per GPU", "Sec. 5", "3 us, 450 GB/s",
            "inputs: fabric.latency and fabric.bandwidth (fabric.bandwidth_scope: circuit or gpu)", RS, "the simulation's parameters, as the paper's own")
    c.given("Secs. 2, 4: optical losses: reticle stitch 0.2 dB (Sec. 2) or 0.25 dB (Sec. 4), waveguide 0.4 dB/cm, "
            "waveguide-to-fiber coupling 0.5 dB", "Secs. 2, 4", "0.2 / 0.25 dB, 0.4 dB/cm, 0.5 dB",
            "inputs of fabric.physical: tile_loss_db (default 0.2, the Sec. 2 value), fiber_loss_db (0.5), "
            "mzi_loss_db; the per-cm waveguide loss is not modelled; photonsim reports each circuit's loss "
            "(photonsim physical) and decides nothing by it, as PCCL sets the launch power per path length", "configs/pccl_paper/physical_rhd_16.yaml (fabric.physical)",
            "the paper gives the stitch loss two ways")
    c.given("Sec. 7: SCCL's synthesis for two NDv2 or DGX2 nodes exceeds 24 hours", "Sec. 7", "> 24 h",
            "cited (Shah et al., 2023); photonsim has no SCCL", "-", "")


def physical(results, c):
    """Fig. 19 from `scripts/reproduce pccl_physical`'s mesh.csv and fibers.csv."""
    tables = {}
    for name in ("mesh", "fibers"):
        path = os.path.join(results, f"{name}.csv")
        if not os.path.exists(path):
            sys.exit(f"pccl_claims.py: {path} is missing: run scripts/reproduce pccl_physical first")
        with open(path, newline="", encoding="utf-8") as f:
            tables[name] = list(csv.DictReader(f))
    run = "scripts/reproduce pccl_physical"
    largest = [r for r in tables["mesh"] if r["mesh"] == "256x256"]
    slowest = max(float(r["seconds"]) for r in largest)
    unrouted = [1 - int(r["routed"]) / int(r["circuits"]) for r in largest]
    c.check("Fig. 19(a): Algorithm 3 finds routes in under 2.5 s on a 256 x 256 MZI mesh", "Sec. 4.3, Fig. 19(a)",
            "< 2.5 s, every circuit routed",
            f"the slowest {c.under(slowest, 2.5)} (50-400 circuits, 3 seeds each, one wavelength); "
            f"{100 * min(unrouted):.0f}-{100 * max(unrouted):.0f} % of the circuits unrouted",
            slowest < 2.5 and max(unrouted) == 0, f"{run} (mesh.csv: build/mesh_routing_benchmark)",
            "wall time of the routing alone on this machine; with one wavelength the border fills and not every "
            "circuit routes (seed 1: " + ", ".join(
                f"{r['routed']} of {r['circuits']}" for r in largest if r["seed"] == "1") + "): routes found for "
            "part of the circuits do not show the claim")
    fibers = collections.defaultdict(list)
    for r in tables["fibers"]:
        fibers[(int(r["circuits"]), r["shared"] == "1")].append(r)
    for circuits, paper in ((100, 7), (512, 31)):
        shared = fibers[(circuits, True)]
        own = fibers[(circuits, False)]
        values = [int(r["fibers"]) for r in shared]
        proven = all(r["optimal"] == "1" for r in shared + own)
        cut = min(int(r["cut_bound"]) for r in shared)
        command = f"{run} (fibers.csv: build/fiber_routing_benchmark)"
        text = (f"{', '.join(map(str, values))} over seeds 1-3 with a link's fibers carrying both directions; "
                f"{', '.join(r['fibers'] for r in own)} per direction")
        why = ("random circuits: the paper reports one draw, photonsim's value is the fewest over its three "
               f"({'every optimum proven' if proven else 'not every optimum proven'}); the cut lower bound is at least {cut} in every draw of {circuits} "
               "uniformly random server pairs (fibers shared by both directions)")
        c.count(f"Fig. 19(b): {circuits} random circuits on a 64-server grid need at most {paper} fibers",
                "Sec. 4.3, Fig. 19(b)", str(paper), text, paper, min(values), command, why)
    solve = {shared: max(float(r["solve_s"]) for r in tables["fibers"] if (r["shared"] == "1") == shared)
             for shared in (True, False)}
    c.check("Sec. 4.3: Algorithm 4 converged in under 10 s in all experiments", "Sec. 4.3", "< 10 s",
            f"the slowest solve {c.under(solve[True], 10)} with a link's fibers carrying both directions (the reading "
            f"that gives the paper's 7 fibers: photonsim's setup for Fig. 19); the slowest per direction "
            f"{c.under(solve[False], 10)}",
            solve[True] < 10,
            f"{run} (fibers.csv: solve_s)",
            "" if solve[False] < 10 else "10 s or more only in the per-direction model, photonsim's own variant, "
                                         "where CBC proves optima equal to the cut bound")
