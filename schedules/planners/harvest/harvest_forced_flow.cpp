#include "schedules/planners/harvest/harvest_forced_flow.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/tolerances.h"

namespace photonsim {

namespace {

// Hops of the walk s -> t along the only circuit out of each GPU; -1 when it
// does not reach t within n circuits (max_concurrent_flow's own limit).
int walk_hops(const std::vector<Edge>& edges, const HarvestCycles* cycles, Node s, Node t) {
  if (cycles) return cycles->hops(s, t);
  int hops = 0;
  for (Node v = s; v != t; v = edges[v].second) {
    if (static_cast<size_t>(hops) == edges.size()) return -1;
    ++hops;
  }
  return hops;
}

// Every pair's share is 1, so max_concurrent_flow adds exactly 1.0 per pair
// to each circuit of its walk: the sums are integers, exact in any order.
double congestion_of_unit_pairs(const HarvestCycles& cycles, const std::vector<HarvestStepDemand::Entry>& entries,
                                const std::vector<int>& hops) {
  std::vector<int64_t> change(cycles.gpus() + 1, 0);
  for (size_t k = 0; k < entries.size(); ++k) {
    const Node s = entries[k].src;
    const uint32_t slot = cycles.slot(s), begin = cycles.cycle_begin(s), length = cycles.cycle_length(s);
    const uint32_t end = slot + static_cast<uint32_t>(hops[k]);
    ++change[slot];
    if (end <= begin + length) {
      --change[end];
    } else {  // wraps past the cycle's last slot
      --change[begin + length];
      ++change[begin];
      --change[end - length];
    }
  }
  int64_t load = 0, busiest = 0;
  for (size_t i = 0; i < cycles.gpus(); ++i) {
    load += change[i];
    busiest = std::max(busiest, load);
  }
  return static_cast<double>(busiest);
}

// max_concurrent_flow's normalise(): load[e] += demand * share (share = 1)
// pair by pair in (src, dst) order, then the busiest circuit.
double congestion_of_walks(const std::vector<Edge>& edges, const std::vector<HarvestStepDemand::Entry>& entries,
                           double scale) {
  std::vector<double> load(edges.size(), 0.0);
  const double share = 1.0;
  for (const HarvestStepDemand::Entry& e : entries) {
    const double demand = static_cast<double>(e.units) / scale;
    for (Node v = e.src; v != e.dst; v = edges[v].second) load[v] += demand * share;
  }
  return *std::max_element(load.begin(), load.end());
}

}  // namespace

std::optional<HarvestFlowCache::Flow> harvest_forced_flow(const Topology& topology, const HarvestCycles* cycles,
                                                          const HarvestStepDemand& demand, bool with_paths) {
  const std::vector<HarvestStepDemand::Entry>& entries = demand.entries();
  const std::vector<Edge>& edges = topology.edges();
  if (entries.empty()) return std::nullopt;
  uint64_t most_units = 0;
  bool unit_pairs = true;  // units are divided by their gcd: all equal means all 1
  std::vector<int> hops(entries.size());
  for (size_t k = 0; k < entries.size(); ++k) {
    const HarvestStepDemand::Entry& e = entries[k];
    if (e.src == e.dst) return std::nullopt;
    hops[k] = walk_hops(edges, cycles, e.src, e.dst);
    if (hops[k] < 0) return std::nullopt;
    most_units = std::max(most_units, e.units);
    unit_pairs = unit_pairs && e.units == 1;
  }
  // max_concurrent_flow's arithmetic, step by step: demands divided by the
  // largest (scale), theta = 1 / (congestion * scale), paths carrying
  // demand * share / congestion.
  const double scale = static_cast<double>(most_units);
  const double congestion = cycles && unit_pairs ? congestion_of_unit_pairs(*cycles, entries, hops)
                                                 : congestion_of_walks(edges, entries, scale);
  const double theta = 1.0 / (congestion * scale);
  HarvestFlowCache::Flow flow;
  flow.inverse_theta = 1.0 / theta;
  const double share = 1.0;
  for (size_t k = 0; k < entries.size(); ++k) {
    const HarvestStepDemand::Entry& e = entries[k];
    const double amount = static_cast<double>(e.units) / scale * share / congestion;
    // HarvestFlowCache drops a path at or below kNegligiblePathShare of its pair's total.
    const bool kept = !(amount <= tolerance::kNegligiblePathShare * amount);
    if (kept) flow.longest_hops = std::max(flow.longest_hops, hops[k]);
    if (!with_paths) continue;
    HarvestFlowCache::PairPaths pair{e.src, e.dst, {}};
    if (kept) {
      FlowPath path;
      path.amount = amount;
      path.nodes.reserve(static_cast<size_t>(hops[k]) + 1);
      path.links.reserve(static_cast<size_t>(hops[k]));
      path.nodes.push_back(e.src);
      for (Node v = e.src; v != e.dst; v = edges[v].second) {
        path.links.push_back(v);
        path.nodes.push_back(edges[v].second);
      }
      pair.paths.push_back(std::move(path));
    }
    flow.pairs.push_back(std::move(pair));
  }
  return flow;
}

}  // namespace photonsim
