#include "topology/topology_properties.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/error.h"

namespace photonsim {

namespace {

// Compressed adjacency (CSR) in the out- or in-direction. The topology's edges
// are already sorted by source, but building by counting works either way.
struct Adjacency {
  std::vector<int> offsets;    // n + 1 entries
  std::vector<int> neighbours;
};

Adjacency build_adjacency(const Topology& topology, bool reversed) {
  const int n = topology.gpus();
  Adjacency adj;
  adj.offsets.assign(static_cast<size_t>(n) + 1, 0);
  for (const Edge& e : topology.edges()) ++adj.offsets[(reversed ? e.second : e.first) + 1];
  for (int u = 0; u < n; ++u) adj.offsets[u + 1] += adj.offsets[u];
  adj.neighbours.resize(topology.edges().size());
  std::vector<int> fill(adj.offsets.begin(), adj.offsets.end() - 1);
  for (const Edge& e : topology.edges()) {
    const Node from = reversed ? e.second : e.first;
    const Node to = reversed ? e.first : e.second;
    adj.neighbours[fill[from]++] = static_cast<int>(to);
  }
  return adj;
}

// Fills `distance` (size n) with hop counts from src, -1 = unreachable.
// `queue` is scratch space reused across sources to avoid reallocations.
void bfs(const Adjacency& adj, int src, std::vector<int>& distance, std::vector<int>& queue) {
  std::fill(distance.begin(), distance.end(), -1);
  queue.clear();
  distance[src] = 0;
  queue.push_back(src);
  for (size_t head = 0; head < queue.size(); ++head) {
    const int u = queue[head];
    for (int i = adj.offsets[u]; i < adj.offsets[u + 1]; ++i) {
      const int v = adj.neighbours[i];
      if (distance[v] < 0) {
        distance[v] = distance[u] + 1;
        queue.push_back(v);
      }
    }
  }
}

bool reaches_all(const Adjacency& adj, int n) {
  std::vector<int> distance(static_cast<size_t>(n)), queue;
  bfs(adj, 0, distance, queue);
  return static_cast<int>(queue.size()) == n;
}

}  // namespace

std::vector<std::vector<int>> hop_distances(const Topology& topology) {
  const int n = topology.gpus();
  const Adjacency adj = build_adjacency(topology, false);
  std::vector<std::vector<int>> distances(static_cast<size_t>(n),
                                          std::vector<int>(static_cast<size_t>(n)));
  std::vector<int> queue;
  for (int s = 0; s < n; ++s) bfs(adj, s, distances[s], queue);
  return distances;
}

bool is_strongly_connected(const Topology& topology) {
  const int n = topology.gpus();
  if (n <= 1) return true;
  // Strongly connected iff node 0 reaches everyone and everyone reaches node 0.
  return reaches_all(build_adjacency(topology, false), n) &&
         reaches_all(build_adjacency(topology, true), n);
}

int diameter(const Topology& topology) {
  const int n = topology.gpus();
  const Adjacency adj = build_adjacency(topology, false);
  std::vector<int> distance(static_cast<size_t>(n)), queue;
  int longest = 0;
  for (int s = 0; s < n; ++s) {
    bfs(adj, s, distance, queue);
    if (static_cast<int>(queue.size()) < n) return -1;
    longest = std::max(longest, distance[queue.back()]);  // BFS order: last is farthest
  }
  return longest;
}

double average_hop_distance(const Topology& topology) {
  const int n = topology.gpus();
  if (n < 2) {
    throw Error("topology '" + topology.name() + "': average hop distance needs at least 2 GPUs, got " +
                std::to_string(n));
  }
  const Adjacency adj = build_adjacency(topology, false);
  std::vector<int> distance(static_cast<size_t>(n)), queue;
  // Integer sum keeps the result exact and independent of summation order.
  int64_t total = 0;
  for (int s = 0; s < n; ++s) {
    bfs(adj, s, distance, queue);
    for (int t = 0; t < n; ++t) {
      if (distance[t] < 0) {
        throw Error("topology '" + topology.name() + "': node " + std::to_string(t) +
                    " is unreachable from node " + std::to_string(s) +
                    ", so the average hop distance is undefined");
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
