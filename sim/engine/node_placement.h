#pragma once
// Contract: where a task-graph node's schedule runs on the fabric - its GPU i
// is the fabric's gpu[i], its port slot j (GPU * ports + port) the fabric's
// slot[j] - and where its steps and flow places fall in the graph's egress
// order. Empty gpu and slot: the schedule is the whole fabric's.
#include <cstdint>
#include <vector>

#include "topology/topology.h"

namespace photonsim {

struct NodePlacement {
  std::vector<Node> gpu;
  std::vector<uint32_t> slot;
  uint32_t fabric_slots = 0;
  // Added to its steps and flow places: the egress order across the graph.
  uint32_t step_base = 0;
  uint32_t place_base = 0;
};

}  // namespace photonsim
