#pragma once
// Contract: one flow a run injects: its bytes, the circuits it crosses in
// order, and its place in the egress order (step, then place in the schedule).
#include <cstdint>
#include <vector>

#include "core/units.h"

namespace photonsim {

struct FlowSpec {
  Bytes bytes;
  std::vector<uint32_t> route;  // circuit indices (slots: GPU * ports + port)
  // The schedule step the flow belongs to: with egress_order = chunk, a port
  // sends an earlier step's packets first when steps overlap (dataflow).
  uint32_t step = 0;
  // Its place in the schedule (step by step, then its place in the step):
  // the egress order's last tie, whatever order flows joined the network in.
  uint32_t place = 0;
};

}  // namespace photonsim
