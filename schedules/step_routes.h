#pragma once
// Contract: the circuits each transfer of a step crosses, as indices into the
// topology's sorted edge list. Explicit paths are followed hop by hop; others
// take the router's shortest path. Among parallel circuits u -> v, transfer i
// takes circuit (i mod multiplicity), so parallel circuits share the load.
// Simulator and cost models both route through here. Throws Error naming the
// step, transfer and nodes when a hop is not a circuit or dst is unreachable.
#include <cstdint>
#include <vector>

#include "schedules/step.h"
#include "topology/topology.h"

namespace photonsim {

using LinkRoute = std::vector<uint32_t>;

std::vector<LinkRoute> route_step(const Step& step, const Topology& topology, size_t step_index);

}  // namespace photonsim
