#include "topology/topology_properties.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "core/error.h"
#include "topology/breadth_first_search.h"

namespace photonsim {

namespace {

// Node 0 reaches every node over the lists' edges.
bool reaches_all(std::vector<std::vector<Node>> successors) {
  BreadthFirstSearch search(std::move(successors));
  search.run(0);
  return static_cast<int>(search.order().size()) == search.nodes();
}

}  // namespace

std::vector<std::vector<int>> hop_distances(const Topology& topology) {
  BreadthFirstSearch search(successor_lists(topology, NeighbourOrder::ascending));
  std::vector<std::vector<int>> distances(static_cast<size_t>(search.nodes()));
  for (Node s = 0; s < static_cast<Node>(search.nodes()); ++s) {
    search.run(s);
    distances[s] = search.distances();
  }
  return distances;
}

bool is_strongly_connected(const Topology& topology) {
  const int n = topology.gpus();
  if (n <= 1) return true;
  // Strongly connected iff node 0 reaches everyone and everyone reaches node 0.
  return reaches_all(successor_lists(topology, NeighbourOrder::ascending)) && reaches_all(predecessor_lists(topology));
}

int diameter(const Topology& topology) {
  const int n = topology.gpus();
  BreadthFirstSearch search(successor_lists(topology, NeighbourOrder::ascending));
  int longest = 0;
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    search.run(s);
    if (static_cast<int>(search.order().size()) < n) return -1;
    longest = std::max(longest, search.distance(search.order().back()));  // BFS order: last is farthest
  }
  return longest;
}

double average_hop_distance(const Topology& topology) {
  const int n = topology.gpus();
  if (n < 2) {
    throw Error("topology '" + topology.name() + "': average hop distance needs at least 2 GPUs, got " +
                std::to_string(n));
  }
  BreadthFirstSearch search(successor_lists(topology, NeighbourOrder::ascending));
  // Integer sum keeps the result exact and independent of summation order.
  int64_t total = 0;
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    search.run(s);
    const std::vector<int>& distance = search.distances();
    for (int t = 0; t < n; ++t) {
      if (distance[t] < 0) {
        throw Error("topology '" + topology.name() + "': node " + std::to_string(t) + " is unreachable from node " +
                    std::to_string(s) + ", so the average hop distance is undefined");
      }
      total += distance[t];
    }
  }
  return static_cast<double>(total) / (static_cast<double>(n) * static_cast<double>(n - 1));
}

bool is_regular(const Topology& topology, int degree) {
  const int n = topology.gpus();
  std::vector<int> out(static_cast<size_t>(n), 0), in(static_cast<size_t>(n), 0);
  for (const Edge& e : topology.edges()) {
    ++out[e.first];
    ++in[e.second];
  }
  for (int u = 0; u < n; ++u) {
    if (out[u] != degree || in[u] != degree) return false;
  }
  return true;
}

}  // namespace photonsim
