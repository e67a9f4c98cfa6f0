#!/usr/bin/env python3
"""The task-graph benchmark (scripts/dev/bench --graph): how loading and running a
large training-iteration graph scales. For each node count and each shape it
writes a graph file and a config beside it (8 GPUs, one port, 800 Gbps,
500 ns, ring / static), runs `photonsim run CONFIG` in its own process and
prints that process's wall time and peak resident set, with the iteration time
it reports. Shapes, every node `after` the one before it (chains) but wide:
  compute  compute nodes of 1 us, GPU i mod 8;
  p2p      sends of 4 KB from GPU i mod 8 to the next;
  mix      compute, send and 64 KB AllReduce over GPUs 0-3 or 4-7 in turn;
  wide     sends of 4 KB between seeded random pairs of the 8 GPUs, none
           after another: all waiting for ports at once.

    graph_bench.py PHOTONSIM [--nodes N[,N...]] [--shapes compute,p2p,mix,wide]
                   [--limit-s S] [--preconfigure]

Default: 200000 nodes, every shape. A run past --limit-s (default 120) is
stopped and reported as such. Only the standard library is used.
"""
import argparse
import os
import random
import re
import signal
import sys
import tempfile
import time


def write_graph(path, shape, nodes):
    pairs = random.Random(1)
    with open(path, "w", encoding="utf-8") as f:
        for i in range(nodes):
            if shape == "wide":
                src, dst = pairs.sample(range(8), 2)
                f.write(f"- {{name: n{i}, type: p2p, src: {src}, dst: {dst}, bytes: 4KB}}\n")
                continue
            after = f", after: n{i - 1}" if i else ""
            kind = shape if shape != "mix" else ("compute", "p2p", "collective")[i % 3]
            if kind == "compute":
                f.write(f"- {{name: n{i}, type: compute, gpus: [{i % 8}], duration: 1us{after}}}\n")
            elif kind == "p2p":
                f.write(f"- {{name: n{i}, type: p2p, src: {i % 8}, dst: {(i + 1) % 8}, bytes: 4KB{after}}}\n")
            else:
                group = "0-3" if i % 2 else "4-7"
                f.write(f"- {{name: n{i}, type: collective, collective: allreduce, gpus: [\"{group}\"], "
                        f"message: 64KB{after}}}\n")


def write_config(path, graph, preconfigure):
    with open(path, "w", encoding="utf-8") as f:
        f.write("seed: 1\n"
                "fabric: {gpus: 8, ports: 1, bandwidth: 800Gbps, latency: 500ns"
                + (", preconfigure: true" if preconfigure else "") + "}\n"
                f"workload: {{graph: {os.path.basename(graph)}}}\n"
                "synthesis: {algorithm: ring, planner: static, topology: {type: ring}}\n")


def run(argv, limit_s):
    """argv in its own process: (exit status or None when stopped, stdout, stderr, wall s, peak MiB)."""
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
            if not stopped and time.monotonic() - begin > limit_s:
                os.kill(pid, signal.SIGKILL)
                stopped = True
            time.sleep(0.05)
        wall = time.monotonic() - begin
        out.seek(0)
        err.seek(0)
        code = None if stopped else os.waitstatus_to_exitcode(status)
        return code, out.read().decode(errors="replace"), err.read().decode(errors="replace"), wall, \
            usage.ru_maxrss / 1024


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("photonsim")
    p.add_argument("--nodes", default="200000")
    p.add_argument("--shapes", default="compute,p2p,mix,wide")
    p.add_argument("--limit-s", type=float, default=120)
    p.add_argument("--preconfigure", action="store_true")
    args = p.parse_args()
    counts = [int(n) for n in args.nodes.split(",")]
    shapes = args.shapes.split(",")
    for shape in shapes:
        if shape not in ("compute", "p2p", "mix", "wide"):
            sys.exit(f"graph_bench.py: unknown shape '{shape}' (valid: compute, p2p, mix, wide)")
    print(f"{'shape':<10}{'nodes':>9}{'file_MiB':>10}{'wall_s':>9}{'peak_MiB':>10}  iteration", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for shape in shapes:
            for nodes in counts:
                graph = os.path.join(folder, f"{shape}_{nodes}.yaml")
                config = os.path.join(folder, f"{shape}_{nodes}_config.yaml")
                write_graph(graph, shape, nodes)
                write_config(config, graph, args.preconfigure)
                size = os.path.getsize(graph) / 2**20
                code, out, err, wall, peak = run([args.photonsim, "run", config], args.limit_s)
                if code is None:
                    outcome = f"stopped after {args.limit_s:g} s"
                elif code != 0:
                    outcome = f"exit {code}: {err.strip()[:200]}"
                else:
                    m = re.search(r"^iteration time\s+(\S+)", out, re.MULTILINE)
                    outcome = m.group(1) if m else "?"
                print(f"{shape:<10}{nodes:>9}{size:>10.1f}{wall:>9.2f}{peak:>10.1f}  {outcome}", flush=True)
                os.remove(graph)


if __name__ == "__main__":
    main()
