#!/usr/bin/env python3
"""The scale benchmark (scripts/dev/bench --scale): one run of each case, where the
time goes and whether the issue's targets hold.

    scale_bench.py PHOTONSIM BARE_LOOP|"" CONFIG.yaml ...

Each config carries a line "# scale: verb=run|plan|availability
fidelity=packet|analytical args="..." target_s=S target_mib=M" (verb and
fidelity default to run and packet; args, shell-quoted, follow the config
on the command line, e.g. availability's --days and --seeds). The
case runs in its own process: its wall time and peak resident set are that
process's; synthesis_s and simulation_s come from photonsim's CSV (run only).
With a bare-loop binary, the engine cases below also run and their
packet-hops/s is compared with the bare loop's in the same run. A case still
running at twice its time target (at least 60 s) is stopped and reported as
missed, so one run of the benchmark takes bounded time. Before each case,
standard error says the time so far and about how long is left (the
remaining cases' time targets).
Only the standard library is used, so any python3 will do.
"""
import csv
import io
import json
import os
import shlex
import signal
import sys
import tempfile
import time

# The engine cases of configs/bench/ and their least fraction of the bare loop.
ENGINE_CASES = [("configs/bench/alltoall64_ring.yaml", 0.7), ("configs/bench/retri1024_64KiB.yaml", 0.5)]


def scale_line(config):
    """The key=value pairs of the config's "# scale:" line."""
    with open(config, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# scale:"):
                pairs = dict(token.split("=", 1) for token in shlex.split(line[len("# scale:"):]))
                unknown = set(pairs) - {"verb", "fidelity", "args", "target_s", "target_mib"}
                if unknown:
                    sys.exit(f"{config}: unknown scale keys {sorted(unknown)} "
                             "(valid: verb, fidelity, args, target_s, target_mib)")
                if pairs.get("verb", "run") not in ("run", "plan", "availability"):
                    sys.exit(f"{config}: scale verb={pairs['verb']} (valid: run, plan, availability)")
                return pairs
    return {}


def run(argv, limit_s=None):
    """argv in its own process: (exit status, stdout, stderr, wall s, peak MiB);
    killed after limit_s seconds (exit status None)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        begin = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            os.execv(argv[0], argv)
        stopped = False
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if not stopped and limit_s is not None and time.monotonic() - begin > limit_s:
                os.kill(pid, signal.SIGKILL)
                stopped = True
            time.sleep(0.05)
        wall = time.monotonic() - begin
        if stopped:
            return None, "", f"stopped after {limit_s:g} s", wall, usage.ru_maxrss / 1024
        out.seek(0)
        err.seek(0)
        return (os.waitstatus_to_exitcode(status), out.read().decode(errors="replace"),
                err.read().decode(errors="replace").strip(), wall, usage.ru_maxrss / 1024)


def verdict(value, limit, below=True):
    if limit is None:
        return "-"
    return "ok" if (value <= limit if below else value >= limit) else "MISSED"


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
    photonsim, bare_loop, configs = sys.argv[1], sys.argv[2], sys.argv[3:]
    print(f"{'case':<28}{'verb':<13}{'fidelity':<11}{'synth_s':>9}{'sim_s':>9}{'wall_s':>9}{'peak_MiB':>10}"
          f"{'pkt-hops/s':>12}  target")
    missed = 0
    # Progress on standard error: the time left estimated from the cases'
    # own time targets (the cases still to run), the time so far measured.
    targets = [float(scale_line(c).get("target_s", 10)) for c in configs]
    started = time.monotonic()
    for index, config in enumerate(configs):
        name = os.path.basename(config).removesuffix(".yaml")
        print(f"[{index + 1}/{len(configs)}] {name}: {time.monotonic() - started:.0f} s so far, about "
              f"{sum(targets[index:]):.0f} s left (the remaining cases' time targets)", file=sys.stderr, flush=True)
        spec = scale_line(config)
        verb = spec.get("verb", "run")
        fidelity = spec.get("fidelity", "packet")
        argv = [photonsim, verb, config, *shlex.split(spec.get("args", ""))]
        if verb == "run":
            argv += ["--format", "csv", "--fidelity", fidelity]
        elif verb == "availability":
            argv += ["--format", "json", "--fidelity", fidelity]
        target_s = float(spec["target_s"]) if "target_s" in spec else None
        target_mib = float(spec["target_mib"]) if "target_mib" in spec else None
        code, out, err, wall, peak = run(argv, max(2 * target_s, 60) if target_s is not None else None)
        if code != 0:
            missed += 1
            why = err.splitlines()[-1] if err else ""
            outcome = f"MISSED ({why}, {peak:.0f} MiB)" if code is None else f"FAILED (exit {code}): {why}"
            print(f"{name:<28}{verb:<13}{fidelity:<11}  {outcome}", flush=True)
            continue
        synthesis = simulation = rate = "-"
        if verb == "run":
            row = next(csv.DictReader(io.StringIO(out)))
            synthesis = f"{float(row['synthesis_s']):.2f}"
            simulation = f"{float(row['simulation_s']):.2f}"
            if int(row["packet_hops"]) > 0 and float(row["simulation_s"]) > 0:
                rate = f"{int(row['packet_hops']) / float(row['simulation_s']):.3e}"
        time_ok, memory_ok = verdict(wall, target_s), verdict(peak, target_mib)
        missed += (time_ok == "MISSED") + (memory_ok == "MISSED")
        parts = []
        if target_s is not None:
            parts.append(f"<= {target_s:g} s {time_ok}")
        if target_mib is not None:
            parts.append(f"<= {target_mib:g} MiB {memory_ok}")
        target = ", ".join(parts) or "-"
        print(f"{name:<28}{verb:<13}{fidelity:<11}{synthesis:>9}{simulation:>9}{wall:>9.2f}{peak:>10.1f}"
              f"{rate:>12}  {target}", flush=True)
    if bare_loop:
        code, out, err, _, _ = run([bare_loop, "--benchmark_format=json"])
        if code != 0:
            sys.exit(f"{bare_loop}: exit {code}: {err}")
        runs = [b for b in json.loads(out)["benchmarks"] if b.get("run_type") == "iteration"]
        bare = max(b["pkt_hops/s"] for b in runs)
        print(f"\nbare loop (first engine case, best of {len(runs)}): {bare:.3e} packet-hops/s")
        for config, least in ENGINE_CASES:
            code, out, err, wall, peak = run([photonsim, "run", config, "--format", "csv"])
            if code != 0:
                sys.exit(f"{config}: exit {code}: {err}")
            row = next(csv.DictReader(io.StringIO(out)))
            rate = int(row["packet_hops"]) / float(row["simulation_s"])
            ok = verdict(rate / bare, least, below=False)
            missed += ok == "MISSED"
            name = os.path.basename(config).removesuffix(".yaml")
            print(f"{name:<28}engine {rate:.3e} packet-hops/s = {rate / bare:.2f} x the bare loop "
                  f"(target >= {least:g}: {ok}), {wall:.2f} s, {peak:.1f} MiB", flush=True)
    print(f"\n{missed} target(s) missed" if missed else "\nevery target holds")


if __name__ == "__main__":
    main()
