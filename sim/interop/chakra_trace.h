#pragma once
// Contract: MLCommons Chakra execution traces in, a photonsim task graph out
// (YAML `workload.graph: {chakra: PREFIX}`), read as ASTRA-sim (the reference
// consumer) runs them. Reads PREFIX.0.et, PREFIX.1.et, ... while they exist
// (rank N = file N), or PREFIX.0.et alone on N ranks (`replicate: N`): each a
// stream of length-delimited protobuf messages, the GlobalMetadata (any
// version: 0.0.4, 1.0.0 and the PyTorch converter's empty one share the wire
// format) then one Node each (chakra_et.proto). Mapping, per rank:
//  - any node with is_cpu_op true (but METADATA and INVALID): a delay node of
//    duration_micros on the rank's host, holding no GPU or port (0 us: passed
//    through), as ASTRA-sim replays CPU operators; c10d's CPU-side
//    COMM_COLL_NODEs, which carry no comm_type, are such nodes;
//  - COMP_NODE: a compute node on the rank's GPU for duration_micros (0 us:
//    passed through, its dependencies handed to its dependents);
//  - COMM_COLL_NODE (attrs comm_type, comm_size in bytes, pg_name; root for
//    broadcast): the k-th collective of process group pg_name on every rank
//    that has one is one collective node over those ranks (no pg_name: all
//    ranks). comm_size as ASTRA-sim reads it: ALL_REDUCE and REDUCE_SCATTER
//    the rank's whole buffer, ALL_GATHER the rank's input (photonsim's
//    message: comm_size x group), ALL_TO_ALL the rank's whole buffer
//    (photonsim's per-flow message: comm_size / group), BROADCAST the buffer;
//    REDUCE, GATHER, SCATTER, REDUCE_SCATTER_BLOCK and BARRIER are passed
//    through with a warning;
//  - COMM_SEND_NODE (comm_dst, comm_size, comm_tag) is a p2p node that starts
//    after its own dependencies; the k-th COMM_RECV_NODE (comm_src,
//    comm_tag) with the same source, destination and tag takes no time and
//    hands on its dependencies and that send (ASTRA-sim: a send ends when its
//    data arrives, a receive when its data has arrived and it was issued);
//  - METADATA_NODE, MEM_LOAD_NODE, MEM_STORE_NODE, INVALID_NODE: passed
//    through with a warning; any other type is an error.
// Dependencies are data_deps (ids within the rank's file), as Chakra's feeder
// reads them: ctrl_deps are counted in a warning, not read (Chakra's PyTorch
// converter turns the ordering ones into data_deps and leaves the rest on
// removed operators, on the node itself, even in cycles). A
// rank's compute nodes run one at a time in the file's order, and so do its
// collectives and its host delays (ASTRA-sim's one of each in flight).
// Values are taken exactly or refused, never clamped, saturated or wrapped:
// duration_micros past the time range (int64 picoseconds), integer
// attributes past int64, a broadcast root that is no rank, an all-gather
// past the size range.
// Every error is one line naming the file and the node (id and name):
// truncated or unparsable messages, unknown types, missing attributes,
// out-of-range values (with the field and the limit), dependencies on itself
// or on no node, unmatched sends or receives (or of different comm_size),
// ranks disagreeing on a collective, sends in a replicated trace.
// photonsim's own export (chakra_writer.h) is read back as what it is:
//  - when rank 0's GlobalMetadata holds a schedule (attribute
//    photonsim_schedule) and every rank's nodes are byte for byte the ones
//    chakra_traces_of writes for it (one file per GPU of the schedule), the
//    result is that schedule and no nodes: it runs as `photonsim replay`
//    runs a schedule file, so the round trip is exact (routes, ports, the
//    initial topology and the reconfigurations as the schedule has them). A
//    photonsim_schedule that does not parse is an error naming the file;
//  - otherwise (the nodes were edited, or the schedule left out) the nodes
//    are read as above, with one warning line saying why when a schedule was
//    there, and a COMP_NODE marked photonsim_reconfiguration (true) is passed
//    through, not run as compute: each send sets up its own circuit
//    (fabric.reconfig_delay), which is that reconfiguration, so it is not
//    charged twice.
#include <optional>
#include <string>
#include <vector>

#include "core/spec/task_graph.h"
#include "schedules/model/schedule.h"

namespace photonsim {

struct ChakraGraph {
  int ranks = 0;
  // photonsim's own export, unmodified: the schedule it holds (then `nodes`
  // is empty).
  std::optional<Schedule> schedule;
  std::vector<TaskNode> nodes;
  std::vector<std::string> locations;  // per node: "PREFIX.N.et: node ID (NAME)" of its first trace node
  std::vector<std::string> warnings;   // one line each, counted per kind
  std::vector<std::string> files;      // the trace files read, rank by rank (empty from bytes)
};

// Throws Error. `shown_prefix` is how messages name the files (the path as
// the user wrote it).
// `replicate` N >= 2: PREFIX.0.et alone, run as each of ranks 0..N-1 (0: off).
ChakraGraph read_chakra_traces(const std::string& prefix, const std::string& shown_prefix, int replicate = 0);
// The same from the files' bytes, rank by rank, named `shown[r]` in messages.
ChakraGraph chakra_graph_from_bytes(const std::vector<std::string>& ranks, const std::vector<std::string>& shown,
                                    int replicate = 0);

}  // namespace photonsim
