#pragma once
// Contract: an all-to-all on one static topology routed by max concurrent
// flow (topology/flow/max_concurrent_flow.h) and run as ONE round: every flow
// starts at once and shares circuits, as a static multipath design runs.
// DirectConnect's routing, shared with MixNet's `routing:
// max_concurrent_flow`. Demand is normalised by the largest flow, so theta is
// the share of a circuit's rate the largest flow gets when every pair sends
// at once. Each pair's bytes are split over its LP paths in proportion to
// their flow, in whole bytes (cumulative rounding: the pieces sum to the
// demand). Where every GPU has one circuit out (k = 1) each pair's one path
// is forced: theta comes from max_concurrent_flow_theta and each flow keeps
// its path implicit (the walk along the circuits), so memory stays O(n^2),
// not O(n^3) nodes.
#include <optional>
#include <string>

#include "schedules/alltoall/alltoall_strategy.h"
#include "schedules/alltoall/joint_synthesizer.h"
#include "topology/flow/max_concurrent_flow.h"
#include "topology/topology.h"

namespace photonsim {

struct ConcurrentRouting {
  Topology topology;
  double theta = 0.0;
  std::optional<ConcurrentFlow> flow;  // none when the routing is forced
};

// The input's demand routed on `topology`.
ConcurrentRouting route_concurrently(Topology topology, const JointInput& input);

// The one-round strategy of `routed`; its construction is "<topology name>,
// max concurrent flow theta <theta>, one concurrent round". `who` names the
// synthesizer in errors.
AlltoallStrategy concurrent_round_strategy(ConcurrentRouting routed, const JointInput& input, const std::string& who);

}  // namespace photonsim
