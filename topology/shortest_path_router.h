#pragma once
// Contract: hop-count shortest paths on one topology, with deterministic ties.
// Default (clockwise): from each node, neighbours are explored in order of
// clockwise offset (v - u mod n), so circulant topologies route every source
// the same way (on an even bidirectional ring the antipode goes clockwise);
// the path returned is the first of AllShortestPaths' lexicographic order.
// Counterclockwise: the same with offsets (u - v mod n), so ties go the other
// way round (a mirrored algorithm's "-" direction).
// Breadth-first trees are built per source on first use and cached.
// Random: each (src, dst) gets a shortest path drawn uniformly among all of
// them by an Rng seeded from (seed, src, dst), so the answer depends only on
// the seed and the pair, never on query order; different pairs need not share
// prefixes (the routes are not a tree).
// Not safe to share between threads (caches). Nodes out of range throw Error.
#include <cstdint>
#include <memory>
#include <vector>

#include "topology/all_shortest_paths.h"
#include "topology/topology.h"

namespace photonsim {

class ShortestPathRouter {
 public:
  struct TieBreak {
    enum class Kind { clockwise, counterclockwise, random };
    Kind kind = Kind::clockwise;
    uint64_t seed = 0;  // used by Kind::random only

    static TieBreak clockwise() { return TieBreak{}; }
    static TieBreak random(uint64_t seed) { return TieBreak{Kind::random, seed}; }
    static TieBreak counterclockwise() { return TieBreak{Kind::counterclockwise, 0}; }
  };

  explicit ShortestPathRouter(const Topology& topology);
  ShortestPathRouter(const Topology& topology, TieBreak tie_break);
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
  void check_node(Node v) const;

  const Topology& topology_;
  TieBreak tie_break_;
  std::unique_ptr<Graph> graph_;                        // clockwise and counterclockwise
  std::unique_ptr<AllShortestPaths> all_paths_;         // random only
  mutable std::vector<std::vector<int>> predecessors_;  // per source, empty until built
};

}  // namespace photonsim
