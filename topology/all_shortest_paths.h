#pragma once
// Contract: every hop-count shortest path between two nodes of one topology,
// as node lists. Paths are enumerated in lexicographic order of their
// clockwise offsets ((next - here) mod n at each hop), so the first path is
// exactly the one ShortestPathRouter's default tie-breaking returns. Parallel
// circuits do not multiply paths: a path is a sequence of nodes.
//
// count() counts shortest paths without enumerating them (dynamic programming
// over the breadth-first DAG), saturating at UINT64_MAX. paths() enumerates at
// most `limit` of them and TRUNCATES, never throws, when more exist:
// `truncated` is then true and `paths` holds the first `limit` in order.
// sample() draws one shortest path uniformly at random (exact while the count
// is below 2^64; with saturated counts the draw is close to, not exactly, uniform).
//
// Per-source breadth-first layers are built on first use and cached in this
// object, so it is not safe to share between threads. Nodes out of range
// throw Error naming the node and the topology.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.h"
#include "topology/breadth_first_search.h"
#include "topology/topology.h"

namespace photonsim {

// Distinct out-neighbours of every node, ordered by clockwise offset
// (v - u mod n): the exploration order all routing in topology/ shares
// (successor_lists(topology, NeighbourOrder::clockwise)).
std::vector<std::vector<Node>> clockwise_successors(const Topology& topology);

struct ShortestPathSet {
  std::vector<std::vector<Node>> paths;
  bool truncated = false;  // more shortest paths exist than `paths` holds
};

class AllShortestPaths {
 public:
  explicit AllShortestPaths(const Topology& topology);
  ~AllShortestPaths();
  AllShortestPaths(const AllShortestPaths&) = delete;
  AllShortestPaths& operator=(const AllShortestPaths&) = delete;

  // Drops the cached layers (every answer stays the same; they are built
  // again on use): a caller holding many of these bounds its memory.
  void forget_sources() const;
  // Hop count, or -1 when dst is unreachable.
  int hops(Node src, Node dst) const;
  // Number of shortest paths (1 when src == dst, 0 when unreachable).
  uint64_t count(Node src, Node dst) const;
  // The first `limit` shortest paths in clockwise-lexicographic order; empty
  // when unreachable. Throws Error when limit is 0.
  ShortestPathSet paths(Node src, Node dst, size_t limit) const;
  // One shortest path drawn uniformly with `rng`. Throws Error naming both
  // nodes and the topology when dst is unreachable.
  std::vector<Node> sample(Node src, Node dst, Rng& rng) const;

 private:
  struct Layers;  // distances and path counts from one source
  const Layers& layers_from(Node src) const;
  void check_node(Node v) const;

  std::string name_;
  int gpus_ = 0;
  mutable BreadthFirstSearch search_;                    // over clockwise_successors(): the layers per source
  mutable BreadthFirstSearch reverse_search_;            // over predecessor_lists() (ascending): back from dst
  mutable std::vector<std::unique_ptr<Layers>> layers_;  // per source, null until built
};

}  // namespace photonsim
