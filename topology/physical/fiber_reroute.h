#pragma once
// Contract: rip-up and reroute, to improve the routing CBC starts from. In
// demand order, each demand leaves its path and takes the cheapest (path,
// wavelength w <= its index) where an edge costs 1, or M if adding the
// circuit lifts its slot's fibers (the edge's, or with shared directions its
// link's) to the current most z, or M^2 above z (M = servers + 1): fewest
// slots newly at z, then fewest hops, ties to the lower server and
// wavelength. The old path is a candidate, so neither z nor the slots at z
// ever grow; passes repeat while (z, slots at z) falls,
// at most `passes` times. A slot's fibers count the ones it lost (`lost`:
// FiberRoutingOptions::lost). Paths stay simple; loads and fibers refilled.
// Deterministic.
#include <vector>

#include "topology/physical/fiber_loads.h"
#include "topology/physical/fiber_routing.h"

namespace photonsim {

void reroute_fibers(const FiberEdges& edges, int servers, const std::vector<FiberDemand>& demands, int wavelengths,
                    const std::vector<int>& existing, int passes, FiberRouting& routing,
                    const std::vector<int>& lost = {});

}  // namespace photonsim
