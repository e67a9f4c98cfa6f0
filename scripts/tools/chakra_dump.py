#!/usr/bin/env python3
"""Print Chakra execution traces (MLCommons Chakra ET files) one line per node.

  scripts/tools/chakra_dump.py TRACE.et [TRACE.et ...]

Each file is a stream of length-delimited protobuf messages: a GlobalMetadata,
then Nodes. Prints the metadata, then per node: id, type, name, data_deps,
ctrl_deps, duration_micros and the attributes (bytes values by their size:
photonsim's exports hold their schedule in the metadata's
photonsim_schedule). Repeated uint64 fields may be
packed or not. Fields it does not know are skipped. Exits 1, naming the file
and byte offset, on truncated or malformed input. Standard library only.
"""

import sys

NODE_TYPES = {0: "INVALID_NODE", 1: "METADATA_NODE", 2: "MEM_LOAD_NODE", 3: "MEM_STORE_NODE",
              4: "COMP_NODE", 5: "COMM_SEND_NODE", 6: "COMM_RECV_NODE", 7: "COMM_COLL_NODE"}
COMM_TYPES = {0: "ALL_REDUCE", 1: "REDUCE", 2: "ALL_GATHER", 3: "GATHER", 4: "SCATTER",
              5: "BROADCAST", 6: "ALL_TO_ALL", 7: "REDUCE_SCATTER", 8: "REDUCE_SCATTER_BLOCK",
              9: "BARRIER"}
# AttributeProto oneof members read as varints, and how to show them.
VARINT_ATTRS = {7: "int32", 9: "int64", 11: "uint32", 13: "uint64", 27: "bool"}


class Malformed(Exception):
    pass


def read_varint(data, pos, end):
    value, shift = 0, 0
    while True:
        if pos >= end:
            raise Malformed("truncated varint")
        b = data[pos]
        value |= (b & 0x7F) << shift
        pos += 1
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift >= 64:
            raise Malformed("varint longer than 10 bytes")


def fields(data, start=0, end=None):
    """Yield (field, wire_type, value) of one message; value is an int for
    varints and fixed32/64, a bytes slice for length-delimited fields."""
    pos = start
    end = len(data) if end is None else end
    while pos < end:
        key, pos = read_varint(data, pos, end)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = read_varint(data, pos, end)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            if pos + size > end:
                raise Malformed("truncated fixed%d field %d" % (size * 8, field))
            value = int.from_bytes(data[pos:pos + size], "little")
            pos += size
        elif wire == 2:
            size, pos = read_varint(data, pos, end)
            if pos + size > end:
                raise Malformed("field %d declares %d bytes, %d remain" % (field, size, end - pos))
            value = data[pos:pos + size]
            pos += size
        else:
            raise Malformed("field %d has unsupported wire type %d" % (field, wire))
        if field == 0:
            raise Malformed("field number 0")
        yield field, wire, value


def repeated_uint64(out, wire, value):
    if wire == 0:  # unpacked: one varint per field
        out.append(value)
    elif wire == 2:  # packed: a run of varints
        pos = 0
        while pos < len(value):
            v, pos = read_varint(value, pos, len(value))
            out.append(v)
    else:
        raise Malformed("repeated uint64 with wire type %d" % wire)


def text(value):
    return bytes(value).decode("utf-8", errors="replace")


def attribute(data):
    name, shown = "", "?"
    for field, wire, value in fields(data):
        if field == 1 and wire == 2:
            name = text(value)
        elif field in VARINT_ATTRS and wire == 0:
            kind = VARINT_ATTRS[field]
            if kind == "bool":
                shown = "true" if value else "false"
            elif kind in ("int32", "int64") and value >= 1 << 63:
                shown = str(value - (1 << 64))
            else:
                shown = str(value)
        elif field == 29 and wire == 2:
            shown = '"%s"' % text(value)
        elif field == 31 and wire == 2:
            shown = "<%d bytes>" % len(value)
        elif field != 2:
            shown = "<field %d>" % field
    if name == "comm_type" and shown.isdigit():
        shown += "(%s)" % COMM_TYPES.get(int(shown), "?")
    return "%s=%s" % (name, shown)


def node_line(data):
    node = {"id": 0, "name": "", "type": 0, "dur": 0}
    data_deps, ctrl_deps, attrs = [], [], []
    for field, wire, value in fields(data):
        if field == 1 and wire == 0:
            node["id"] = value
        elif field == 2 and wire == 2:
            node["name"] = text(value)
        elif field == 3 and wire == 0:
            node["type"] = value
        elif field == 4:
            repeated_uint64(ctrl_deps, wire, value)
        elif field == 5:
            repeated_uint64(data_deps, wire, value)
        elif field == 7 and wire == 0:
            node["dur"] = value
        elif field == 10 and wire == 2:
            attrs.append(attribute(value))
    kind = NODE_TYPES.get(node["type"], "UNKNOWN_TYPE_%d" % node["type"])
    line = "%4d %-14s %-28s data_deps=%s" % (node["id"], kind, node["name"],
                                              ",".join(map(str, data_deps)) or "-")
    if ctrl_deps:
        line += " ctrl_deps=%s" % ",".join(map(str, ctrl_deps))
    if node["dur"]:
        line += " dur=%dus" % node["dur"]
    return line + ("  " + " ".join(attrs) if attrs else "")


def dump(path):
    with open(path, "rb") as f:
        data = f.read()
    pos, index = 0, 0
    while pos < len(data):
        start = pos
        try:
            size, pos = read_varint(data, pos, len(data))
            if pos + size > len(data):
                raise Malformed("message declares %d bytes, only %d remain" % (size, len(data) - pos))
            message = data[pos:pos + size]
            if index == 0:
                version = [text(v) for f, w, v in fields(message) if f == 1 and w == 2]
                attrs = [attribute(v) for f, w, v in fields(message) if f == 2 and w == 2]
                print("%s: GlobalMetadata version=%s%s" % (path, version[0] if version else '""',
                                                           "".join("  " + a for a in attrs)))
            else:
                print(node_line(message))
        except Malformed as e:
            what = "GlobalMetadata" if index == 0 else "node message %d" % (index - 1)
            raise Malformed("%s: %s at byte %d: %s" % (path, what, start, e))
        pos += size
        index += 1
    if index == 0:
        raise Malformed("%s: empty file (no GlobalMetadata)" % path)


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) >= 2 else 2
    try:
        for path in sys.argv[1:]:
            dump(path)
    except Malformed as e:
        sys.stdout.flush()
        print("chakra_dump: error: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("chakra_dump: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
