#include "topology/shortest_path_router.h"

#include <algorithm>

#include "core/error.h"
#include "core/rng.h"
#include "topology/breadth_first_search.h"

namespace photonsim {

struct ShortestPathRouter::Graph {
  BreadthFirstSearch search;  // over the successors in the tie-break's order
};

namespace {

// Pairs (src, dst) map to well-separated seeds; splitmix64's finaliser keeps
// neighbouring pairs and neighbouring seeds from giving correlated streams.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t pair_seed(uint64_t seed, Node src, Node dst) {
  return mix(mix(seed) ^ ((static_cast<uint64_t>(src) << 32) | dst));
}

}  // namespace

ShortestPathRouter::ShortestPathRouter(const Topology& topology)
    : ShortestPathRouter(topology, TieBreak::clockwise()) {}

ShortestPathRouter::ShortestPathRouter(const Topology& topology, TieBreak tie_break)
    : topology_(topology), tie_break_(tie_break), predecessors_(static_cast<size_t>(topology.gpus())) {
  if (tie_break_.kind == TieBreak::Kind::random) {
    all_paths_ = std::make_unique<AllShortestPaths>(topology);
    return;
  }
  const NeighbourOrder order = tie_break_.kind == TieBreak::Kind::counterclockwise ? NeighbourOrder::counterclockwise
                                                                                   : NeighbourOrder::clockwise;
  graph_ = std::make_unique<Graph>(Graph{BreadthFirstSearch(successor_lists(topology, order))});
}

ShortestPathRouter::~ShortestPathRouter() = default;

const std::vector<int>& ShortestPathRouter::tree_from(Node src) const {
  std::vector<int>& pred = predecessors_.at(src);
  if (!pred.empty()) return pred;
  graph_->search.run(src);
  pred = graph_->search.parents();
  return pred;
}

void ShortestPathRouter::check_node(Node v) const {
  if (v >= static_cast<Node>(topology_.gpus())) {
    throw Error("node " + std::to_string(v) + " is out of range for topology '" + topology_.name() + "' with " +
                std::to_string(topology_.gpus()) + " GPUs");
  }
}

int ShortestPathRouter::hops(Node src, Node dst) const {
  check_node(src);
  check_node(dst);
  if (all_paths_) return all_paths_->hops(src, dst);
  if (src == dst) return 0;
  const std::vector<int>& pred = tree_from(src);
  int count = 0;
  for (int v = static_cast<int>(dst); v != static_cast<int>(src); v = pred[v]) {
    if (pred[v] < 0) return -1;
    ++count;
  }
  return count;
}

std::vector<Node> ShortestPathRouter::path(Node src, Node dst) const {
  check_node(src);
  check_node(dst);
  if (all_paths_) {
    Rng rng(pair_seed(tie_break_.seed, src, dst));
    return all_paths_->sample(src, dst, rng);
  }
  const std::vector<int>& pred = tree_from(src);
  std::vector<Node> nodes{dst};
  for (int v = static_cast<int>(dst); v != static_cast<int>(src); v = pred[v]) {
    if (pred[v] < 0) {
      throw Error("no route from node " + std::to_string(src) + " to node " + std::to_string(dst) + " on topology '" +
                  topology_.name() + "'");
    }
    nodes.push_back(static_cast<Node>(pred[v]));
  }
  std::reverse(nodes.begin(), nodes.end());
  return nodes;
}

}  // namespace photonsim
