"""Task graphs from Python: photonsim.transformer_graph, the generator of
scripts/tools/transformer_graph.py (one training iteration of a Bert-like
transformer under data x tensor x pipeline parallelism), as a list of node
dicts for a config's workload.graph."""

import argparse
import importlib.util
import os


def _generator():
    here = os.path.dirname(os.path.realpath(__file__))
    path = os.path.join(here, os.pardir, os.pardir, "scripts", "tools", "transformer_graph.py")
    spec = importlib.util.spec_from_file_location("photonsim_transformer_graph", os.path.normpath(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def transformer_graph(gpus, tp=4, pp=2, layers=4, microbatches=1, fwd="60us", bwd="120us", tp_bytes="2MB",
                      p2p_bytes="1MB", dp_bytes=None, dp_bucket=None, dp_per_layer=None):
    """The task graph's nodes (dicts: name, type, gpus, duration or
    collective and message, src/dst/bytes, after), as
    `scripts/tools/transformer_graph.py --gpus G --tp T ...` writes them.
    Sizes and times are strings with units ("2MB", "60us"); dp_per_layer a
    list of sizes. Put the list in a config: {"workload": {"graph": nodes}}."""
    g = _generator()

    def size(text):
        return g.size(str(text))

    def fail(message):
        raise ValueError(f"transformer_graph: {message}")

    if gpus % (tp * pp) != 0:
        fail(f"gpus {gpus} is not a multiple of tp * pp = {tp * pp}")
    if layers % pp != 0:
        fail(f"layers {layers} is not a multiple of pp = {pp}")
    if dp_per_layer and tp > 1:
        fail("dp_per_layer needs tp = 1")
    if dp_per_layer and (dp_bytes is not None or dp_bucket is not None):
        fail("dp_per_layer names every gradient AllReduce itself: drop dp_bytes and dp_bucket")
    try:
        a = argparse.Namespace(
            gpus=int(gpus), tp=int(tp), pp=int(pp), layers=int(layers), microbatches=int(microbatches),
            fwd=g.duration(str(fwd)), bwd=g.duration(str(bwd)), tp_bytes=size(tp_bytes), p2p_bytes=size(p2p_bytes),
            dp_bytes=size(dp_bytes) if dp_bytes is not None else 64 * 10**6,
            dp_bucket=size(dp_bucket) if dp_bucket is not None else None,
            dp_per_layer=[size(b) for b in dp_per_layer] if dp_per_layer else None)
    except argparse.ArgumentTypeError as e:
        fail(str(e))
    if a.dp_bucket is None:
        a.dp_bucket = a.dp_bytes
    if min(a.fwd, a.bwd) < 2:
        fail("fwd and bwd must be at least 2ps")
    graph, _ = g.build(a)
    return graph.nodes
