#pragma once
// Contract: MLCommons Chakra execution traces in, a photonsim task graph out
// (YAML `workload.graph: {chakra: PREFIX}`). Reads PREFIX.0.et, PREFIX.1.et,
// ... while they exist (rank N = file N): each a stream of length-delimited
// protobuf messages, the GlobalMetadata then one Node each (chakra_et.proto,
// Chakra ET 0.0.4's field numbers). Mapping, per rank:
//  - COMP_NODE: a compute node on the rank's GPU for duration_micros (0 us:
//    passed through, its dependencies handed to its dependents);
//  - COMM_COLL_NODE (attrs comm_type, comm_size in bytes, pg_name; root for
//    broadcast): the k-th collective of process group pg_name on every rank
//    that has one is one collective node over those ranks (no pg_name: all
//    ranks); ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL (comm_size
//    split evenly over the group: photonsim's per-flow message) and
//    BROADCAST are read; REDUCE, GATHER, SCATTER, REDUCE_SCATTER_BLOCK and
//    BARRIER are passed through with a warning;
//  - COMM_SEND_NODE (comm_dst, comm_size, comm_tag) and COMM_RECV_NODE
//    (comm_src, comm_tag): the k-th send from s to d with a tag and the k-th
//    matching receive are one p2p node;
//  - METADATA_NODE, MEM_LOAD_NODE, MEM_STORE_NODE, INVALID_NODE: passed
//    through with a warning; any other type is an error.
// Dependencies are data_deps and ctrl_deps (ids within the rank's file). A
// rank's compute nodes run one at a time in the file's order, and so do its
// collectives (the task graph requires it of nodes sharing a GPU).
// Values are taken exactly or refused, never clamped, saturated or wrapped:
// duration_micros past the time range (int64 picoseconds), integer
// attributes past int64, a broadcast root that is no rank.
// Every error is one line naming the file and the node (id and name):
// truncated or unparsable messages, unknown types, missing attributes,
// out-of-range values (with the field and the limit), dependencies on itself
// or on no node, unmatched sends or receives, ranks disagreeing on a
// collective.
#include <string>
#include <vector>

#include "core/spec/task_graph.h"

namespace photonsim {

struct ChakraGraph {
  int ranks = 0;
  std::vector<TaskNode> nodes;
  std::vector<std::string> locations;  // per node: "PREFIX.N.et: node ID (NAME)" of its first trace node
  std::vector<std::string> warnings;   // one line each, counted per kind
  std::vector<std::string> files;      // the trace files read, rank by rank (empty from bytes)
};

// Throws Error. `shown_prefix` is how messages name the files (the path as
// the user wrote it).
ChakraGraph read_chakra_traces(const std::string& prefix, const std::string& shown_prefix);
// The same from the files' bytes, rank by rank, named `shown[r]` in messages.
ChakraGraph chakra_graph_from_bytes(const std::vector<std::string>& ranks, const std::vector<std::string>& shown);

}  // namespace photonsim
