#pragma once
// Contract: hop-count shortest paths on one topology, with deterministic ties:
// from each node, neighbours are explored in order of clockwise offset
// (v - u mod n), so circulant topologies route every source the same way
// (on an even bidirectional ring the antipode goes clockwise). Breadth-first
// trees are built per source on first use and cached in this object.
#include <memory>
#include <vector>

#include "topology/topology.h"

namespace photonsim {

class ShortestPathRouter {
 public:
  explicit ShortestPathRouter(const Topology& topology);
  ~ShortestPathRouter();
  ShortestPathRouter(const ShortestPathRouter&) = delete;
  ShortestPathRouter& operator=(const ShortestPathRouter&) = delete;

  // Nodes from src to dst inclusive. Throws Error naming both nodes and the
  // topology when dst is unreachable.
  std::vector<Node> path(Node src, Node dst) const;
  // Hop count, or -1 when unreachable.
  int hops(Node src, Node dst) const;

 private:
  struct Graph;
  const std::vector<int>& tree_from(Node src) const;  // predecessor per node, -1 = none

  const Topology& topology_;
  std::unique_ptr<Graph> graph_;
  mutable std::vector<std::vector<int>> predecessors_;  // per source, empty until built
};

}  // namespace photonsim
