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
  // A closed window (0: none): the injector's promise that the `window_flows`
  // flows tagged `window`, all starting at one instant, are the only traffic
  // it puts on their circuits until the last of them is delivered, and that
  // it changes none of those circuits meanwhile. A data plane may then reuse
  // what an identical window did before (TrainNetwork: exact reuse).
  uint64_t window = 0;
  uint32_t window_flows = 0;
};

}  // namespace photonsim
