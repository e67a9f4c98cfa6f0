#pragma once
// Contract: packs flows on one topology into rounds that are contention-free
// in the time-expanded graph (no circuit carries two paths at the same hop
// index), the all-to-all paper's greedy packing (section 4.2). place() puts a
// flow on the first of its candidate paths that fits the first round >=
// first_round, opening a new round when none fits; merge_rounds() then folds
// each round into the earliest one it does not contend with (round merging
// for GenKautz). Parallel circuits u -> v each carry one path per hop index.
// Paths must follow circuits of the topology (Error otherwise).
// FlowPaths::implicit_walks keeps no path in the flows (implicit_path_flow):
// only for a topology with one circuit out of every GPU (Error otherwise),
// where a pair's one path is the walk an implicit flow takes and keeping
// every path would cost O(n^3) nodes.
#include <cstdint>
#include <vector>

#include "core/units.h"
#include "schedules/alltoall/alltoall_strategy.h"
#include "topology/topology.h"

namespace photonsim {

class RoundPacker {
 public:
  enum class FlowPaths { explicit_routes, implicit_walks };
  explicit RoundPacker(const Topology& topology, FlowPaths kept = FlowPaths::explicit_routes);

  size_t place(Bytes bytes, const std::vector<std::vector<Node>>& paths, size_t first_round = 0);
  void merge_rounds();
  size_t round_count() const { return rounds_.size(); }
  // The rounds as strategy rounds on topology `topology_index`, fewer hops first
  // (stable), empty rounds dropped.
  std::vector<StrategyRound> rounds(int topology_index) const&;
  std::vector<StrategyRound> rounds(int topology_index) &&;  // the same, the flows moved out
  int64_t hop_sum() const;                                   // sum over rounds of the longest path

 private:
  struct Round {
    std::vector<uint64_t> used;  // bit (hop * circuits + circuit)
    std::vector<StrategyFlow> flows;
    int hops = 0;
  };
  // Circuit slots of u -> v (parallel circuits are consecutive), or {0, 0}.
  std::pair<uint32_t, uint32_t> slots(Node u, Node v) const;
  bool fits(const Round& round, const std::vector<Node>& path, std::vector<size_t>& bits) const;
  static bool test(const Round& r, size_t bit) {
    return bit / 64 < r.used.size() && (r.used[bit / 64] >> (bit % 64)) & 1U;
  }
  static void set(Round& r, size_t bit);
  std::vector<size_t> kept_in_order() const;  // rounds with flows, fewer hops first (stable)

  const Topology& topology_;
  FlowPaths kept_;
  std::vector<uint32_t> offsets_;
  size_t circuits_;
  std::vector<Round> rounds_;
};

}  // namespace photonsim
