#include "topology/flow/max_concurrent_flow.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/tolerances.h"
#include "topology/breadth_first_search.h"
#include "topology/flow/path_column_generation.h"
#include "topology/flow/source_flow_lp.h"
#include "topology/translation_symmetry.h"

namespace photonsim {

// theta = 1 / (T* max D), T* being the least congestion (load of the busiest
// circuit) of a splittable routing that sends d(s,t) = D(s,t) / max D from
// every s to every t; that routing scaled by 1 / T* is the flow. Three exact
// solvers, each certified by weak duality: for any circuit lengths y >= 0,
//   T* >= sum_{s,t} d(s,t) dist_y(s,t) / sum_e y_e,
// and the routing returned must come within tolerance::kDualityGap of the bound given
// by the solver's final LP duals, or max_concurrent_flow throws.
//
// 1. Symmetric instances: when TranslationSymmetry finds a group of node
//    translations keeping the circuits and the demand, averaging an optimal
//    flow over the group gives an optimal flow in which every source routes
//    like source 0, translated. The LP shrinks to source 0's edge flows with
//    one capacity row per orbit of circuits (n - 1 + out-degree rows), which
//    CLP solves in milliseconds; a second solve with lambda fixed minimises
//    the total flow, so the paths have no cycles or needless detours.
//    Circulants, rings, complete graphs, tori and hypercubes land here.
// 2. Everything else: PathColumnGeneration (path-based column generation
//    with a multiplicative-weights warm start; see its .cpp): 0.04-0.06 s
//    for the 64-GPU degree-4 generalized Kautz and random regular graphs.
// 3. When the column generation gives up (degenerate duals at its first
//    pricing, or its simplex budget spent: circulant-like topologies under
//    demands their symmetries do not keep), the arc-flow LP over every
//    source (SourceFlowLP), the formulation this file solved before, which
//    is slower on the instances (2) suits (1-4 s at 64 GPUs) but not here.

namespace {

// The certificate: the returned congestion is within tolerance::kDualityGap of
// the bound; path shares at or below tolerance::kRoundingNoise are noise.
// Simplex iterations the column generation may spend per circuit and pair
// before the arc-flow LP takes over.
constexpr int64_t kColumnGenerationBudget = 4;

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string node_pair(Node s, Node t) { return "D(" + std::to_string(s) + "," + std::to_string(t) + ")"; }

// Out-edges of each node as index ranges into the sorted edge list.
struct Adjacency {
  std::vector<uint32_t> out_begin;  // size n + 1

  explicit Adjacency(const Topology& topology) : out_begin(static_cast<size_t>(topology.gpus()) + 1, 0) {
    for (const Edge& e : topology.edges()) ++out_begin[e.first + 1];
    for (size_t u = 1; u < out_begin.size(); ++u) out_begin[u] += out_begin[u - 1];
  }
};

// The symmetric LP (source 0's flow, a capacity group per orbit of
// circuits), its paths translated to every pair; nullopt if CLP or the
// path split disappoints (never seen), and the general solvers take over.
std::optional<PairRouting> solve_symmetric(const Topology& topology, const Adjacency& adj,
                                           const std::vector<PairDemand>& pairs, const PathColumnGeneration& general,
                                           const TranslationSymmetry& group) {
  const std::vector<Edge>& edges = topology.edges();
  // Every circuit is the translate of exactly one circuit leaving node 0.
  std::vector<uint32_t> orbit(edges.size());
  for (uint32_t e = 0; e < edges.size(); ++e) {
    orbit[e] = group.translate_edge(e, group.subtract(0, edges[e].first)) - adj.out_begin[0];
  }
  // Source 0's demand row; every other row is its translate.
  std::vector<double> demand0(static_cast<size_t>(topology.gpus()), 0.0);
  for (const PairDemand& p : pairs) {
    if (p.s == 0) demand0[p.t] = p.demand;
  }
  SourceFlowLP lp(topology, orbit, adj.out_begin[1] - adj.out_begin[0]);
  lp.add_commodity(0, std::move(demand0));
  std::string failure;
  std::optional<SourceFlowLP::Result> solved = lp.solve(true, failure);
  if (!solved) return std::nullopt;

  PairRouting routing;
  routing.paths.resize(pairs.size());
  for (size_t k = 0; k < pairs.size(); ++k) {
    const Node s = pairs[k].s;
    for (const PathShare& p : solved->paths[0][group.subtract(pairs[k].t, s)]) {
      PathShare moved;
      moved.share = p.share;
      moved.links.reserve(p.links.size());
      for (uint32_t e : p.links) moved.links.push_back(group.translate_edge(e, s));
      routing.paths[k].push_back(std::move(moved));
    }
  }
  // The certificate's lengths: each orbit's capacity dual on its circuits.
  std::vector<double> length(edges.size());
  for (uint32_t e = 0; e < edges.size(); ++e) length[e] = solved->group_dual[orbit[e]];
  routing.congestion_bound = general.congestion_bound(length);
  return routing;
}

// The arc-flow LP over every source, for instances the column generation
// gives up on.
std::optional<PairRouting> solve_arc_flow(const Topology& topology, const std::vector<PairDemand>& pairs,
                                          const PathColumnGeneration& general, std::string& failure) {
  const size_t n = static_cast<size_t>(topology.gpus());
  const size_t edge_count = topology.edges().size();
  std::vector<uint32_t> own_group(edge_count);
  for (uint32_t e = 0; e < edge_count; ++e) own_group[e] = e;
  SourceFlowLP lp(topology, std::move(own_group), static_cast<uint32_t>(edge_count));
  for (size_t k = 0; k < pairs.size(); ++k) {
    if (k > 0 && pairs[k].s == pairs[k - 1].s) continue;
    std::vector<double> demand(n, 0.0);
    for (size_t j = k; j < pairs.size() && pairs[j].s == pairs[k].s; ++j) {
      demand[pairs[j].t] = pairs[j].demand;
    }
    lp.add_commodity(pairs[k].s, std::move(demand));
  }
  std::optional<SourceFlowLP::Result> solved = lp.solve(false, failure);
  if (!solved) return std::nullopt;
  PairRouting routing;
  routing.paths.resize(pairs.size());
  size_t commodity = 0;
  for (size_t k = 0; k < pairs.size(); ++k) {
    if (k > 0 && pairs[k].s != pairs[k - 1].s) ++commodity;
    routing.paths[k] = std::move(solved->paths[commodity][pairs[k].t]);
  }
  routing.congestion_bound = general.congestion_bound(solved->group_dual);
  return routing;
}

// Drops noise shares, normalises each pair's shares to 1 and returns the
// congestion (busiest circuit's load) of the routing.
double normalise(const std::vector<PairDemand>& pairs, size_t edge_count, PairRouting& routing) {
  std::vector<double> load(edge_count, 0.0);
  for (size_t k = 0; k < pairs.size(); ++k) {
    std::vector<PathShare>& paths = routing.paths[k];
    paths.erase(std::remove_if(paths.begin(), paths.end(),
                               [](const PathShare& p) { return !(p.share > tolerance::kRoundingNoise); }),
                paths.end());
    double total = 0.0;
    for (const PathShare& p : paths) total += p.share;
    for (PathShare& p : paths) {
      p.share /= total;
      for (uint32_t e : p.links) load[e] += pairs[k].demand * p.share;
    }
  }
  return *std::max_element(load.begin(), load.end());
}

bool certified(const PairRouting& routing, double congestion) {
  return congestion <= routing.congestion_bound * (1.0 + tolerance::kDualityGap);
}

// The flow: the routing scaled by 1 / congestion, so the busiest circuit
// carries exactly 1.
ConcurrentFlow flow_of(const Topology& topology, const std::vector<PairDemand>& pairs, double scale,
                       PairRouting routing, double congestion) {
  const size_t n = static_cast<size_t>(topology.gpus());
  ConcurrentFlow result;
  result.theta = 1.0 / (congestion * scale);
  result.edge_flow.assign(n, std::vector<double>(topology.edges().size(), 0.0));
  result.paths.assign(n, std::vector<std::vector<FlowPath>>(n));
  for (size_t k = 0; k < pairs.size(); ++k) {
    const PairDemand& pair = pairs[k];
    for (PathShare& p : routing.paths[k]) {
      FlowPath path;
      path.amount = pair.demand * p.share / congestion;
      path.nodes.reserve(p.links.size() + 1);
      path.nodes.push_back(pair.s);
      for (uint32_t e : p.links) {
        path.nodes.push_back(topology.edges()[e].second);
        result.edge_flow[pair.s][e] += path.amount;
      }
      path.links = std::move(p.links);
      result.paths[pair.s][pair.t].push_back(std::move(path));
    }
  }
  return result;
}

// With one circuit out of every GPU each pair has one simple path, the walk
// along them, so the routing is forced: every solver below finds exactly
// these paths with share 1, and normalise() and flow_of() turn them into the
// same bits. A walk that comes back to its source never reaches t.
template <class Unreachable>
PairRouting forced_routing(const Topology& topology, const std::vector<PairDemand>& pairs,
                           const Unreachable& unreachable) {
  const std::vector<Edge>& edges = topology.edges();
  PairRouting routing;
  routing.paths.reserve(pairs.size());
  for (const PairDemand& pair : pairs) {
    PathShare walk;
    walk.share = 1.0;
    for (Node v = pair.s; v != pair.t; v = edges[v].second) {
      if (walk.links.size() == edges.size()) throw unreachable(pair.s, pair.t);
      walk.links.push_back(static_cast<uint32_t>(v));
    }
    routing.paths.push_back({std::move(walk)});
  }
  return routing;
}

// The pairs with demand, divided by the largest one so coefficients stay
// near 1 whatever unit (bytes or blocks) the caller uses, after the checks
// both entry points share. DemandMatrix already rejects negative and
// non-finite entries.
struct ScaledPairs {
  double scale = 0.0;
  std::vector<PairDemand> pairs;
};

ScaledPairs scaled_pairs(const Topology& topology, const DemandMatrix& demand) {
  const int n = topology.gpus();
  if (demand.gpus() != n) {
    throw Error("max concurrent flow: demand matrix has " + std::to_string(demand.gpus()) + " GPUs but topology '" +
                topology.name() + "' has " + std::to_string(n));
  }
  ScaledPairs scaled;
  scaled.scale = demand.max_off_diagonal();
  if (!(scaled.scale > 0)) {
    throw Error(
        "max concurrent flow: demand matrix is all zero off the diagonal, so theta is "
        "unbounded");
  }
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (s != t && demand.at(s, t) > 0) scaled.pairs.push_back({s, t, demand.at(s, t) / scaled.scale});
    }
  }
  return scaled;
}

// The error for a pair with demand and no route.
struct UnreachableError {
  const Topology& topology;
  const DemandMatrix& demand;
  Error operator()(Node s, Node t) const {
    return Error("no route from node " + std::to_string(s) + " to node " + std::to_string(t) + " for demand " +
                 node_pair(s, t) + " = " + number(demand.at(s, t)) + " on topology '" + topology.name() + "'");
  }
};

}  // namespace

double max_concurrent_flow_theta(const Topology& topology, const DemandMatrix& demand) {
  if (!topology.one_circuit_out_of_every_gpu()) return max_concurrent_flow(topology, demand).theta;
  const auto [scale, pairs] = scaled_pairs(topology, demand);
  const UnreachableError unreachable{topology, demand};
  // forced_routing() then normalise() without keeping the walks: each pair's
  // one path has share 1, and the loads add up in the same pair order, so
  // the congestion is the same bits.
  const std::vector<Edge>& edges = topology.edges();
  std::vector<double> load(edges.size(), 0.0);
  for (const PairDemand& pair : pairs) {
    size_t hops = 0;
    for (Node v = pair.s; v != pair.t; v = edges[v].second, ++hops) {
      if (hops == edges.size()) throw unreachable(pair.s, pair.t);
      load[v] += pair.demand * 1.0;  // edges()[v] is v's circuit
    }
  }
  const double congestion = *std::max_element(load.begin(), load.end());
  return 1.0 / (congestion * scale);
}

ConcurrentFlow max_concurrent_flow(const Topology& topology, const DemandMatrix& demand) {
  const auto [scale, pairs] = scaled_pairs(topology, demand);
  const UnreachableError unreachable{topology, demand};
  if (topology.one_circuit_out_of_every_gpu()) {
    PairRouting forced = forced_routing(topology, pairs, unreachable);
    const double congestion = normalise(pairs, topology.edges().size(), forced);
    return flow_of(topology, pairs, scale, std::move(forced), congestion);
  }
  BreadthFirstSearch reach(successor_lists(topology, NeighbourOrder::ascending));
  for (size_t k = 0; k < pairs.size(); ++k) {
    if (k == 0 || pairs[k].s != pairs[k - 1].s) reach.run(pairs[k].s);  // once per source with demand
    if (reach.distance(pairs[k].t) < 0) throw unreachable(pairs[k].s, pairs[k].t);
  }
  const Adjacency adj(topology);
  const PathColumnGeneration general(topology, pairs);
  const std::optional<TranslationSymmetry> group = TranslationSymmetry::find(topology, demand);
  if (group) {
    std::optional<PairRouting> routing = solve_symmetric(topology, adj, pairs, general, *group);
    if (routing) {
      const double congestion = normalise(pairs, topology.edges().size(), *routing);
      if (certified(*routing, congestion)) {
        return flow_of(topology, pairs, scale, std::move(*routing), congestion);
      }
    }
  }
  // The column generation, unless it finds its duals degenerate or runs
  // out of simplex iterations (it needed 0.05-0.5 per circuit and pair on
  // the instances it suits), then the arc-flow LP.
  const int64_t budget = kColumnGenerationBudget * static_cast<int64_t>(topology.edges().size() + pairs.size());
  std::optional<PairRouting> routing = general.solve(budget);
  if (!routing) {
    std::string failure;
    routing = solve_arc_flow(topology, pairs, general, failure);
    if (!routing) {
      throw Error("max concurrent flow: the arc-flow LP failed on topology '" + topology.name() + "' (" + failure +
                  ")");
    }
  }
  const double congestion = normalise(pairs, topology.edges().size(), *routing);
  if (!certified(*routing, congestion)) {
    throw Error("max concurrent flow: CLP did not reach an optimum on topology '" + topology.name() +
                "' (its duals bound theta by " + number(1.0 / (routing->congestion_bound * scale)) +
                ", the flow reaches " + number(1.0 / (congestion * scale)) + ")");
  }
  return flow_of(topology, pairs, scale, std::move(*routing), congestion);
}

}  // namespace photonsim
