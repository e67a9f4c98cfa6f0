#include "schedules/cost/harvest/harvest_forced_flow.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/tolerances.h"

namespace photonsim {

namespace {

// Hops of the walk s -> t along the only circuit out of each GPU; -1 when it
// does not reach t within n circuits (max_concurrent_flow's own limit).
int forced_flow_walk_hops(const std::vector<Edge>& edges, const HarvestCycles* cycles, Node s, Node t) {
  if (cycles) return cycles->hops(s, t);
  int hops = 0;
  for (Node v = s; v != t; v = edges[v].second) {
    if (static_cast<size_t>(hops) == edges.size()) return -1;
    ++hops;
  }
  return hops;
}

// Units per circuit, by slot: each pair's units on every circuit of its
// walk, from a difference array over the cycles. Exact integers.
std::vector<uint64_t> units_per_slot(const HarvestCycles& cycles, const std::vector<HarvestStepDemand::Entry>& entries,
                                     const std::vector<int>& hops) {
  std::vector<uint64_t> change(cycles.gpus() + 1, 0);  // modulo 2^64: the prefix sums come out exact
  for (size_t k = 0; k < entries.size(); ++k) {
    const Node s = entries[k].src;
    const uint64_t units = entries[k].units;
    const uint32_t slot = cycles.slot(s), begin = cycles.cycle_begin(s), length = cycles.cycle_length(s);
    const uint32_t end = slot + static_cast<uint32_t>(hops[k]);
    change[slot] += units;
    if (end <= begin + length) {
      change[end] -= units;
    } else {  // wraps past the cycle's last slot
      change[begin + length] -= units;
      change[begin] += units;
      change[end - length] -= units;
    }
  }
  std::vector<uint64_t> load(cycles.gpus());
  uint64_t running = 0;
  for (size_t i = 0; i < load.size(); ++i) load[i] = running += change[i];
  return load;
}

// skip[i]: slots from slot i forward (cyclically, within its cycle) to the
// next slot with `busiest` units; n when its cycle has none.
std::vector<uint32_t> skips_to(const HarvestCycles& cycles, const std::vector<uint64_t>& units, uint64_t busiest) {
  const auto n = static_cast<uint32_t>(cycles.gpus());
  std::vector<uint32_t> skip(n, n);
  for (size_t c = 0; c < cycles.cycles(); ++c) {
    const uint32_t begin = cycles.begin(c), length = cycles.length(c);
    uint32_t next = UINT32_MAX;  // offset into the cycle taken twice
    for (uint32_t offset = 2 * length; offset-- > 0;) {
      if (units[begin + offset % length] == busiest) next = offset;
      if (offset < length && next != UINT32_MAX) skip[begin + offset] = next - offset;
    }
  }
  return skip;
}

// max_concurrent_flow adds demand_k = units_k / scale (share 1) to each
// circuit of pair k's walk, pair by pair in (src, dst) order, and takes the
// busiest circuit. Circuit e carries U_e units exactly, from c <= P pairs,
// and its double sum lies within (1 +- eta) U_e / scale with eta < (P + 2) u
// (u = 2^-53: each quotient's rounding and c - 1 additions). So when
// (P + 2) (2 U_max + 1) u < 1, a circuit with U_e <= U_max - 1 sums to less
// than every circuit with U_max, and only the latter need their double sums,
// taken as max_concurrent_flow takes them: pairs in order, each adding to
// the U_max circuits of its walk. A walk is one or two runs of consecutive
// slots: where U_max circuits are few they are reached by skips, else every
// slot of the run is added to (a loop the compiler vectorises). With equal
// units (all 1 after the gcd) every sum is an exact integer and none is
// needed. nullopt when the units are too large for the argument.
std::optional<double> congestion_on_cycles(const HarvestCycles& cycles,
                                           const std::vector<HarvestStepDemand::Entry>& entries,
                                           const std::vector<int>& hops, double scale, bool unit_pairs) {
  const std::vector<uint64_t> units = units_per_slot(cycles, entries, hops);
  const uint64_t busiest = *std::max_element(units.begin(), units.end());
  if (unit_pairs) return static_cast<double>(busiest);
  const auto pairs = static_cast<long double>(entries.size());
  if ((pairs + 2) * (2.0L * static_cast<long double>(busiest) + 1) >= 0x1p50L) return std::nullopt;
  const size_t n = cycles.gpus();
  const auto busiest_slots = static_cast<size_t>(std::count(units.begin(), units.end(), busiest));
  const bool sparse = busiest_slots * 16 <= n;
  std::vector<uint32_t> skip;
  if (sparse) skip = skips_to(cycles, units, busiest);
  std::vector<double> load(n, 0.0);
  const double share = 1.0;
  auto add_run = [&](uint32_t from, uint32_t to, double amount) {  // slots from..to-1
    if (sparse) {
      for (uint32_t i = from; i < to; ++i) {
        i += skip[i];  // may pass the cycle's end (skips wrap): then i >= to
        if (i >= to) break;
        load[i] += amount;
      }
    } else {
      for (uint32_t i = from; i < to; ++i) load[i] += amount;
    }
  };
  for (size_t k = 0; k < entries.size(); ++k) {
    const Node s = entries[k].src;
    const uint32_t slot = cycles.slot(s), begin = cycles.cycle_begin(s), length = cycles.cycle_length(s);
    const uint32_t end = slot + static_cast<uint32_t>(hops[k]);
    const double amount = static_cast<double>(entries[k].units) / scale * share;
    if (end <= begin + length) {
      add_run(slot, end, amount);
    } else {  // wraps past the cycle's last slot: the two runs are disjoint
      add_run(slot, begin + length, amount);
      add_run(begin, end - length, amount);
    }
  }
  double most = 0.0;
  for (size_t i = 0; i < n; ++i) {
    if (units[i] == busiest) most = std::max(most, load[i]);
  }
  return most;
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
    hops[k] = forced_flow_walk_hops(edges, cycles, e.src, e.dst);
    if (hops[k] < 0) return std::nullopt;
    most_units = std::max(most_units, e.units);
    unit_pairs = unit_pairs && e.units == 1;
  }
  // max_concurrent_flow's arithmetic, step by step: demands divided by the
  // largest (scale), theta = 1 / (congestion * scale), paths carrying
  // demand * share / congestion.
  const double scale = static_cast<double>(most_units);
  std::optional<double> on_cycles;
  if (cycles) on_cycles = congestion_on_cycles(*cycles, entries, hops, scale, unit_pairs);
  const double congestion = on_cycles ? *on_cycles : congestion_of_walks(edges, entries, scale);
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
