#include "schedules/planners/harvest/harvest_flow_cache.h"

#include <algorithm>

#include "core/tolerances.h"
#include "topology/topology_properties.h"

namespace photonsim {

// A decomposition path below tolerance::kNegligiblePathShare of its pair's
// flow is dropped: replaying it could set l_i on its own.

const HarvestFlowCache::Flow& HarvestFlowCache::flow(const Topology& topology, const HarvestStepDemand& demand) {
  ++flow_lookups_;
  Key key{topology, demand};
  if (auto it = flows_.find(key); it != flows_.end()) return it->second;

  Flow flow;
  if (!demand.moves_no_bytes()) {
    ++lp_solves_;
    const ConcurrentFlow solved = max_concurrent_flow(topology, demand.matrix());
    flow.inverse_theta = 1.0 / solved.theta;
    for (const HarvestStepDemand::Entry& e : demand.entries()) {
      const std::vector<FlowPath>& all = solved.paths[e.src][e.dst];
      double total = 0.0;
      for (const FlowPath& p : all) total += p.amount;
      PairPaths pair{e.src, e.dst, {}};
      for (const FlowPath& p : all) {
        if (p.amount <= tolerance::kNegligiblePathShare * total) continue;
        flow.longest_hops = std::max(flow.longest_hops, static_cast<int>(p.links.size()));
        pair.paths.push_back(p);
      }
      flow.pairs.push_back(std::move(pair));
    }
  }
  return flows_.emplace(std::move(key), std::move(flow)).first->second;
}

const std::vector<std::vector<int>>& HarvestFlowCache::distances(const Topology& topology) {
  auto it = distances_.find(topology);
  if (it == distances_.end()) it = distances_.emplace(topology, hop_distances(topology)).first;
  return it->second;
}

}  // namespace photonsim
