#pragma once
// Contract: the routing CBC starts from, so a time-limited solve always has
// a feasible answer: every demand on its dimension-order path (along its
// row, then along its column); in demand order, each demand i takes the
// wavelength w <= i (route_fibers' symmetry breaking) that least raises the
// most circuits of one wavelength on its path's slots (edges, or links with
// shared directions: see fiber_loads.h), ties to the lower w. Loads and
// fibers filled (`lost`: FiberRoutingOptions::lost). Deterministic.
#include <vector>

#include "topology/physical/fiber_loads.h"
#include "topology/physical/fiber_routing.h"
#include "topology/physical/server_grid.h"

namespace photonsim {

FiberRouting fiber_start_routing(const ServerGrid& grid, const FiberEdges& edges,
                                 const std::vector<FiberDemand>& demands, int wavelengths,
                                 const std::vector<int>& existing, const std::vector<int>& lost = {});

}  // namespace photonsim
