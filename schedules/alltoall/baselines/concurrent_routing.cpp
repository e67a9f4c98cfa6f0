#include "schedules/alltoall/baselines/concurrent_routing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "core/error.h"

namespace photonsim {

namespace {

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
StrategyFlow split_flow(Node s, Node t, Bytes bytes, const std::vector<FlowPath>& paths, const std::string& who) {
  if (paths.empty())
    throw Error(who + ": max concurrent flow left the pair " + std::to_string(s) + " -> " + std::to_string(t) +
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

ConcurrentRouting route_concurrently(Topology topology, const JointInput& input) {
  const int n = input.gpus();
  int64_t largest = 1;
  for (const Bytes& b : input.demand) largest = std::max(largest, b.count());
  DemandMatrix demand(n);
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (s != t) demand.set(s, t, static_cast<double>(input.demand_at(s, t).count()) / static_cast<double>(largest));
    }
  }
  if (topology.one_circuit_out_of_every_gpu()) {
    const double theta = max_concurrent_flow_theta(topology, demand);
    return ConcurrentRouting{std::move(topology), theta, std::nullopt};
  }
  ConcurrentFlow flow = max_concurrent_flow(topology, demand);
  const double theta = flow.theta;
  return ConcurrentRouting{std::move(topology), theta, std::move(flow)};
}

AlltoallStrategy concurrent_round_strategy(ConcurrentRouting routed, const JointInput& input, const std::string& who) {
  const int n = input.gpus();
  AlltoallStrategy strategy;
  char theta[32];
  std::snprintf(theta, sizeof theta, "%.6g", routed.theta);
  strategy.contention_free_rounds = false;
  strategy.construction = routed.topology.name() + ", max concurrent flow theta " + theta + ", one concurrent round";
  StrategyRound round{0, {}};
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    const std::vector<int> hops = routed.flow ? std::vector<int>() : walk_hops(routed.topology, s);
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      const Bytes bytes = input.demand_at(s, t);
      if (s == t || bytes.count() == 0) continue;
      round.flows.push_back(routed.flow ? split_flow(s, t, bytes, routed.flow->paths[s][t], who)
                                        : implicit_path_flow(s, t, hops[t], bytes));
    }
  }
  strategy.topologies.push_back(std::move(routed.topology));
  strategy.rounds.push_back(std::move(round));
  return strategy;
}

}  // namespace photonsim
