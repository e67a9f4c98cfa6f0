#pragma once
// Contract: theta(G, D), the maximum concurrent flow of Harvest (Shahrokh and
// Matula): the largest lambda such that lambda * D(s,t) units can be routed
// from every s to every t at once, splittable over any paths, with every
// circuit (each entry of topology.edges(), so parallel circuits add up)
// carrying at most 1. With link rate c, a step of m bytes per unit of demand
// takes DCT = m / (c * theta). Where every GPU has one circuit out (k = 1),
// each pair's one path is forced and theta is the busiest circuit's load, no
// LP. Otherwise solved exactly with COIN-OR CLP: instances with a
// translation symmetry (circulants, rings, tori, hypercubes, complete graphs
// under uniform demand) reduce to one source's LP; others go to path-based
// column generation, with the edge LP (one commodity per source) as the
// fallback. Every answer is checked against its LP dual bound (1e-9), and
// the flow is returned as simple s -> t paths.
// Pure and deterministic: the same inputs give the same result bit for bit.
#include <cstdint>
#include <vector>

#include "topology/demand_matrix.h"
#include "topology/topology.h"

namespace photonsim {

struct FlowPath {
  std::vector<Node> nodes;      // s ... t, no node repeated
  std::vector<uint32_t> links;  // indices into topology.edges(); links[i] = nodes[i] -> nodes[i+1]
  double amount = 0.0;          // flow units (1 = one circuit's full capacity)
};

struct ConcurrentFlow {
  double theta = 0.0;
  // [source s][edge index]: flow of commodity s on each circuit, i.e. the sum
  // of paths[s][*] (circulation the solver may leave is dropped). Sources
  // without demand hold zeros.
  std::vector<std::vector<double>> edge_flow;
  // [s][t]: paths carrying theta * D(s,t) in total (empty when D(s,t) = 0).
  std::vector<std::vector<std::vector<FlowPath>>> paths;
};

// Throws Error when demand.gpus() != topology.gpus(), when the demand is all
// zero (theta unbounded), when a pair with demand has no directed route
// (naming both nodes), or when the solver does not reach optimality (naming
// its status).
ConcurrentFlow max_concurrent_flow(const Topology& topology, const DemandMatrix& demand);

// max_concurrent_flow(topology, demand).theta, the same bits and errors,
// without the paths where every GPU has one circuit out: there the forced
// walks would hold O(n^3) nodes at n GPUs, and this holds O(n) beside the pairs.
double max_concurrent_flow_theta(const Topology& topology, const DemandMatrix& demand);

}  // namespace photonsim
