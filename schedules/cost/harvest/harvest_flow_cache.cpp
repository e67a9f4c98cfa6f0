#include "schedules/cost/harvest/harvest_flow_cache.h"

#include <algorithm>

#include "core/tolerances.h"
#include "schedules/cost/harvest/harvest_forced_flow.h"
#include "schedules/model/step_routes.h"

namespace photonsim {

size_t HarvestFlowCache::topology_id(const Topology& topology) {
  const auto [it, inserted] = topology_ids_.emplace(topology, topologies_.size());
  if (inserted) {
    StoredTopology stored;
    stored.topology = &it->first;
    stored.forced = topology.one_circuit_out_of_every_gpu();
    stored.cycles = HarvestCycles::of(topology);
    topologies_.push_back(std::move(stored));
  }
  return it->second;
}

size_t HarvestFlowCache::shape_id(const HarvestStepDemand& demand) {
  const auto [it, inserted] = shape_ids_.emplace(demand, shapes_.size());
  if (inserted) shapes_.push_back(&it->first);
  return it->second;
}

namespace {

// Every pair on its shortest path (route_step's, as the simulator routes a
// transfer without routes): the busiest circuit's units and the most hops.
void add_shortest_paths(const Topology& topology, const HarvestStepDemand& demand, HarvestFlowCache::Flow& flow) {
  std::vector<Transfer> transfers;
  transfers.reserve(demand.entries().size());
  for (const HarvestStepDemand::Entry& e : demand.entries()) {
    Transfer t;
    t.src = e.src;
    t.dst = e.dst;
    t.bytes = Bytes(static_cast<int64_t>(e.units));
    transfers.push_back(std::move(t));
  }
  std::vector<double> load(topology.edges().size(), 0.0);
  int hops = 0;
  for_each_routed_flow(Step{0, std::move(transfers)}, topology, 0, [&](RoutedFlow&& routed) {
    for (uint32_t link : routed.links) load[link] += static_cast<double>(routed.bytes.count());
    hops = std::max(hops, static_cast<int>(routed.links.size()));
  });
  flow.shortest_inverse_theta = load.empty() ? 0.0 : *std::max_element(load.begin(), load.end());
  flow.shortest_hops = hops;
}

}  // namespace

// A decomposition path below tolerance::kNegligiblePathShare of its pair's
// flow is dropped: replaying it could set l_i on its own.
HarvestFlowCache::Flow HarvestFlowCache::solve(size_t topology, size_t shape, bool with_paths) const {
  const StoredTopology& g = topologies_[topology];
  const HarvestStepDemand& demand = *shapes_[shape];
  Flow flow;
  if (demand.moves_no_bytes()) return flow;
  if (g.forced) {
    std::optional<Flow> forced = harvest_forced_flow(*g.topology, cycles(topology), demand, with_paths);
    if (forced) {
      forced->shortest_inverse_theta = forced->inverse_theta;  // the only paths are the shortest
      forced->shortest_hops = forced->longest_hops;
      return std::move(*forced);
    }
  }
  const ConcurrentFlow solved = max_concurrent_flow(*g.topology, demand.matrix());
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
  add_shortest_paths(*g.topology, demand, flow);
  return flow;
}

HarvestFlowCache::Cost HarvestFlowCache::cost(size_t topology, size_t shape) {
  ++flow_lookups_;
  const uint64_t k = key(topology, shape);
  if (auto it = costs_.find(k); it != costs_.end()) return it->second;
  if (!shapes_[shape]->moves_no_bytes()) ++lp_solves_;
  // Without one circuit out of every GPU the paths come with the LP: keep them.
  const bool keep_paths = !topologies_[topology].forced;
  Flow flow = solve(topology, shape, keep_paths);
  const Cost c{flow.inverse_theta, flow.longest_hops, flow.shortest_inverse_theta, flow.shortest_hops};
  if (keep_paths) flows_.emplace(k, std::move(flow));
  return costs_.emplace(k, c).first->second;
}

HarvestFlowCache::Flow HarvestFlowCache::flow(size_t topology, size_t shape) {
  ++flow_lookups_;
  const uint64_t k = key(topology, shape);
  if (auto it = flows_.find(k); it != flows_.end()) return it->second;
  Flow flow = solve(topology, shape, true);
  if (costs_.emplace(k, Cost{flow.inverse_theta, flow.longest_hops, flow.shortest_inverse_theta, flow.shortest_hops})
          .second &&
      !shapes_[shape]->moves_no_bytes()) {
    ++lp_solves_;
  }
  if (!topologies_[topology].forced) flows_.emplace(k, flow);
  return flow;
}

}  // namespace photonsim
