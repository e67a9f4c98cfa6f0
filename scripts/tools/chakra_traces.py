#!/usr/bin/env python3
"""Write Chakra execution traces (MLCommons Chakra ET, schema 0.0.4) of one
data x tensor parallel training iteration, one file per rank.

  scripts/tools/chakra_traces.py [--ranks 8] [--tp 2] [--layers 2] [--fwd-us 50]
      [--bwd-us 100] [--tp-bytes 1048576] [--dp-bytes 8388608]
      [--collective allreduce|allgather|reducescatter|alltoall|broadcast]
      [--p2p] [--p2p-bytes 65536] [--bad KIND] --out PREFIX

writes PREFIX.0.et .. PREFIX.{N-1}.et (creating PREFIX's folder). Each file
is a stream of length-delimited protobuf messages (varint byte length, then
the bytes): a GlobalMetadata (version "0.0.4"), then one Node per node, ids
0, 1, 2, ... Rank r = d*T + t is TP rank t of replica d: its TP group is
ranks d*T .. d*T+T-1 (pg_name "tp<d>"), its DP group {t, T+t, 2T+t, ...}
(pg_name "dp<t>"). Per rank: for each layer a COMP_NODE "layer<i>.fwd" then
an ALL_REDUCE over the TP group; with --p2p a COMM_SEND_NODE to rank r+1 and
a COMM_RECV_NODE from rank r-1 (mod N), both after the forward pass and both
needed by the backward pass; for each layer in reverse "layer<i>.bwd" then a
TP ALL_REDUCE; last the DP collective (--collective) of --dp-bytes. Every
node depends (data_deps) on the node before it. No TP collectives with
--tp 1, no DP collective with one replica. The same arguments give the same
bytes.

--bad KIND writes deliberately malformed traces for error tests (the damage
is on rank 0 unless said otherwise):
  truncated       the last node's message cut short (file ends mid-message)
  mem-load        an extra MEM_LOAD_NODE (type 2), which readers may ignore
  unknown-type    that MEM_LOAD_NODE and then a node of type 99
  missing-size    the first COMM_COLL_NODE has no comm_size
  self-dep        node 1 lists itself in data_deps
  unmatched-send  implies --p2p; rank 1 has no recv for rank 0's send
"""

import argparse
import os
import sys

VERSION = "0.0.4"

# NodeType and CollectiveCommType values of schema/protobuf/et_def.proto.
MEM_LOAD_NODE = 2
COMP_NODE = 4
COMM_SEND_NODE = 5
COMM_RECV_NODE = 6
COMM_COLL_NODE = 7
COLLECTIVES = {  # --collective -> (CollectiveCommType, node name)
    "allreduce": (0, "all_reduce"),
    "allgather": (2, "all_gather"),
    "broadcast": (5, "broadcast"),
    "alltoall": (6, "all_to_all"),
    "reducescatter": (7, "reduce_scatter"),
}
BAD_KINDS = ["truncated", "mem-load", "unknown-type", "missing-size", "self-dep", "unmatched-send"]

# --- protobuf wire format, only what the fields below need ---------------
VARINT, LEN = 0, 2  # wire types


def varint(value):
    assert value >= 0  # no negative int64 is ever written (no zigzag needed)
    out = bytearray()
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(0x80 | bits)
        else:
            out.append(bits)
            return bytes(out)


def key(field, wire_type):
    return varint(field << 3 | wire_type)


def f_varint(field, value):
    return key(field, VARINT) + varint(value)


def f_bytes(field, data):
    return key(field, LEN) + varint(len(data)) + data


def f_string(field, text):
    return f_bytes(field, text.encode("utf-8"))


def f_packed(field, values):
    # proto3 packs repeated scalars: one LEN field of concatenated varints.
    return f_bytes(field, b"".join(varint(v) for v in values)) if values else b""


# AttributeProto: name = 1; oneof value { int32_val = 7; int64_val = 9;
# bool_val = 27; string_val = 29 }. A oneof member is written even when it
# is 0 / false, as protoc does (it has presence). An attribute here is a
# (name, kind, value) tuple.
ATTR_FIELDS = {"int32": 7, "int64": 9, "bool": 27, "string": 29}


def encode_attr(attr):
    name, kind, value = attr
    field = ATTR_FIELDS[kind]
    if kind == "string":
        return f_string(1, name) + f_string(field, value)
    return f_string(1, name) + f_varint(field, int(value))


def encode_node(node):
    """Node: id = 1, name = 2, type = 3, ctrl_deps = 4, data_deps = 5,
    duration_micros = 7, attr = 10. Plain proto3 scalars equal to their
    default (0, "") are left out, as protoc leaves them out."""
    out = b""
    if node["id"]:
        out += f_varint(1, node["id"])
    if node["name"]:
        out += f_string(2, node["name"])
    out += f_varint(3, node["type"])
    out += f_packed(4, node.get("ctrl_deps", []))
    out += f_packed(5, node["data_deps"])
    if node.get("dur"):
        out += f_varint(7, node["dur"])
    for attr in node["attrs"]:
        out += f_bytes(10, encode_attr(attr))
    return out


def encode_metadata():
    return f_string(1, VERSION)  # GlobalMetadata: version = 1


def delimited(message):
    return varint(len(message)) + message


# --- the iteration ---------------------------------------------------------
def rank_nodes(rank, args, skip_recv=False):
    """The nodes of one rank, in file order, each depending on the one before
    it (the node after a send/recv pair depends on both)."""
    n, tp = args.ranks, args.tp
    replica, tp_rank = divmod(rank, tp)
    replicas = n // tp
    nodes = []
    join = None  # deps of the next node when it is not just the last node

    def add(name, type_, attrs, dur=0, deps=None):
        nonlocal join
        if deps is None:
            deps = join if join is not None else [len(nodes) - 1] if nodes else []
            join = None
        nodes.append({"id": len(nodes), "name": name, "type": type_, "data_deps": deps,
                      "dur": dur, "attrs": [("is_cpu_op", "bool", False)] + attrs})

    def compute(name, us):
        add(name, COMP_NODE, [], dur=us)

    def collective(name, comm_type, size, pg_name, extra=()):
        add(name, COMM_COLL_NODE, [("comm_type", "int64", comm_type),
                                   ("comm_size", "int64", size),
                                   ("pg_name", "string", pg_name), *extra])

    def tp_allreduce(layer, phase):
        if tp > 1:
            collective("layer%d.%s.tp_all_reduce" % (layer, phase), 0, args.tp_bytes,
                       "tp%d" % replica)

    for layer in range(args.layers):
        compute("layer%d.fwd" % layer, args.fwd_us)
        tp_allreduce(layer, "fwd")
    if args.p2p:
        # Send and recv both wait only for the forward pass, so no send/recv
        # order can deadlock the ring; the next node needs both.
        before = [len(nodes) - 1] if nodes else []
        dst, src = (rank + 1) % n, (rank - 1) % n
        add("p2p.send_to_%d" % dst, COMM_SEND_NODE, p2p_attrs(args, rank, dst), deps=before)
        join = [len(nodes) - 1]
        if not skip_recv:
            add("p2p.recv_from_%d" % src, COMM_RECV_NODE, p2p_attrs(args, src, rank),
                deps=before)
            join.append(len(nodes) - 1)
    for layer in reversed(range(args.layers)):
        compute("layer%d.bwd" % layer, args.bwd_us)
        tp_allreduce(layer, "bwd")
    if replicas > 1:
        comm_type, cname = COLLECTIVES[args.collective]
        extra = [("root", "int64", tp_rank)] if args.collective == "broadcast" else []
        collective("dp_" + cname, comm_type, args.dp_bytes, "dp%d" % tp_rank, extra)
    return nodes


def p2p_attrs(args, src, dst):
    # comm_src / comm_dst / comm_tag are int32_val: Chakra's et_feeder reads
    # them so. The tag is the sender's rank (one message per ordered pair).
    return [("comm_size", "int64", args.p2p_bytes), ("comm_src", "int32", src),
            ("comm_dst", "int32", dst), ("comm_tag", "int32", src)]


def damage(bad, nodes):
    """Break rank 0's nodes as --bad asks (all but truncated)."""
    if not nodes:
        sys.exit("chakra_traces: --bad %s needs at least one node" % bad)
    last = nodes[-1]["id"]
    if bad in ("mem-load", "unknown-type"):
        nodes.append({"id": last + 1, "name": "mem_load", "type": MEM_LOAD_NODE,
                      "data_deps": [last], "attrs": []})
    if bad == "unknown-type":
        nodes.append({"id": last + 2, "name": "mystery", "type": 99,
                      "data_deps": [last + 1], "attrs": []})
    if bad == "missing-size":
        coll = next((x for x in nodes if x["type"] == COMM_COLL_NODE), None)
        if coll is None:
            sys.exit("chakra_traces: --bad missing-size needs a collective (--tp > 1 or > 1 replica)")
        coll["attrs"] = [a for a in coll["attrs"] if a[0] != "comm_size"]
    if bad == "self-dep":
        if len(nodes) < 2:
            sys.exit("chakra_traces: --bad self-dep needs at least two nodes")
        nodes[1]["data_deps"] = nodes[1]["data_deps"] + [nodes[1]["id"]]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--ranks", type=int, default=8)
    p.add_argument("--tp", type=int, default=2)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--fwd-us", type=int, default=50)
    p.add_argument("--bwd-us", type=int, default=100)
    p.add_argument("--tp-bytes", type=int, default=1048576)
    p.add_argument("--dp-bytes", type=int, default=8388608)
    p.add_argument("--collective", choices=sorted(COLLECTIVES), default="allreduce")
    p.add_argument("--p2p", action="store_true")
    p.add_argument("--p2p-bytes", type=int, default=65536)
    p.add_argument("--bad", choices=BAD_KINDS)
    p.add_argument("--out", required=True, metavar="PREFIX")
    args = p.parse_args()
    if args.bad == "unmatched-send":
        args.p2p = True
    if args.ranks < 1 or args.tp < 1 or args.ranks % args.tp:
        p.error("--tp must divide --ranks (both >= 1)")
    if args.layers < 0 or min(args.fwd_us, args.bwd_us, args.tp_bytes, args.dp_bytes,
                              args.p2p_bytes) < 0:
        p.error("--layers, durations and byte counts must be >= 0")
    if args.p2p and args.ranks < 2:
        p.error("--p2p needs at least two ranks")

    folder = os.path.dirname(args.out)
    if folder:
        os.makedirs(folder, exist_ok=True)
    for rank in range(args.ranks):
        # Rank 0 sends to rank 1; for unmatched-send rank 1 posts no recv.
        nodes = rank_nodes(rank, args, skip_recv=(args.bad == "unmatched-send" and rank == 1))
        if rank == 0 and args.bad:
            damage(args.bad, nodes)
        data = delimited(encode_metadata())
        messages = [encode_node(x) for x in nodes]
        for i, message in enumerate(messages):
            framed = delimited(message)
            if rank == 0 and args.bad == "truncated" and i == len(messages) - 1:
                framed = framed[:len(framed) - max(1, len(message) // 2)]
            data += framed
        with open("%s.%d.et" % (args.out, rank), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
