#pragma once
// Contract: theta(G, M_i), l_i and (optionally) the flow's paths as
// HarvestFlowCache keeps them, for a topology with one circuit out of every
// GPU. There each pair's only path is the walk along the circuits, so
// max_concurrent_flow takes its forced routing; this returns the same values
// bit for bit without that function's n x n tables (the DemandMatrix, the
// paths[s][t] grid and edge_flow), which dominated Harvest's time and memory
// at n = 1024. On a permutation (`cycles` given) with every pair carrying the
// same units the loads are pair counts from a difference array over the
// cycles, O(pairs + n); otherwise each pair's walk is followed, O(sum of
// hops), adding its share in the order max_concurrent_flow adds it.
// Returns nullopt when max_concurrent_flow must answer instead: no bytes, a
// pair u -> u, or a pair without a route (it throws, naming the pair).
#include <optional>

#include "schedules/cost/harvest/harvest_cycles.h"
#include "schedules/cost/harvest/harvest_flow_cache.h"
#include "schedules/cost/harvest/harvest_step_demand.h"
#include "topology/topology.h"

namespace photonsim {

// Requires topology.one_circuit_out_of_every_gpu(); `cycles` may be null.
std::optional<HarvestFlowCache::Flow> harvest_forced_flow(const Topology& topology, const HarvestCycles* cycles,
                                                          const HarvestStepDemand& demand, bool with_paths);

}  // namespace photonsim
