#!/usr/bin/env python3
"""Writes the task graph (YAML, for workload.graph) of one training iteration
of a Bert-like transformer under data x tensor x pipeline parallelism, after
PCCL section 6 (12 layers on 32, 64 and 128 GPUs; AllReduce buffers from 1 MB
to 64 MB).

  scripts/tools/transformer_graph.py --gpus 32 --tp 4 --pp 2 --layers 4 --out graph.yaml

GPU id = replica * (pp * tp) + stage * tp + t: a tensor-parallel (TP) group is
contiguous, a data-parallel (DP) group strides by pp * tp. Per replica and
stage, in order (every node after the one before it on the stage's GPUs):
  forward, per microbatch and layer (Megatron style, two TP AllReduces a layer):
    l.fwd.attn (compute, half of --fwd), l.fwd.attn.ar (TP AllReduce, --tp-bytes),
    l.fwd.mlp, l.fwd.mlp.ar;
  then TP rank t sends its activations (--p2p-bytes) to rank t of the next
  stage (s.t.send.fwd), whose first compute waits for them;
  backward in reverse (microbatches last to first, layers last to first):
    l.bwd.mlp (half of --bwd), l.bwd.mlp.ar, l.bwd.attn, l.bwd.attn.ar,
  then the gradient sends to the previous stage (s.t.send.bwd).
Finally per stage and TP rank t the DP gradient AllReduce (s.t.dp.ar) over
that rank's GPUs of every replica, --dp-bytes cut into buckets of at most
--dp-bucket (chained: s.t.dp.ar.b0, .b1, ...), after the stage's last backward
node in every replica. It overlaps the stage's backward send (p2p), which
fabric.priority orders (PCCL: p2p first). With --dp-per-layer (no TP) the
gradients are instead reduced layer by layer as FlexFlow's task graphs and
PyTorch DDP do: after layer l's backward in every replica, one AllReduce per
size listed (s0.dp.l3.ar0, .ar1, ...), chained on the stage's GPUs, so they
overlap the backward of the layers before l. Without TP (--tp 1) there are no TP
AllReduces, without DP (one replica) no DP AllReduce. Node names carry the
replica (r0), microbatch (m1, only with --microbatches > 1), stage (s1),
layer (l3, global) or TP rank (t2).

Sizes: B KB MB GB (decimal) KiB MiB GiB; times: ps ns us ms s. The header of
the output names the command and the node counts.
"""

import argparse
import re
import shlex
import sys

SIZE_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}
TIME_UNITS = {"ps": 1, "ns": 10**3, "us": 10**6, "ms": 10**9, "s": 10**12}


def quantity(text, units, what):
    m = re.fullmatch(r"\s*(\d+)\s*([A-Za-z]+)\s*", text)
    if not m or m.group(2) not in units:
        raise argparse.ArgumentTypeError(f"{what} '{text}': an integer and one of {' '.join(units)}, e.g. 2MB / 60us")
    value = int(m.group(1)) * units[m.group(2)]
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{what} '{text}' must be positive")
    return value


def size(text):
    return quantity(text, SIZE_UNITS, "size")


def duration(text):
    return quantity(text, TIME_UNITS, "time")


def sizes(text):
    return [size(part) for part in text.split(",")]


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"'{text}' must be >= 1")
    return value


def show_time(ps):
    for unit, scale in (("s", 10**12), ("ms", 10**9), ("us", 10**6), ("ns", 10**3)):
        if ps % scale == 0:
            return f"{ps // scale}{unit}"
    return f"{ps}ps"


def show_size(b):
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b % scale == 0:
            return f"{b // scale}{unit}"
    return f"{b}B"


def span(gpus):
    """A GPU list as the loader's ranges: "a-b", "a-b/s" or a single id."""
    if len(gpus) == 1:
        return gpus[0]
    step = gpus[1] - gpus[0]
    assert all(b - a == step for a, b in zip(gpus, gpus[1:]))
    return f"{gpus[0]}-{gpus[-1]}" if step == 1 else f"{gpus[0]}-{gpus[-1]}/{step}"


def yaml_value(value):
    """A node field in YAML flow style: lists in brackets, GPU ranges quoted."""
    if isinstance(value, list):
        return "[" + ", ".join(yaml_value(v) for v in value) + "]"
    if isinstance(value, str) and ("-" in value or "/" in value):
        return f'"{value}"'
    return str(value)


class Graph:
    """The nodes, as dicts (photonsim.transformer_graph) and as YAML lines."""

    def __init__(self):
        self.nodes = []
        self.lines = []
        self.count = {"compute": 0, "collective": 0, "p2p": 0}

    def add(self, name, kind, after, **fields):
        node = {"name": name, "type": kind, **fields}
        if after:
            node["after"] = after[0] if len(after) == 1 else list(after)
        self.nodes.append(node)
        self.lines.append("- {" + ", ".join(f"{key}: {yaml_value(value)}" for key, value in node.items()) + "}")
        self.count[kind] += 1
        return name


def build(a):
    dp = a.gpus // (a.tp * a.pp)
    per_stage = a.layers // a.pp
    g = Graph()

    def gpu(r, s, t):
        return r * a.pp * a.tp + s * a.tp + t

    def tp_group(r, s):
        return span([gpu(r, s, t) for t in range(a.tp)])

    fwd_half = (a.fwd // 2, a.fwd - a.fwd // 2)  # attention, MLP
    bwd_half = (a.bwd - a.bwd // 2, a.bwd // 2)  # MLP, attention
    last = {}  # (r, s) -> the stage's latest node: the next one waits for it
    grads = {}  # (r, s, l) -> the node after which layer l's gradients are whole
    sends = {}  # (r, m, s, direction) -> the send nodes the receiving stage waits for

    def step(r, s, name, kind, extra_after, **fields):
        after = ([last[(r, s)]] if (r, s) in last else []) + extra_after
        last[(r, s)] = g.add(name, kind, after, **fields)

    def layer(r, m, s, l, direction, halves, parts, extra_after):
        base = f"r{r}{m}.s{s}.l{l}.{direction}"
        for half, part in zip(halves, parts):
            step(r, s, f"{base}.{part}", "compute", extra_after, gpus=[tp_group(r, s)], duration=show_time(half))
            extra_after = []
            if a.tp > 1:
                step(r, s, f"{base}.{part}.ar", "collective", [], collective="allreduce",
                     gpus=[tp_group(r, s)], message=show_size(a.tp_bytes))
        if direction == "bwd":
            grads[(r, s, l)] = last[(r, s)]  # microbatches run last to first: m0's backward writes last

    def send(r, m, s, to, direction):
        names = []
        for t in range(a.tp):
            names.append(g.add(f"r{r}{m}.s{s}.t{t}.send.{direction}", "p2p", [last[(r, s)]],
                               src=gpu(r, s, t), dst=gpu(r, to, t), bytes=show_size(a.p2p_bytes)))
        sends[(r, m, to, direction)] = names

    def tag(m):
        return f".m{m}" if a.microbatches > 1 else ""

    for r in range(dp):
        for s in range(a.pp):
            for m in range(a.microbatches):
                layers = range(s * per_stage, (s + 1) * per_stage)
                for i, l in enumerate(layers):
                    waits = sends.get((r, tag(m), s, "fwd"), []) if i == 0 else []
                    layer(r, tag(m), s, l, "fwd", fwd_half, ("attn", "mlp"), waits)
                if s + 1 < a.pp:
                    send(r, tag(m), s, s + 1, "fwd")
        for s in reversed(range(a.pp)):
            for m in reversed(range(a.microbatches)):
                layers = list(reversed(range(s * per_stage, (s + 1) * per_stage)))
                for i, l in enumerate(layers):
                    waits = sends.get((r, tag(m), s, "bwd"), []) if i == 0 else []
                    layer(r, tag(m), s, l, "bwd", bwd_half, ("mlp", "attn"), waits)
                if s > 0:
                    send(r, tag(m), s, s - 1, "bwd")
    if dp > 1 and a.dp_per_layer:
        for s in range(a.pp):
            after = []
            for l in reversed(range(s * per_stage, (s + 1) * per_stage)):
                after = after + [grads[(r, s, l)] for r in range(dp)]
                for k, b in enumerate(a.dp_per_layer):
                    after = [g.add(f"s{s}.dp.l{l}.ar{k}", "collective", after, collective="allreduce",
                                   gpus=[span([gpu(r, s, 0) for r in range(dp)])], message=show_size(b))]
    elif dp > 1:
        buckets = []
        left = a.dp_bytes
        while left > 0:
            buckets.append(min(left, a.dp_bucket))
            left -= buckets[-1]
        for s in range(a.pp):
            for t in range(a.tp):
                after = [last[(r, s)] for r in range(dp)]
                for k, b in enumerate(buckets):
                    name = f"s{s}.t{t}.dp.ar" + (f".b{k}" if len(buckets) > 1 else "")
                    after = [g.add(name, "collective", after, collective="allreduce",
                                   gpus=[span([gpu(r, s, t) for r in range(dp)])], message=show_size(b))]
    return g, dp


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gpus", type=positive, required=True, help="fabric.gpus; a multiple of tp * pp (dp = gpus / (tp * pp))")
    p.add_argument("--tp", type=positive, default=4, help="tensor-parallel degree (default 4)")
    p.add_argument("--pp", type=positive, default=2, help="pipeline stages (default 2)")
    p.add_argument("--layers", type=positive, default=4, help="transformer layers, a multiple of pp (default 4; Bert: 12)")
    p.add_argument("--microbatches", type=positive, default=1, help="GPipe microbatches per iteration (default 1)")
    p.add_argument("--fwd", type=duration, default="60us", help="forward compute per layer and microbatch (default 60us)")
    p.add_argument("--bwd", type=duration, default="120us", help="backward compute per layer and microbatch (default 120us)")
    p.add_argument("--tp-bytes", type=size, default="2MB", help="each TP AllReduce, two a layer each way (default 2MB)")
    p.add_argument("--p2p-bytes", type=size, default="1MB", help="activations per TP rank between stages (default 1MB)")
    p.add_argument("--dp-bytes", type=size, default=None, help="gradients per GPU per stage (default 64MB)")
    p.add_argument("--dp-bucket", type=size, default=None, help="largest DP AllReduce; more are chained (default: dp-bytes)")
    p.add_argument("--dp-per-layer", type=sizes, default=None,
                   help="reduce gradients layer by layer instead: the sizes of one layer's AllReduces, each after "
                        "that layer's backward, e.g. 16MiB,16MiB,16MiB,16MiB,64MiB,64MiB (needs --tp 1)")
    p.add_argument("--out", required=True, help="the graph file to write ('-': standard output)")
    a = p.parse_args()
    if a.gpus % (a.tp * a.pp) != 0:
        p.error(f"--gpus {a.gpus} is not a multiple of tp * pp = {a.tp * a.pp}")
    if a.layers % a.pp != 0:
        p.error(f"--layers {a.layers} is not a multiple of pp = {a.pp}")
    if a.dp_per_layer and a.tp > 1:
        p.error("--dp-per-layer needs --tp 1: a layer's DP AllReduce would share its GPUs with the TP AllReduces "
                "of the layers still in backward, two collectives at once on one GPU")
    if a.dp_per_layer and (a.dp_bytes is not None or a.dp_bucket is not None):
        p.error("--dp-per-layer names every gradient AllReduce itself: drop --dp-bytes and --dp-bucket")
    if a.dp_bytes is None:
        a.dp_bytes = 64 * 10**6
    if a.dp_bucket is None:
        a.dp_bucket = a.dp_bytes
    if min(a.fwd, a.bwd) < 2:
        p.error("--fwd and --bwd must be at least 2ps (each is split into attention and MLP halves)")
    g, dp = build(a)
    total = sum(g.count.values())
    command = " ".join(["scripts/tools/transformer_graph.py"] + [shlex.quote(x) for x in sys.argv[1:]])
    header = [
        "# Task graph of one training iteration of a Bert-like transformer, for workload.graph.",
        f"# Generated by: {command}",
        f"# gpus {a.gpus} = dp {dp} x pp {a.pp} x tp {a.tp}; {a.layers} layers, {a.microbatches} microbatch(es);"
        f" per layer fwd {show_time(a.fwd)}, bwd {show_time(a.bwd)};",
        f"# TP AllReduce {show_size(a.tp_bytes)}, stage send {show_size(a.p2p_bytes)},"
        + (f" DP AllReduces per layer {', '.join(show_size(b) for b in a.dp_per_layer)}." if a.dp_per_layer else
           f" DP AllReduce {show_size(a.dp_bytes)} (buckets of at most {show_size(a.dp_bucket)})."),
        f"# nodes: {total} (compute {g.count['compute']}, collective {g.count['collective']}, p2p {g.count['p2p']})",
    ]
    text = "\n".join(header + g.lines) + "\n"
    if a.out == "-":
        sys.stdout.write(text)
    else:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
