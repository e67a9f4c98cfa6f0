#include "topology/all_shortest_paths.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/error.h"
#include "topology/breadth_first_search.h"

namespace photonsim {

namespace {

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max() : a + b;
}

}  // namespace

std::vector<std::vector<Node>> clockwise_successors(const Topology& topology) {
  return successor_lists(topology, NeighbourOrder::clockwise);
}

struct AllShortestPaths::Layers {
  std::vector<int> distance;    // -1 = unreachable
  std::vector<uint64_t> count;  // shortest paths from the source, saturating
};

AllShortestPaths::AllShortestPaths(const Topology& topology)
    : name_(topology.name()),
      gpus_(topology.gpus()),
      search_(clockwise_successors(topology)),
      reverse_search_(predecessor_lists(topology)),
      layers_(static_cast<size_t>(topology.gpus())) {}

AllShortestPaths::~AllShortestPaths() = default;

void AllShortestPaths::check_node(Node v) const {
  if (v >= static_cast<Node>(gpus_)) {
    throw Error("node " + std::to_string(v) + " is out of range for topology '" + name_ + "' with " +
                std::to_string(gpus_) + " GPUs");
  }
}

const AllShortestPaths::Layers& AllShortestPaths::layers_from(Node src) const {
  check_node(src);
  std::unique_ptr<Layers>& cached = layers_[src];
  if (cached) return *cached;
  search_.run(src);
  auto layers = std::make_unique<Layers>();
  layers->distance = search_.distances();
  layers->count = search_.path_counts();
  cached = std::move(layers);
  return *cached;
}

void AllShortestPaths::forget_sources() const {
  for (std::unique_ptr<Layers>& layers : layers_) layers.reset();
}

int AllShortestPaths::hops(Node src, Node dst) const {
  check_node(dst);
  return layers_from(src).distance[dst];
}

uint64_t AllShortestPaths::count(Node src, Node dst) const {
  check_node(dst);
  return layers_from(src).count[dst];
}

ShortestPathSet AllShortestPaths::paths(Node src, Node dst, size_t limit) const {
  if (limit == 0) throw Error("all_shortest_paths: limit must be at least 1, got 0");
  check_node(dst);
  const Layers& layers = layers_from(src);
  ShortestPathSet result;
  const int length = layers.distance[dst];
  if (length < 0) return result;

  // Nodes from which dst lies further down the breadth-first DAG (reached
  // from dst back along DAG edges): only those may extend a partial path, so
  // the enumeration never backtracks in vain.
  reverse_search_.run(dst, [&](Node v, Node p) { return layers.distance[p] == layers.distance[v] - 1; });
  const std::vector<int>& back_from_dst = reverse_search_.distances();

  // Depth-first over the DAG, successors in clockwise order: lexicographic output.
  std::vector<Node> path{src};
  std::vector<size_t> next_choice{0};
  while (!path.empty() && result.paths.size() < limit) {
    const Node u = path.back();
    if (u == dst) {
      result.paths.push_back(path);
      path.pop_back();
      next_choice.pop_back();
      continue;
    }
    const std::vector<Node>& out = search_.successors()[u];
    size_t& i = next_choice.back();
    auto on_a_shortest_path = [&](Node v) {
      return layers.distance[v] == layers.distance[u] + 1 && back_from_dst[v] >= 0;
    };
    while (i < out.size() && !on_a_shortest_path(out[i])) ++i;
    if (i == out.size()) {
      path.pop_back();
      next_choice.pop_back();
      continue;
    }
    path.push_back(out[i++]);
    next_choice.push_back(0);
  }
  result.truncated = layers.count[dst] > limit;
  return result;
}

std::vector<Node> AllShortestPaths::sample(Node src, Node dst, Rng& rng) const {
  check_node(dst);
  const Layers& layers = layers_from(src);
  if (layers.distance[dst] < 0) {
    throw Error("no route from node " + std::to_string(src) + " to node " + std::to_string(dst) + " on topology '" +
                name_ + "'");
  }
  // Walk back from dst, taking each DAG predecessor with probability
  // proportional to its own path count: every full path is equally likely.
  std::vector<Node> nodes{dst};
  Node v = dst;
  while (v != src) {
    const uint64_t draw = rng.uniform(layers.count[v]);
    uint64_t cumulative = 0;
    Node chosen = v;
    for (Node p : reverse_search_.successors()[v]) {
      if (layers.distance[p] != layers.distance[v] - 1) continue;
      chosen = p;
      cumulative = saturating_add(cumulative, layers.count[p]);
      if (draw < cumulative) break;
    }
    v = chosen;
    nodes.push_back(v);
  }
  std::reverse(nodes.begin(), nodes.end());
  return nodes;
}

}  // namespace photonsim
