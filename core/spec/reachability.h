#pragma once
// Contract: reachability queries on a DAG ("does `to` wait for `from`,
// directly or not?") without the all-pairs closure, which takes n^2 bits
// (5 GB at 200,000 nodes). Built in O(nodes + edges) from each node's direct
// predecessors and a topological order; holds O(nodes) words. A query first
// rules out by the nodes' topological positions, their levels (longest path
// from a source) and two GRAIL interval labels (post-order intervals of two
// depth-first traversals: when `from` reaches `to`, `to`'s interval lies in
// `from`'s), answers a direct edge at once, and otherwise searches backwards
// from `to`, visiting only predecessors that could still lie on a path from
// `from` (later in the order, higher level, intervals inside `from`'s).
// Consecutive nodes of a chain cost O(1); in general a query costs at most
// the nodes between the two in topological order. Queries use scratch
// space: one object per thread.
#include <cstdint>
#include <vector>

namespace photonsim {

class Reachability {
 public:
  // `predecessors[v]`: the nodes v waits for directly; `order`: every node
  // once, each after all it waits for.
  Reachability(const std::vector<std::vector<uint32_t>>& predecessors, const std::vector<uint32_t>& order);

  // True when `to` waits for `from` through one or more edges (false for from == to).
  bool reaches(uint32_t from, uint32_t to);
  // The node's place in the topological order given.
  uint32_t position(uint32_t v) const { return position_[v]; }

 private:
  struct Interval {
    uint32_t low = 0, rank = 0;
    bool inside(const Interval& o) const { return o.low <= low && rank <= o.rank; }
  };
  bool may_reach(uint32_t from, uint32_t to) const;
  void label(const std::vector<std::vector<uint32_t>>& successors, bool reversed, std::vector<Interval>& out) const;

  const std::vector<std::vector<uint32_t>>& predecessors_;
  const std::vector<uint32_t>& order_;
  std::vector<uint32_t> position_;
  std::vector<uint32_t> level_;
  std::vector<Interval> first_, second_;
  std::vector<uint32_t> seen_;  // per node: the query that last visited it
  uint32_t query_ = 0;
  std::vector<uint32_t> stack_;
};

}  // namespace photonsim
