#include "schedules/planners/harvest/harvest_step_costs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/tolerances.h"

namespace photonsim {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace

HarvestStepCosts::HarvestStepCosts(const std::vector<Topology>& topologies,
                                   const std::vector<HarvestStepDemand>& demands,
                                   const HarvestCoefficients& coefficients, HarvestFlowCache& cache)
    : topologies_(topologies), demands_(demands), c_(coefficients), cache_(cache) {
  lower_.assign(topologies.size(), std::vector<double>(demands.size(), 0.0));
  // Prefix sums of the finite bounds and a prefix count of the unroutable
  // steps keep every range's bound O(1) without infinity - infinity.
  finite_prefix_.assign(topologies.size(), std::vector<double>(demands.size() + 1, 0.0));
  unroutable_prefix_.assign(topologies.size(), std::vector<int>(demands.size() + 1, 0));
  exact_.assign(topologies.size(), std::vector<double>(demands.size(), std::nan("")));
  for (size_t g = 0; g < topologies.size(); ++g) {
    for (size_t i = 0; i < demands.size(); ++i) {
      lower_[g][i] = lower_bound(i, g);
      const bool unroutable = lower_[g][i] == kInfinity;
      finite_prefix_[g][i + 1] = finite_prefix_[g][i] + (unroutable ? 0.0 : lower_[g][i]);
      unroutable_prefix_[g][i + 1] = unroutable_prefix_[g][i] + (unroutable ? 1 : 0);
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
      const HarvestFlowCache::Flow& flow = cache_.flow(topologies_[topology], demand);
      value = c_.alpha_ps + c_.delta_ps * flow.longest_hops +
              c_.beta_ps_per_byte * static_cast<double>(demand.unit_bytes()) * flow.inverse_theta;
    }
  }
  return value;
}

double HarvestStepCosts::exact_sum(int first, int last, size_t topology) {
  double sum = 0.0;
  for (int i = first; i <= last && sum < kInfinity; ++i) sum += exact(static_cast<size_t>(i), topology);
  return sum;
}

HarvestRangeChoice HarvestStepCosts::best(int first, int last, size_t count) {
  std::vector<std::pair<double, size_t>> order;
  for (size_t g = 0; g < count; ++g) {
    const double bound = range_lower_bound(first, last, g);
    if (bound < kInfinity) order.push_back({bound, g});
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

double HarvestStepCosts::range_lower_bound(int first, int last, size_t topology) const {
  const auto a = static_cast<size_t>(first), b = static_cast<size_t>(last) + 1;
  if (unroutable_prefix_[topology][b] != unroutable_prefix_[topology][a]) return kInfinity;
  return finite_prefix_[topology][b] - finite_prefix_[topology][a];
}

// Every unit of pair (s,t) crosses at least dist(s,t) circuits of capacity 1
// and leaves s over out_degree(s) circuits (enters t over in_degree(t)), so
// theta * (sum units * hops) <= circuits and theta * sent_s <= out_degree_s.
double HarvestStepCosts::lower_bound(size_t step, size_t topology) {
  const Topology& g = topologies_[topology];
  const HarvestStepDemand& demand = demands_[step];
  const std::vector<std::vector<int>>& dist = cache_.distances(g);
  for (const Edge& p : demand.pairs()) {
    if (dist[p.first][p.second] < 0) return kInfinity;
  }
  if (demand.moves_no_bytes()) return c_.alpha_ps;
  const auto n = static_cast<size_t>(g.gpus());
  std::vector<double> out_degree(n, 0.0), in_degree(n, 0.0), sent(n, 0.0), received(n, 0.0);
  for (const Edge& e : g.edges()) {
    out_degree[e.first] += 1;
    in_degree[e.second] += 1;
  }
  double unit_hops = 0.0;
  int farthest = 0;
  for (const HarvestStepDemand::Entry& e : demand.entries()) {
    const int hops = dist[e.src][e.dst];
    farthest = std::max(farthest, hops);
    unit_hops += static_cast<double>(e.units) * hops;
    sent[e.src] += static_cast<double>(e.units);
    received[e.dst] += static_cast<double>(e.units);
  }
  // Routable pairs with bytes imply out_degree(src) >= 1 and in_degree(dst) >= 1.
  double inverse_theta = unit_hops / static_cast<double>(g.edges().size());
  for (size_t u = 0; u < n; ++u) {
    if (sent[u] > 0) inverse_theta = std::max(inverse_theta, sent[u] / out_degree[u]);
    if (received[u] > 0) inverse_theta = std::max(inverse_theta, received[u] / in_degree[u]);
  }
  return c_.alpha_ps + c_.delta_ps * farthest +
         c_.beta_ps_per_byte * static_cast<double>(demand.unit_bytes()) * inverse_theta;
}

}  // namespace photonsim
