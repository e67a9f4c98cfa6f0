#include "topology/all_shortest_paths.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <utility>

#include "core/error.h"

namespace photonsim {

namespace {

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max() : a + b;
}

}  // namespace

std::vector<std::vector<Node>> clockwise_successors(const Topology& topology) {
  const int n = topology.gpus();
  std::vector<std::vector<Node>> successors(static_cast<size_t>(n));
  for (const Edge& e : topology.edges()) {
    std::vector<Node>& out = successors[e.first];
    // Edges arrive sorted, so parallel circuits are adjacent duplicates.
    if (out.empty() || out.back() != e.second) out.push_back(e.second);
  }
  for (Node u = 0; u < static_cast<Node>(n); ++u) {
    auto offset = [u, n](Node v) { return (static_cast<int>(v) - static_cast<int>(u) + n) % n; };
    std::sort(successors[u].begin(), successors[u].end(),
              [&](Node a, Node b) { return offset(a) < offset(b); });
  }
  return successors;
}

struct AllShortestPaths::Layers {
  std::vector<int> distance;    // -1 = unreachable
  std::vector<uint64_t> count;  // shortest paths from the source, saturating
};

AllShortestPaths::AllShortestPaths(const Topology& topology)
    : name_(topology.name()), gpus_(topology.gpus()), successors_(clockwise_successors(topology)),
      predecessors_(static_cast<size_t>(topology.gpus())),
      layers_(static_cast<size_t>(topology.gpus())) {
  for (Node u = 0; u < static_cast<Node>(gpus_); ++u) {
    for (Node v : successors_[u]) predecessors_[v].push_back(u);
  }
}

AllShortestPaths::~AllShortestPaths() = default;

void AllShortestPaths::check_node(Node v) const {
  if (v >= static_cast<Node>(gpus_)) {
    throw Error("node " + std::to_string(v) + " is out of range for topology '" + name_ +
                "' with " + std::to_string(gpus_) + " GPUs");
  }
}

const AllShortestPaths::Layers& AllShortestPaths::layers_from(Node src) const {
  check_node(src);
  std::unique_ptr<Layers>& cached = layers_[src];
  if (cached) return *cached;
  auto layers = std::make_unique<Layers>();
  layers->distance.assign(static_cast<size_t>(gpus_), -1);
  layers->count.assign(static_cast<size_t>(gpus_), 0);
  layers->distance[src] = 0;
  layers->count[src] = 1;
  std::deque<Node> queue{src};
  while (!queue.empty()) {
    const Node u = queue.front();
    queue.pop_front();
    // Breadth-first order pops a whole layer before the next, so count[u] is final here.
    for (Node v : successors_[u]) {
      if (layers->distance[v] < 0) {
        layers->distance[v] = layers->distance[u] + 1;
        layers->count[v] = layers->count[u];
        queue.push_back(v);
      } else if (layers->distance[v] == layers->distance[u] + 1) {
        layers->count[v] = saturating_add(layers->count[v], layers->count[u]);
      }
    }
  }
  cached = std::move(layers);
  return *cached;
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

  // Nodes from which dst lies further down the breadth-first DAG: only those
  // may extend a partial path, so the enumeration never backtracks in vain.
  std::vector<bool> leads_to_dst(static_cast<size_t>(gpus_), false);
  leads_to_dst[dst] = true;
  std::vector<Node> frontier{dst};
  while (!frontier.empty()) {
    std::vector<Node> next;
    for (Node v : frontier) {
      for (Node p : predecessors_[v]) {
        if (layers.distance[p] == layers.distance[v] - 1 && !leads_to_dst[p]) {
          leads_to_dst[p] = true;
          next.push_back(p);
        }
      }
    }
    frontier = std::move(next);
  }

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
    const std::vector<Node>& out = successors_[u];
    size_t& i = next_choice.back();
    auto on_a_shortest_path = [&](Node v) {
      return layers.distance[v] == layers.distance[u] + 1 && leads_to_dst[v];
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
    throw Error("no route from node " + std::to_string(src) + " to node " + std::to_string(dst) +
                " on topology '" + name_ + "'");
  }
  // Walk back from dst, taking each DAG predecessor with probability
  // proportional to its own path count: every full path is equally likely.
  std::vector<Node> nodes{dst};
  Node v = dst;
  while (v != src) {
    const uint64_t draw = rng.uniform(layers.count[v]);
    uint64_t cumulative = 0;
    Node chosen = v;
    for (Node p : predecessors_[v]) {
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
