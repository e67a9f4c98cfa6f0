#include "topology/shortest_path_router.h"

#include <algorithm>

// GCC 12 at -O3 reports a false maybe-uninitialized inside Boost.Graph's
// inlined edge iterators; it is not in this project's code.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>

#include "core/error.h"
#include "core/rng.h"

namespace photonsim {

struct ShortestPathRouter::Graph {
  boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS> g;
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
    : topology_(topology), tie_break_(tie_break),
      predecessors_(static_cast<size_t>(topology.gpus())) {
  if (tie_break_.kind == TieBreak::Kind::random) {
    all_paths_ = std::make_unique<AllShortestPaths>(topology);
    return;
  }
  graph_ = std::make_unique<Graph>();
  const int n = topology.gpus();
  std::vector<Edge> ordered = topology.edges();
  ordered.erase(std::unique(ordered.begin(), ordered.end()), ordered.end());
  const bool counter = tie_break_.kind == TieBreak::Kind::counterclockwise;
  auto offset = [n, counter](const Edge& e) {
    const int forward = (static_cast<int>(e.second) - static_cast<int>(e.first) + n) % n;
    return counter ? (n - forward) % n : forward;
  };
  std::stable_sort(ordered.begin(), ordered.end(), [&](const Edge& a, const Edge& b) {
    if (a.first != b.first) return a.first < b.first;
    return offset(a) < offset(b);
  });
  graph_->g = decltype(graph_->g)(static_cast<size_t>(n));
  for (const Edge& e : ordered) boost::add_edge(e.first, e.second, graph_->g);
}

ShortestPathRouter::~ShortestPathRouter() = default;

const std::vector<int>& ShortestPathRouter::tree_from(Node src) const {
  std::vector<int>& pred = predecessors_.at(src);
  if (!pred.empty()) return pred;
  const size_t n = static_cast<size_t>(topology_.gpus());
  std::vector<size_t> parent(n, SIZE_MAX);
  parent[src] = src;
  boost::breadth_first_search(
      graph_->g, boost::vertex(src, graph_->g),
      boost::visitor(boost::make_bfs_visitor(
          boost::record_predecessors(parent.data(), boost::on_tree_edge()))));
  pred.assign(n, -1);
  for (size_t v = 0; v < n; ++v) {
    if (v != src && parent[v] != SIZE_MAX) pred[v] = static_cast<int>(parent[v]);
  }
  return pred;
}

void ShortestPathRouter::check_node(Node v) const {
  if (v >= static_cast<Node>(topology_.gpus())) {
    throw Error("node " + std::to_string(v) + " is out of range for topology '" +
                topology_.name() + "' with " + std::to_string(topology_.gpus()) + " GPUs");
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
      throw Error("no route from node " + std::to_string(src) + " to node " +
                  std::to_string(dst) + " on topology '" + topology_.name() + "'");
    }
    nodes.push_back(static_cast<Node>(pred[v]));
  }
  std::reverse(nodes.begin(), nodes.end());
  return nodes;
}

}  // namespace photonsim
