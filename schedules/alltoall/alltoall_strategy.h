#pragma once
// Contract: the all-to-all paper's strategy (section 3.1): a sequence of
// configured topologies, each at most `ports` circuits out of and into every
// GPU, and rounds of flows. Rounds are listed topology by topology (every
// round on topologies[0], then topologies[1], ...), so configuring the
// sequence once each is enough; a round's flows start together and the next
// round waits for all of them. A flow follows explicit routes (usually one)
// or, with no routes, its topology's one shortest path of `implicit_hops` hops
// (shifted rings and the k = 1 baselines: every GPU has one circuit out, so
// the path is the walk along it - storing it would cost O(n^3) nodes at
// d = 1); a pair may be split into several flows in different rounds whose bytes sum
// to its demand. Cost in the paper's units: TotalCost = R*d + T*hop_sum(),
// hop_sum() = sum over rounds of the round's longest route (exact when every
// round is contention-free in the time-expanded graph and flows are one chunk).
#include <string>
#include <vector>

#include "core/units.h"
#include "schedules/model/transfer.h"
#include "topology/topology.h"

namespace photonsim {

struct StrategyFlow {
  Node src = 0;
  Node dst = 0;
  Bytes bytes;
  std::vector<Route> routes;  // each src..dst inclusive, bytes summing to `bytes`; none: implicit
  int implicit_hops = 0;      // without routes: the shortest path's hop count
  int hops() const;           // the longest route's hop count
};

struct StrategyRound {
  int topology = 0;
  std::vector<StrategyFlow> flows;
  int hops() const;  // the longest route in the round
};

struct AlltoallStrategy {
  std::string construction;  // how it was built, for reports ("shifted rings 1,7", "BvN", ...)
  std::vector<Topology> topologies;
  std::vector<StrategyRound> rounds;
  // False for static designs whose one round runs every flow at once
  // (directconnect, topoopt): the hop sum then says nothing about the time.
  bool contention_free_rounds = true;

  int configurations() const { return static_cast<int>(topologies.size()); }  // the paper's d
  int64_t hop_sum() const;
};

// A flow of `bytes` along one path of nodes.
StrategyFlow single_path_flow(std::vector<Node> path, Bytes bytes);
// A flow of `bytes` along its topology's shortest path, which has `hops` hops.
StrategyFlow implicit_path_flow(Node src, Node dst, int hops, Bytes bytes);

// True when no circuit carries two routes at the same hop index (the paper's
// contention in the time-expanded graph). Routes must follow circuits of
// `topology`; a hop that is not a circuit counts as contention. Implicit
// routes are the topology's shortest paths (Error when there is none).
bool contention_free(const StrategyRound& round, const Topology& topology);

}  // namespace photonsim
