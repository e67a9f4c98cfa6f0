#pragma once
// Contract: PCCL's Algorithm 2 (CommCost). Each transfer pair (s, d) is routed
// on ShortestPathRouter's deterministic (clockwise) shortest path;
//   dilation   = the longest of those paths in hops,
//   congestion = the most transfers crossing one directed edge (u, v).
// As in the paper, parallel circuits u -> v count as ONE edge key, so
// `congestion` ignores multiplicity; `congestion_per_circuit` is the max over
// edges of ceil(count / multiplicity), the load when parallel circuits share
// the transfers evenly (as schedules/model/step_routes.h spreads them). A pair with
// s == d takes 0 hops and no edge. When some pair has no path the paper
// returns a "large penalty": here `reachable` is false, `first_unreachable`
// names the first such pair in input order, the counts stay zero, and cost()
// returns Time::max(). Pairs with a node out of range throw Error naming it.
#include <optional>
#include <utility>
#include <vector>

#include "core/time.h"
#include "core/units.h"
#include "topology/topology.h"

namespace photonsim {

struct CongestionDilation {
  bool reachable = true;
  std::optional<Edge> first_unreachable;  // (s, d) of the first pair with no path
  int dilation = 0;
  int congestion = 0;
  int congestion_per_circuit = 0;
  // Transfers per directed edge key (u, v), sorted by edge, edges used only.
  std::vector<std::pair<Edge, int>> edge_usage;

  // PCCL's alpha * dilation + beta * congestion * w with alpha = per-hop
  // latency and beta = 1 / bandwidth: latency * dilation plus the exact
  // serialisation of congestion * w bytes. Time::max() when unreachable.
  Time cost(Time latency, Bandwidth bandwidth, Bytes w) const;
};

CongestionDilation compute_congestion_dilation(const Topology& topology, const std::vector<Edge>& transfers);

}  // namespace photonsim
