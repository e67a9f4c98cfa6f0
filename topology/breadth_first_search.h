#pragma once
// Contract: breadth-first search by hop count from one source over a directed
// graph on nodes 0..n-1 given as successor lists; the one BFS of topology/.
// The queue is first in, first out and each node's successors are examined in
// the order its list holds them, so the visit order and every parent (the
// first dequeued node with an edge to it) follow from the lists' order alone:
// a caller picks its tie-breaking by how it orders the lists (successor_lists()
// gives a topology's orders). Distances and shortest-path counts do not depend
// on that order. A search may skip the edges a filter rejects and may stop as
// soon as a target is reached. The object owns the lists, keeps the last
// search's results and reuses its buffers, so it is not safe to share between
// threads. Nodes out of range throw Error. The search itself is Boost.Graph's
// breadth_first_visit (FIFO, out-edges in insertion order).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "topology/topology.h"

namespace photonsim {

// How successor_lists() orders each node's out-neighbours.
enum class NeighbourOrder {
  ascending,         // by node id, as the topology's sorted edges hold them
  clockwise,         // by offset (v - u) mod n
  counterclockwise,  // by offset (u - v) mod n
};

// Distinct out-neighbours of every node (parallel circuits once), in `order`.
std::vector<std::vector<Node>> successor_lists(const Topology& topology, NeighbourOrder order);

// Distinct in-neighbours of every node, ascending: the lists of the reversed graph.
std::vector<std::vector<Node>> predecessor_lists(const Topology& topology);

// The circulant on n nodes with circuits u -> (u + g) mod n: every node's
// successors in the order of `offsets` (each in 1..n-1).
std::vector<std::vector<Node>> circulant_successor_lists(int n, const std::vector<int>& offsets);

class BreadthFirstSearch {
 public:
  // True when the search may take the edge u -> v.
  using EdgeFilter = std::function<bool(Node u, Node v)>;

  explicit BreadthFirstSearch(std::vector<std::vector<Node>> successors);
  ~BreadthFirstSearch();
  BreadthFirstSearch(BreadthFirstSearch&&) noexcept;
  BreadthFirstSearch& operator=(BreadthFirstSearch&&) noexcept;

  int nodes() const { return static_cast<int>(successors_.size()); }
  const std::vector<std::vector<Node>>& successors() const { return successors_; }

  // Searches from src over every edge.
  void run(Node src);
  // Searches from src over the edges `allowed` accepts; with a target, stops
  // once it is reached (the nodes reached so far keep final distances and
  // parents; the rest stay unreached and path_counts() is partial).
  void run(Node src, const EdgeFilter& allowed, std::optional<Node> target = std::nullopt);

  // Results of the last run. Hops from the source, -1 when unreached.
  const std::vector<int>& distances() const { return distance_; }
  int distance(Node v) const;
  // The node whose edge first reached v; -1 for the source and unreached nodes.
  const std::vector<int>& parents() const { return parent_; }
  int parent(Node v) const;
  // Reached nodes in visit order: the source first, distances never decrease.
  const std::vector<Node>& order() const { return order_; }
  // Shortest paths from the source over the edges searched, saturating at
  // UINT64_MAX: 1 at the source, 0 when unreached.
  const std::vector<uint64_t>& path_counts() const { return count_; }
  // Nodes from the source to dst along parents; empty when dst is unreached.
  std::vector<Node> path_to(Node dst) const;

 private:
  void search(Node src, const EdgeFilter* allowed, std::optional<Node> target);
  void check_node(Node v) const;

  struct Graph;  // Boost.Graph's adjacency list and the search's buffers

  std::vector<std::vector<Node>> successors_;
  std::vector<int> distance_;
  std::vector<int> parent_;
  std::vector<Node> order_;  // reached nodes; the part not yet dequeued is the queue
  std::vector<uint64_t> count_;
  std::unique_ptr<Graph> graph_;
};

}  // namespace photonsim
