#include "schedules/alltoall/baselines/directconnect_baseline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/error.h"
#include "core/tolerances.h"
#include "topology/generators.h"
#include "topology/flow/max_concurrent_flow.h"

namespace photonsim {

AlgorithmInfo DirectconnectBaseline::info() const {
  return {
      "directconnect",
      {Collective::alltoall},
      "joint",
      "DirectConnect: static Generalized Kautz or Circulant, max-concurrent-flow routing, one concurrent round (d = 1)",
      {ParameterSpec::choice("graph", {"auto", "genkautz", "circulant"},
                             "auto: the higher max-concurrent-flow throughput, ties circulant")},
      "n >= 2",
      true};
}

bool DirectconnectBaseline::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {

constexpr int64_t kExhaustiveGeneratorSets = 20000;

// Total hop distance from node 0 on the circulant with `generators`; an
// unreachable node counts n hops, so incomplete sets still compare.
int64_t total_distance(int n, const std::vector<int>& generators) {
  std::vector<int> distance(static_cast<size_t>(n), -1);
  std::vector<int> frontier = {0};
  distance[0] = 0;
  for (size_t head = 0; head < frontier.size(); ++head) {
    const int u = frontier[head];
    for (int g : generators) {
      const int v = (u + g) % n;
      if (distance[static_cast<size_t>(v)] < 0) {
        distance[static_cast<size_t>(v)] = distance[static_cast<size_t>(u)] + 1;
        frontier.push_back(v);
      }
    }
  }
  int64_t total = 0;
  for (int d : distance) total += d < 0 ? n : d;
  return total;
}

int64_t binomial_capped(int64_t n, int64_t k, int64_t cap) {
  int64_t value = 1;
  for (int64_t i = 1; i <= k; ++i) {
    value = value * (n - k + i) / i;  // exact: C(n-k+i, i) at every step
    if (value > cap) return cap + 1;
  }
  return value;
}

std::string join(const std::vector<int>& values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

Topology circulant(const JointInput& input, const std::vector<int>& generators) {
  const ComponentParams params("circulant", {{"generators", join(generators)}}, {"generators"});
  return make_circulant(params, GeneratorContext{input.fabric, input.seed});
}

Topology generalized_kautz(const JointInput& input, int degree) {
  const ComponentParams params("generalized_kautz", {{"degree", std::to_string(degree)}}, {"degree"});
  return make_generalized_kautz(params, GeneratorContext{input.fabric, input.seed});
}

// Where every GPU has one circuit out (k = 1: the n-cycle) each pair's one
// path is the walk along the circuits, the path an implicit flow takes, so
// no paths are kept: they would hold O(n^3) nodes.
struct RoutedGraph {
  Topology topology;
  double theta = 0.0;
  std::optional<ConcurrentFlow> flow;  // none when the routing is forced
};

RoutedGraph routed(Topology topology, const DemandMatrix& demand) {
  if (topology.one_circuit_out_of_every_gpu()) {
    const double theta = max_concurrent_flow_theta(topology, demand);
    return RoutedGraph{std::move(topology), theta, std::nullopt};
  }
  ConcurrentFlow flow = max_concurrent_flow(topology, demand);
  const double theta = flow.theta;
  return RoutedGraph{std::move(topology), theta, std::move(flow)};
}

// Hops of the walk from `s` to every node along the one circuit out of each
// GPU (-1: the walk never gets there).
std::vector<int> walk_hops(const Topology& topology, Node s) {
  const std::vector<Edge>& edges = topology.edges();
  std::vector<int> hops(edges.size(), -1);
  hops[s] = 0;
  int h = 0;
  for (Node v = edges[s].second; hops[v] < 0; v = edges[v].second) hops[v] = ++h;
  return hops;
}

// `bytes` split over the LP's paths in proportion to their flow: piece i is
// round(bytes * share up to i) - round(bytes * share before i), so the pieces
// are whole and sum to `bytes`. Paths that get no byte are left out.
StrategyFlow split_flow(Node s, Node t, Bytes bytes, const std::vector<FlowPath>& paths) {
  if (paths.empty())
    throw Error("directconnect: max concurrent flow left the pair " + std::to_string(s) + " -> " + std::to_string(t) +
                " without a path");
  long double total = 0;
  for (const FlowPath& p : paths) total += p.amount;
  StrategyFlow flow{s, t, bytes, {}};
  long double cumulative = 0;
  int64_t sent = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    cumulative += paths[i].amount;
    const int64_t upto = i + 1 == paths.size()
                             ? bytes.count()
                             : std::llround(static_cast<long double>(bytes.count()) * cumulative / total);
    const int64_t piece = std::max<int64_t>(0, std::min(upto, bytes.count()) - sent);
    if (piece > 0) flow.routes.push_back(Route{paths[i].nodes, Bytes(piece)});
    sent += piece;
  }
  return flow;
}

}  // namespace

std::vector<int> DirectconnectBaseline::circulant_generators(int gpus, int degree) {
  const int k = std::min(degree, gpus - 1);  // more ports than offsets: the rest stay dark
  std::vector<int> best;
  if (binomial_capped(gpus - 1, k, kExhaustiveGeneratorSets) <= kExhaustiveGeneratorSets) {
    std::vector<int> set(static_cast<size_t>(k));
    for (int i = 0; i < k; ++i) set[static_cast<size_t>(i)] = i + 1;
    int64_t best_total = 0;
    while (true) {
      const int64_t total = total_distance(gpus, set);
      if (best.empty() || total < best_total) {
        best = set;
        best_total = total;
      }
      // Next k-subset of 1..n-1 in lexicographic order.
      int i = k - 1;
      while (i >= 0 && set[static_cast<size_t>(i)] == gpus - k + i) --i;
      if (i < 0) break;
      ++set[static_cast<size_t>(i)];
      for (int j = i + 1; j < k; ++j) set[static_cast<size_t>(j)] = set[static_cast<size_t>(j - 1)] + 1;
    }
    return best;
  }
  while (static_cast<int>(best.size()) < k) {
    int pick = 0;
    int64_t pick_total = 0;
    for (int g = 1; g < gpus; ++g) {
      if (std::find(best.begin(), best.end(), g) != best.end()) continue;
      std::vector<int> trial = best;
      trial.push_back(g);
      const int64_t total = total_distance(gpus, trial);
      if (pick == 0 || total < pick_total) {
        pick = g;
        pick_total = total;
      }
    }
    best.push_back(pick);
  }
  std::sort(best.begin(), best.end());
  return best;
}

std::vector<AlltoallStrategy> DirectconnectBaseline::strategies(const JointInput& input,
                                                                std::optional<int> only) const {
  if (input.fabric.circuits != CircuitKind::directed) {
    throw Error("algorithm 'directconnect' builds directed circuits: set fabric.circuits: directed");
  }
  const std::string graph = input.params.text("graph");
  if (only && *only != 1) return {};
  const int n = input.gpus();
  const int k = input.fabric.ports;
  // In units of the largest flow: theta is then the share of a circuit's rate
  // the largest flow gets when every pair sends at once.
  int64_t largest = 1;
  for (const Bytes& b : input.demand) largest = std::max(largest, b.count());
  DemandMatrix demand(n);
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (s != t) demand.set(s, t, static_cast<double>(input.demand_at(s, t).count()) / static_cast<double>(largest));
    }
  }
  std::optional<RoutedGraph> chosen;
  // k = 1: both families are the n-cycle (degree-1 Kautz pairs nodes up instead).
  if (graph != "genkautz" || k == 1) chosen = routed(circulant(input, circulant_generators(n, k)), demand);
  if (graph != "circulant" && k > 1) {
    RoutedGraph kautz = routed(generalized_kautz(input, std::min(k, n - 1)), demand);
    if (!chosen || kautz.theta > chosen->theta * (1 + tolerance::kTie)) chosen = std::move(kautz);
  }
  AlltoallStrategy strategy;
  char theta[32];
  std::snprintf(theta, sizeof theta, "%.6g", chosen->theta);
  strategy.contention_free_rounds = false;
  strategy.construction = chosen->topology.name() + ", max concurrent flow theta " + theta + ", one concurrent round";
  StrategyRound round{0, {}};
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    const std::vector<int> hops = chosen->flow ? std::vector<int>() : walk_hops(chosen->topology, s);
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      const Bytes bytes = input.demand_at(s, t);
      if (s == t || bytes.count() == 0) continue;
      round.flows.push_back(chosen->flow ? split_flow(s, t, bytes, chosen->flow->paths[s][t])
                                         : implicit_path_flow(s, t, hops[t], bytes));
    }
  }
  strategy.topologies.push_back(std::move(chosen->topology));
  strategy.rounds.push_back(std::move(round));
  std::vector<AlltoallStrategy> out;
  out.push_back(std::move(strategy));
  return out;
}

}  // namespace photonsim
