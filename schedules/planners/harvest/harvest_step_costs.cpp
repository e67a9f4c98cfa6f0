#include "schedules/planners/harvest/harvest_step_costs.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "core/tolerances.h"
#include "schedules/cost/harvest/harvest_route_choice.h"
#include "topology/topology_properties.h"

namespace photonsim {

// What a step's bound needs that no topology changes. Outside the anonymous
// namespace because HarvestStepCosts::StepSums (declared in the header) holds
// one: in a unity batch this file is not the main file, and GCC refuses a
// header-declared class with a member of a file-local type.
struct HarvestStepTotals {
  uint64_t units = 0;                         // sum over entries
  std::vector<std::pair<Node, double>> sent;  // GPUs with bytes out, ascending, units sent
  std::vector<std::pair<Node, double>> received;
  double most_sent = 0.0;
  double most_received = 0.0;
};

namespace {

// Integers below 2^53 are exact doubles, and so are sums and products of
// them that stay below it: then integer arithmetic gives the bits of any
// order of double additions.
constexpr uint64_t kExactIntegers = uint64_t{1} << 53;

using Hops = std::function<int(Node, Node)>;

HarvestStepTotals totals_of(const HarvestStepDemand& demand) {
  HarvestStepTotals t;
  std::map<Node, uint64_t> sent, received;
  for (const HarvestStepDemand::Entry& e : demand.entries()) {
    t.units += e.units;
    sent[e.src] += e.units;
    received[e.dst] += e.units;
  }
  for (const auto& [u, units] : sent) {
    t.sent.push_back({u, static_cast<double>(units)});
    t.most_sent = std::max(t.most_sent, static_cast<double>(units));
  }
  for (const auto& [u, units] : received) {
    t.received.push_back({u, static_cast<double>(units)});
    t.most_received = std::max(t.most_received, static_cast<double>(units));
  }
  return t;
}

// One topology's circuit counts per GPU; `uniform_*` is the common degree
// when every GPU has the same one, else 0.
struct Degrees {
  std::vector<double> out, in;
  double uniform_out = 0.0, uniform_in = 0.0;

  explicit Degrees(const Topology& g) : out(static_cast<size_t>(g.gpus()), 0.0), in(out) {
    for (const Edge& e : g.edges()) {
      out[e.first] += 1;
      in[e.second] += 1;
    }
    if (!out.empty() && std::all_of(out.begin(), out.end(), [&](double d) { return d == out.front(); })) {
      uniform_out = out.front();
    }
    if (!in.empty() && std::all_of(in.begin(), in.end(), [&](double d) { return d == in.front(); })) {
      uniform_in = in.front();
    }
  }
};

// One pair list's hops on one topology.
struct PairListHops {
  bool routable = false;
  int farthest = 0;
  int constant = -1;       // every entry's hops when they are all equal, else -1
  std::vector<int> entry;  // per entry, when not constant
};

PairListHops hops_of(const HarvestStepDemand& demand, const Hops& hops) {
  PairListHops h;
  for (const Edge& p : demand.pairs()) {
    if (hops(p.first, p.second) < 0) return h;
  }
  h.routable = true;
  const std::vector<HarvestStepDemand::Entry>& entries = demand.entries();
  h.entry.reserve(entries.size());
  for (const HarvestStepDemand::Entry& e : entries) {
    h.entry.push_back(hops(e.src, e.dst));
    h.farthest = std::max(h.farthest, h.entry.back());
  }
  if (!h.entry.empty() && std::all_of(h.entry.begin(), h.entry.end(), [&](int x) { return x == h.entry.front(); })) {
    h.constant = h.entry.front();
    h.entry.clear();
  }
  return h;
}

// The bound as first written (see the header), for the cases the fast
// path below does not cover (no circuits, or sums past 2^53).
//
// Every unit of pair (s,t) crosses at least dist(s,t) circuits of capacity 1
// and leaves s over out_degree(s) circuits (enters t over in_degree(t)), so
// theta * (sum units * hops) <= circuits and theta * sent_s <= out_degree_s.
double literal_inverse_theta(const Topology& g, const HarvestStepDemand& demand, const Hops& hops) {
  const auto n = static_cast<size_t>(g.gpus());
  std::vector<double> out_degree(n, 0.0), in_degree(n, 0.0), sent(n, 0.0), received(n, 0.0);
  for (const Edge& e : g.edges()) {
    out_degree[e.first] += 1;
    in_degree[e.second] += 1;
  }
  double unit_hops = 0.0;
  for (const HarvestStepDemand::Entry& e : demand.entries()) {
    unit_hops += static_cast<double>(e.units) * hops(e.src, e.dst);
    sent[e.src] += static_cast<double>(e.units);
    received[e.dst] += static_cast<double>(e.units);
  }
  // Routable pairs with bytes imply out_degree(src) >= 1 and in_degree(dst) >= 1.
  double inverse_theta = unit_hops / static_cast<double>(g.edges().size());
  for (size_t u = 0; u < n; ++u) {
    if (sent[u] > 0) inverse_theta = std::max(inverse_theta, sent[u] / out_degree[u]);
    if (received[u] > 0) inverse_theta = std::max(inverse_theta, received[u] / in_degree[u]);
  }
  return inverse_theta;
}

// The same value as literal_inverse_theta: unit_hops as an exact integer,
// and max_u sent_u / d as (max_u sent_u) / d when every degree is d
// (division by d is monotone, so it commutes with the max).
double inverse_theta_bound(const Topology& g, const Degrees& degrees, const HarvestStepDemand& demand,
                           const HarvestStepTotals& totals, const PairListHops& h, const Hops& hops) {
  const auto farthest = static_cast<uint64_t>(std::max(h.farthest, 1));
  if (g.edges().empty() || totals.units >= kExactIntegers / farthest) return literal_inverse_theta(g, demand, hops);
  uint64_t unit_hops = 0;
  if (h.constant >= 0) {
    unit_hops = totals.units * static_cast<uint64_t>(h.constant);
  } else {
    const std::vector<HarvestStepDemand::Entry>& entries = demand.entries();
    for (size_t k = 0; k < entries.size(); ++k) unit_hops += entries[k].units * static_cast<uint64_t>(h.entry[k]);
  }
  double inverse_theta = static_cast<double>(unit_hops) / static_cast<double>(g.edges().size());
  if (degrees.uniform_out > 0) {
    inverse_theta = std::max(inverse_theta, totals.most_sent / degrees.uniform_out);
  } else {
    for (const auto& [u, units] : totals.sent) inverse_theta = std::max(inverse_theta, units / degrees.out[u]);
  }
  if (degrees.uniform_in > 0) {
    inverse_theta = std::max(inverse_theta, totals.most_received / degrees.uniform_in);
  } else {
    for (const auto& [u, units] : totals.received) inverse_theta = std::max(inverse_theta, units / degrees.in[u]);
  }
  return inverse_theta;
}

}  // namespace

struct HarvestStepCosts::StepSums {
  HarvestStepTotals totals;
};

HarvestStepCosts::HarvestStepCosts(const std::vector<Topology>& topologies,
                                   const std::vector<HarvestStepDemand>& demands,
                                   const HarvestCoefficients& coefficients, HarvestFlowCache& cache)
    : topologies_(topologies), demands_(demands), c_(coefficients), cache_(cache) {
  for (const Topology& g : topologies) topology_ids_.push_back(cache.topology_id(g));
  std::map<std::pair<std::vector<Edge>, std::vector<Edge>>, size_t> lists;
  std::vector<StepSums> sums;
  for (size_t i = 0; i < demands.size(); ++i) {
    const HarvestStepDemand& d = demands[i];
    shape_ids_.push_back(cache.shape_id(d));
    std::vector<Edge> entry_pairs;
    for (const HarvestStepDemand::Entry& e : d.entries()) entry_pairs.push_back({e.src, e.dst});
    const auto [it, added] = lists.emplace(std::make_pair(d.pairs(), std::move(entry_pairs)), pair_list_step_.size());
    if (added) pair_list_step_.push_back(i);
    pair_list_.push_back(it->second);
    sums.push_back({totals_of(d)});
  }
  lower_.assign(topologies.size(), std::vector<double>(demands.size(), 0.0));
  // Prefix sums of the finite bounds and a prefix count of the unroutable
  // steps keep every range's bound O(1) without infinity - infinity.
  finite_prefix_.assign(topologies.size(), std::vector<double>(demands.size() + 1, 0.0));
  unroutable_prefix_.assign(topologies.size(), std::vector<int>(demands.size() + 1, 0));
  exact_.assign(topologies.size(), std::vector<double>(demands.size(), std::nan("")));
  running_.assign(topologies.size(), {});
  floor_.assign(demands.size(), kInfinity);
  for (size_t g = 0; g < topologies.size(); ++g) {
    bound_topology(g, sums);
    for (size_t i = 0; i < demands.size(); ++i) {
      const bool unroutable = lower_[g][i] == kInfinity;
      finite_prefix_[g][i + 1] = finite_prefix_[g][i] + (unroutable ? 0.0 : lower_[g][i]);
      unroutable_prefix_[g][i + 1] = unroutable_prefix_[g][i] + (unroutable ? 1 : 0);
      floor_[i] = std::min(floor_[i], lower_[g][i]);
    }
  }
}

void HarvestStepCosts::bound_topology(size_t topology, const std::vector<StepSums>& sums) {
  const Topology& g = topologies_[topology];
  const HarvestCycles* cycles = cache_.cycles(topology_ids_[topology]);
  std::vector<std::vector<int>> table;  // only without cycles; dropped on return
  if (!cycles) table = hop_distances(g);
  const Hops hops = cycles ? Hops([cycles](Node s, Node t) { return cycles->hops(s, t); })
                           : Hops([&table](Node s, Node t) { return table[s][t]; });
  const Degrees degrees(g);
  std::vector<PairListHops> lists;
  lists.reserve(pair_list_step_.size());
  for (size_t step : pair_list_step_) lists.push_back(hops_of(demands_[step], hops));
  for (size_t i = 0; i < demands_.size(); ++i) {
    const PairListHops& h = lists[pair_list_[i]];
    const HarvestStepDemand& demand = demands_[i];
    double& bound = lower_[topology][i];
    if (!h.routable) {
      bound = kInfinity;
    } else if (demand.moves_no_bytes()) {
      bound = c_.alpha_ps;
    } else {
      const double inverse_theta = inverse_theta_bound(g, degrees, demand, sums[i].totals, h, hops);
      bound = c_.step_ps(static_cast<double>(demand.unit_bytes()), inverse_theta, h.farthest,
                         static_cast<double>(demand.max_pair_bytes()));
    }
  }
}

double HarvestStepCosts::exact(size_t step, size_t topology) {
  double& value = exact_[topology][step];
  if (std::isnan(value)) {
    if (lower_[topology][step] == kInfinity) {
      value = kInfinity;
    } else {
      const HarvestStepDemand& demand = demands_[step];
      const HarvestFlowCache::Cost flow = cache_.cost(topology_ids_[topology], shape_ids_[step]);
      const HarvestRouteChoice routes = choose_harvest_routes(c_, demand, flow);
      value = c_.step_ps(static_cast<double>(demand.unit_bytes()), routes.inverse_theta, routes.hops,
                         static_cast<double>(demand.max_pair_bytes()));
    }
  }
  return value;
}

double HarvestStepCosts::exact_sum(int first, int last, size_t topology) {
  double sum = 0.0;
  for (int i = first; i <= last && sum < kInfinity; ++i) sum += exact(static_cast<size_t>(i), topology);
  return sum;
}

double HarvestStepCosts::exact_prefix(int last, size_t topology) {
  std::vector<double>& running = running_[topology];
  while (static_cast<int>(running.size()) <= last) {
    const double before = running.empty() ? 0.0 : running.back();
    running.push_back(before < kInfinity ? before + exact(running.size(), topology) : kInfinity);
  }
  return running[static_cast<size_t>(last)];
}

HarvestRangeChoice HarvestStepCosts::best(int first, int last, size_t count) {
  std::vector<std::pair<double, size_t>> order;
  for (size_t g = 0; g < count; ++g) {
    const auto a = static_cast<size_t>(first), b = static_cast<size_t>(last) + 1;
    if (unroutable_prefix_[g][b] != unroutable_prefix_[g][a]) continue;
    order.push_back({finite_prefix_[g][b] - finite_prefix_[g][a], g});
  }
  std::sort(order.begin(), order.end());
  HarvestRangeChoice choice{-1, kInfinity};
  for (const auto& [bound, g] : order) {
    if (choice.cost_ps < kInfinity && bound > choice.cost_ps * (1 + tolerance::kTie)) break;
    const double cost = exact_sum(first, last, g);
    if (cost == kInfinity) continue;
    const bool tie = choice.cost_ps < kInfinity && std::abs(cost - choice.cost_ps) <= tolerance::kTie * choice.cost_ps;
    if (tie ? static_cast<int>(g) < choice.topology : cost < choice.cost_ps) choice = {static_cast<int>(g), cost};
  }
  return choice;
}

}  // namespace photonsim
