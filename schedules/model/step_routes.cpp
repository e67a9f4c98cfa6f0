#include "schedules/model/step_routes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <string>

#include "core/error.h"
#include "topology/shortest_path_router.h"

namespace photonsim {

namespace {

// The circuits u -> v as a range of the topology's sorted edge list, found
// among u's out-circuits (a GPU's ports, a handful) rather than by a search
// of every edge: steps of thousands of multi-hop flows look up every hop.
class CircuitIndex {
 public:
  explicit CircuitIndex(const Topology& topology) : edges_(topology.edges()), offsets_(topology.out_offsets()) {}
  std::pair<uint32_t, uint32_t> circuits(Node u, Node v) const {
    if (u >= offsets_.size() - 1) return {0, 0};
    const auto begin = edges_.begin() + offsets_[u];
    const auto end = edges_.begin() + offsets_[u + 1];
    auto range = std::equal_range(begin, end, Edge{u, v});
    return {static_cast<uint32_t>(range.first - edges_.begin()), static_cast<uint32_t>(range.second - edges_.begin())};
  }

 private:
  const std::vector<Edge>& edges_;
  std::vector<uint32_t> offsets_;
};

// `turns`, when given, counts the transfer's earlier routes over each hop, so
// its routes take a hop's parallel circuits in turn.
LinkRoute links_of(const std::vector<Node>& nodes, const Topology& topology, const CircuitIndex& index,
                   const Transfer& t, size_t spread, size_t step_index, std::map<Edge, size_t>* turns = nullptr) {
  LinkRoute route;
  route.reserve(nodes.size());
  for (size_t h = 0; h + 1 < nodes.size(); ++h) {
    const auto [first, last] = index.circuits(nodes[h], nodes[h + 1]);
    const size_t multiplicity = last - first;
    if (multiplicity == 0) {
      throw Error("step " + std::to_string(step_index) + ": transfer " + std::to_string(t.src) + "->" +
                  std::to_string(t.dst) + " uses hop " + std::to_string(nodes[h]) + "->" +
                  std::to_string(nodes[h + 1]) + ", which is not a circuit of topology '" + topology.name() + "'");
    }
    const size_t turn = turns ? (*turns)[Edge{nodes[h], nodes[h + 1]}]++ : 0;
    route.push_back(first + static_cast<uint32_t>((spread + turn) % multiplicity));
  }
  return route;
}

// Where every GPU has exactly one circuit out (shifted rings, k = 1), the
// shortest path is the only walk: following it costs its hops, where a
// breadth-first tree per source would cost O(n) each.
class SuccessorWalk {
 public:
  explicit SuccessorWalk(const Topology& topology) : topology_(topology) {
    if (!topology.one_circuit_out_of_every_gpu()) return;
    successor_.reserve(topology.edges().size());
    for (const Edge& e : topology.edges()) successor_.push_back(e.second);
  }
  bool applies(Node src, Node dst) const { return src != dst && src < successor_.size() && dst < successor_.size(); }
  std::vector<Node> path(Node src, Node dst) const {
    std::vector<Node> nodes{src};
    for (Node v = successor_[src]; nodes.size() <= successor_.size(); v = successor_[v]) {
      nodes.push_back(v);
      if (v == dst) return nodes;
    }
    throw Error("no route from node " + std::to_string(src) + " to node " + std::to_string(dst) + " on topology '" +
                topology_.name() + "'");
  }

 private:
  const Topology& topology_;
  std::vector<Node> successor_;  // empty unless out-degree is 1 everywhere
};

}  // namespace

void for_each_routed_flow(const Step& step, const Topology& topology, size_t step_index,
                          const std::function<void(RoutedFlow&&)>& visit) {
  std::optional<SuccessorWalk> walk;         // checked on first multi-hop transfer
  std::optional<ShortestPathRouter> router;  // built on first multi-hop transfer the walk cannot route
  std::optional<ShortestPathRouter> counter_router;
  const CircuitIndex index(topology);
  for (size_t i = 0; i < step.transfers.size(); ++i) {
    const Transfer& t = step.transfers[i];
    if (!t.routes.empty()) {
      std::map<Edge, size_t> turns;
      for (const Route& r : t.routes) visit({i, links_of(r.path, topology, index, t, i, step_index, &turns), r.bytes});
      continue;
    }
    std::vector<Node> nodes;
    try {
      if (!t.path.empty()) {
        nodes = t.path;
      } else if (const auto [first, last] = index.circuits(t.src, t.dst); last > first) {
        nodes = {t.src, t.dst};  // a direct circuit is the only 1-hop path: no search needed
      } else {
        if (!walk) walk.emplace(topology);
        if (walk->applies(t.src, t.dst)) {
          nodes = walk->path(t.src, t.dst);
        } else if (t.counterclockwise) {
          if (!counter_router) counter_router.emplace(topology, ShortestPathRouter::TieBreak::counterclockwise());
          nodes = counter_router->path(t.src, t.dst);
        } else {
          if (!router) router.emplace(topology);
          nodes = router->path(t.src, t.dst);
        }
      }
    } catch (const Error& e) {
      throw Error("step " + std::to_string(step_index) + ": unroutable transfer " + std::to_string(t.src) + "->" +
                  std::to_string(t.dst) + ": " + e.what());
    }
    visit({i, links_of(nodes, topology, index, t, i, step_index), t.bytes});
  }
}

std::vector<RoutedFlow> route_step(const Step& step, const Topology& topology, size_t step_index) {
  std::vector<RoutedFlow> flows;
  flows.reserve(step.transfers.size());
  for_each_routed_flow(step, topology, step_index, [&](RoutedFlow&& flow) { flows.push_back(std::move(flow)); });
  return flows;
}

}  // namespace photonsim
