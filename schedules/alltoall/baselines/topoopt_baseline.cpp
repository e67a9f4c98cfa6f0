#include "schedules/alltoall/baselines/topoopt_baseline.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"
#include "topology/k_shortest_paths.h"

namespace photonsim {

AlgorithmInfo TopooptBaseline::info() const {
  return {"topoopt",
          {Collective::alltoall},
          "joint",
          "TopoOpt: union of k shifted rings, each flow split over its K shortest paths, one concurrent round (d = 1)",
          {ParameterSpec::integer("paths", 4, "each flow split evenly over its K shortest paths", 1, 64)},
          "n >= 2",
          true};
}

bool TopooptBaseline::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

std::vector<int> TopooptBaseline::shifts(int gpus, int rings) {
  std::vector<int> coprime, other;
  for (int p = 1; p < gpus; ++p) (std::gcd(p, gpus) == 1 ? coprime : other).push_back(p);
  const int k = std::min(rings, gpus - 1);  // more ports than shifts: the rest stay dark
  std::vector<int> chosen;
  for (int i = 0; i < k; ++i) {
    std::vector<int>& pool = coprime.empty() ? other : coprime;
    const double target = std::pow(static_cast<double>(gpus), static_cast<double>(i) / static_cast<double>(k));
    // Candidates ascend, so the first of equally close ones is the smaller.
    auto best = std::min_element(pool.begin(), pool.end(),
                                 [target](int a, int b) { return std::abs(a - target) < std::abs(b - target); });
    chosen.push_back(*best);
    pool.erase(best);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

std::vector<AlltoallStrategy> TopooptBaseline::strategies(const JointInput& input, std::optional<int> only) const {
  if (input.fabric.circuits != CircuitKind::directed) {
    throw Error("algorithm 'topoopt' builds directed rings: set fabric.circuits: directed");
  }
  const int64_t paths = input.params.integer("paths");
  if (only && *only != 1) return {};
  const int n = input.gpus();
  const std::vector<int> ring_shifts = shifts(n, input.fabric.ports);
  std::vector<Edge> edges;
  std::string label;
  for (int p : ring_shifts) {
    label += (label.empty() ? "" : ",") + std::to_string(p);
    for (int u = 0; u < n; ++u) edges.push_back({static_cast<Node>(u), static_cast<Node>((u + p) % n)});
  }
  AlltoallStrategy strategy;
  strategy.contention_free_rounds = false;
  strategy.construction =
      "shifted rings " + label + ", " + std::to_string(paths) + " shortest paths, one concurrent round";
  strategy.topologies.emplace_back("shifted_rings(" + label + ")", n, std::move(edges));
  const Topology& rings = strategy.topologies.front();
  // One ring (shift 1, out-degree 1): the walk u -> u+1 -> ... is the only
  // loopless path, so flows stay implicit - stored routes would cost O(n^3) nodes.
  const bool one_ring = ring_shifts.size() == 1;
  // The rings are a circulant and Yen's order is by clockwise offsets, so the
  // paths from s to t are those from 0 to t - s shifted by s: one search per offset.
  std::vector<std::vector<std::vector<Node>>> from_zero(static_cast<size_t>(n));
  StrategyRound round{0, {}};
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      const int64_t bytes = input.demand_at(s, t).count();
      if (s == t || bytes == 0) continue;
      const Node offset = (t + static_cast<Node>(n) - s) % static_cast<Node>(n);
      if (one_ring) {
        round.flows.push_back(implicit_path_flow(s, t, static_cast<int>(offset), Bytes(bytes)));
        continue;
      }
      std::vector<std::vector<Node>>& routes = from_zero[offset];
      if (routes.empty()) routes = k_shortest_paths(rings, 0, offset, static_cast<int>(paths));
      if (routes.empty())
        throw Error("topoopt: node " + std::to_string(t) + " is unreachable from node " + std::to_string(s));
      StrategyFlow flow{s, t, Bytes(bytes), {}};
      const auto count = static_cast<int64_t>(routes.size());
      for (int64_t i = 0; i < count; ++i) {
        const int64_t piece = bytes * (i + 1) / count - bytes * i / count;  // whole bytes summing to `bytes`
        if (piece == 0) continue;
        std::vector<Node> path = routes[static_cast<size_t>(i)];
        for (Node& v : path) v = (v + s) % static_cast<Node>(n);
        flow.routes.push_back(Route{std::move(path), Bytes(piece)});
      }
      round.flows.push_back(std::move(flow));
    }
  }
  strategy.rounds.push_back(std::move(round));
  return {strategy};
}

}  // namespace photonsim
