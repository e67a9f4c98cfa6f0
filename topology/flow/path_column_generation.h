#pragma once
// Contract: the general solver behind max_concurrent_flow. Given circuits
// (each entry of topology.edges() carries at most 1) and pairs s -> t with
// demand d > 0, every t reachable from s, solve() finds a splittable routing
// of least congestion T* (the load of the busiest circuit when every pair
// sends d) by path-based column generation over CLP, and returns per pair the
// simple paths with the shares of d they carry (summing to 1 up to solver
// rounding, shares below 1e-12 being noise) together with a lower bound on
// T* from the final LP duals. The caller certifies the routing by comparing
// its congestion with that bound (they agree to 1e-10 relative). solve()
// gives up (nullopt) when CLP has spent max_iterations simplex iterations,
// or when the first pricing finds the duals degenerate (a bound below half
// the master's congestion): on topologies with very many equally short
// paths under demands their symmetries do not keep (a circulant with
// uneven demand) the master then crawls, and the arc-flow LP (SourceFlowLP)
// is the faster route. congestion_bound() is the weak-duality bound behind
// the certificate: for any circuit lengths y >= 0,
// T* >= sum_pairs d dist_y(s,t) / sum_e y_e. Throws Error naming CLP's
// status when CLP stops short of an optimum otherwise. Pure and
// deterministic: the same inputs give the same result bit for bit.
#include <cstdint>
#include <optional>
#include <vector>

#include "topology/topology.h"

namespace photonsim {

struct PairDemand {
  Node s = 0;
  Node t = 0;
  double demand = 0.0;
};

struct PathShare {
  std::vector<uint32_t> links;  // indices into topology.edges(), in order from s
  double share = 0.0;           // fraction of the pair's demand
};

struct PairRouting {
  std::vector<std::vector<PathShare>> paths;  // per pair, in the input order
  double congestion_bound = 0.0;              // lower bound on T*
};

class PathColumnGeneration {
 public:
  // `pairs` sorted by source then target, s != t, demand > 0.
  PathColumnGeneration(const Topology& topology, std::vector<PairDemand> pairs);

  std::optional<PairRouting> solve(int64_t max_iterations) const;

  // sum_pairs d dist_y(s,t) / sum_e y_e for lengths y >= 0 (one per edge);
  // 0 when every length is 0.
  double congestion_bound(const std::vector<double>& length) const;

 private:
  const Topology& topology_;
  std::vector<PairDemand> pairs_;
  std::vector<size_t> source_begin_;  // pairs of s: [source_begin_[s], source_begin_[s + 1])
};

}  // namespace photonsim
