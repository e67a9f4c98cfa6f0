#pragma once
// Contract: what a task graph will take in memory, estimated before its
// structures are built, for MemoryBudget::check (as memory_estimate.h does
// for one collective): from a graph file's size before it is read, from
// Chakra traces' sizes before they are parsed, and from the node and
// dependency counts before the graph is built and run. Calibrated with
// scripts/dev/bench --graph: chains of 200,000 compute nodes, sends, or a mix
// with AllReduces peak at about 300 MiB, 1.5 KB per node (the nodes, their
// locations, the graph, the two runs' state and results, the report), their
// files holding 70-85 bytes per node. The estimates are deliberately low
// (1 KB per node, and as few nodes as 128-byte lines give): past them
// MemoryBudget::enforce still stops the run cleanly.
#include <cstdint>

namespace photonsim {

// Fewest nodes a file of S bytes is assumed to hold: S / 128 (generated
// graphs' node lines run 55-140 bytes, a Chakra node 40-70 bytes a rank).
inline constexpr uint64_t kGraphFileBytesPerNode = 128;
inline constexpr uint64_t kGraphBytesPerNode = 1024;
inline constexpr uint64_t kGraphBytesPerEdge = 32;

inline uint64_t graph_memory_estimate(uint64_t nodes, uint64_t edges) {
  return nodes * kGraphBytesPerNode + edges * kGraphBytesPerEdge;
}

// A graph file or Chakra traces of `bytes`: the text, and the nodes it holds.
inline uint64_t graph_file_memory_estimate(uint64_t bytes) {
  return bytes + graph_memory_estimate(bytes / kGraphFileBytesPerNode, 0);
}

}  // namespace photonsim
