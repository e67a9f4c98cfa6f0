#include "topology/breadth_first_search.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

// GCC 12 at -O3 reports a false maybe-uninitialized inside Boost.Graph's
// inlined edge iterators; it is not in this project's code.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/pending/queue.hpp>

#include "core/error.h"

namespace photonsim {

namespace {

// Out-edge lists in insertion order (vecS), so Boost examines a node's edges in
// the order of its successor list.
using Adjacency = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// Thrown from the visitor when the target is reached: Boost's way to stop a search early.
struct TargetReached {};

// Records what the search learns into the results' vectors. Every node's edges
// are examined when it is dequeued and each layer is dequeued whole before the
// next, so count[u] is final when u's edges are examined.
class Recorder : public boost::default_bfs_visitor {
 public:
  Recorder(std::vector<int>& distance, std::vector<int>& parent, std::vector<uint64_t>& count, std::vector<Node>& order,
           std::optional<Node> target)
      : distance_(distance), parent_(parent), count_(count), order_(order), target_(target) {}

  template <class E, class G>
  void tree_edge(E e, const G& g) const {
    const auto u = boost::source(e, g), v = boost::target(e, g);
    distance_[v] = distance_[u] + 1;
    parent_[v] = static_cast<int>(u);
    count_[v] = count_[u];
    order_.push_back(static_cast<Node>(v));
    if (target_ == static_cast<Node>(v)) throw TargetReached{};
  }

  template <class E, class G>
  void non_tree_edge(E e, const G& g) const {
    const auto u = boost::source(e, g), v = boost::target(e, g);
    if (distance_[v] == distance_[u] + 1) count_[v] = saturating_add(count_[v], count_[u]);
  }

 private:
  static uint64_t saturating_add(uint64_t a, uint64_t b) {
    return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max() : a + b;
  }

  std::vector<int>& distance_;
  std::vector<int>& parent_;
  std::vector<uint64_t>& count_;
  std::vector<Node>& order_;
  std::optional<Node> target_;
};

// The edges a search may take, as Boost's filtered_graph asks for them.
struct AllowedEdges {
  const BreadthFirstSearch::EdgeFilter* allowed = nullptr;
  const Adjacency* adjacency = nullptr;
  bool operator()(Adjacency::edge_descriptor e) const {
    return (*allowed)(static_cast<Node>(boost::source(e, *adjacency)), static_cast<Node>(boost::target(e, *adjacency)));
  }
};

}  // namespace

struct BreadthFirstSearch::Graph {
  Adjacency adjacency;
  std::vector<boost::default_color_type> colors;
  boost::queue<Adjacency::vertex_descriptor> queue;
};

std::vector<std::vector<Node>> successor_lists(const Topology& topology, NeighbourOrder order) {
  const int n = topology.gpus();
  std::vector<std::vector<Node>> successors(static_cast<size_t>(n));
  for (const Edge& e : topology.edges()) {
    std::vector<Node>& out = successors[e.first];
    // Edges arrive sorted, so parallel circuits are adjacent duplicates.
    if (out.empty() || out.back() != e.second) out.push_back(e.second);
  }
  if (order == NeighbourOrder::ascending) return successors;
  const bool counter = order == NeighbourOrder::counterclockwise;
  for (Node u = 0; u < static_cast<Node>(n); ++u) {
    // Distinct neighbours have distinct offsets, so the sort has no ties.
    auto offset = [u, n, counter](Node v) {
      const int forward = (static_cast<int>(v) - static_cast<int>(u) + n) % n;
      return counter ? (n - forward) % n : forward;
    };
    std::sort(successors[u].begin(), successors[u].end(), [&](Node a, Node b) { return offset(a) < offset(b); });
  }
  return successors;
}

std::vector<std::vector<Node>> predecessor_lists(const Topology& topology) {
  std::vector<std::vector<Node>> predecessors(static_cast<size_t>(topology.gpus()));
  for (const Edge& e : topology.edges()) {
    std::vector<Node>& in = predecessors[e.second];
    // Sorted edges give each node its in-neighbours ascending, parallel circuits adjacent.
    if (in.empty() || in.back() != e.first) in.push_back(e.first);
  }
  return predecessors;
}

std::vector<std::vector<Node>> circulant_successor_lists(int n, const std::vector<int>& offsets) {
  std::vector<std::vector<Node>> successors(static_cast<size_t>(n));
  for (int u = 0; u < n; ++u) {
    std::vector<Node>& out = successors[static_cast<size_t>(u)];
    out.reserve(offsets.size());
    for (int g : offsets) out.push_back(static_cast<Node>((u + g) % n));
  }
  return successors;
}

BreadthFirstSearch::BreadthFirstSearch(std::vector<std::vector<Node>> successors)
    : successors_(std::move(successors)),
      distance_(successors_.size(), -1),
      parent_(successors_.size(), -1),
      count_(successors_.size(), 0),
      graph_(std::make_unique<Graph>()) {
  graph_->adjacency = Adjacency(successors_.size());
  graph_->colors.resize(successors_.size());
  for (size_t u = 0; u < successors_.size(); ++u) {
    for (Node v : successors_[u]) {
      check_node(v);
      boost::add_edge(u, v, graph_->adjacency);
    }
  }
}

BreadthFirstSearch::~BreadthFirstSearch() = default;
BreadthFirstSearch::BreadthFirstSearch(BreadthFirstSearch&&) noexcept = default;
BreadthFirstSearch& BreadthFirstSearch::operator=(BreadthFirstSearch&&) noexcept = default;

void BreadthFirstSearch::check_node(Node v) const {
  if (v >= static_cast<Node>(successors_.size())) {
    throw Error("breadth-first search: node " + std::to_string(v) + " is out of range for a graph of " +
                std::to_string(successors_.size()) + " nodes");
  }
}

void BreadthFirstSearch::run(Node src) { search(src, nullptr, std::nullopt); }

void BreadthFirstSearch::run(Node src, const EdgeFilter& allowed, std::optional<Node> target) {
  search(src, allowed ? &allowed : nullptr, target);
}

void BreadthFirstSearch::search(Node src, const EdgeFilter* allowed, std::optional<Node> target) {
  check_node(src);
  if (target) check_node(*target);
  std::fill(distance_.begin(), distance_.end(), -1);
  std::fill(parent_.begin(), parent_.end(), -1);
  std::fill(count_.begin(), count_.end(), 0);
  std::fill(graph_->colors.begin(), graph_->colors.end(), boost::white_color);
  order_.clear();
  distance_[src] = 0;
  count_[src] = 1;
  order_.push_back(src);
  if (target == src) return;
  const Recorder recorder(distance_, parent_, count_, order_, target);
  const auto colors =
      boost::make_iterator_property_map(graph_->colors.begin(), boost::get(boost::vertex_index, graph_->adjacency));
  while (!graph_->queue.empty()) graph_->queue.pop();  // left over when the last search stopped early
  try {
    if (allowed == nullptr) {
      boost::breadth_first_visit(graph_->adjacency, src, graph_->queue, recorder, colors);
    } else {
      const boost::filtered_graph<Adjacency, AllowedEdges> filtered(graph_->adjacency,
                                                                    AllowedEdges{allowed, &graph_->adjacency});
      boost::breadth_first_visit(filtered, src, graph_->queue, recorder, colors);
    }
  } catch (const TargetReached&) {
  }
}

int BreadthFirstSearch::distance(Node v) const {
  check_node(v);
  return distance_[v];
}

int BreadthFirstSearch::parent(Node v) const {
  check_node(v);
  return parent_[v];
}

std::vector<Node> BreadthFirstSearch::path_to(Node dst) const {
  check_node(dst);
  if (distance_[dst] < 0) return {};
  std::vector<Node> path{dst};
  for (int v = parent_[dst]; v >= 0; v = parent_[static_cast<size_t>(v)]) path.push_back(static_cast<Node>(v));
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace photonsim
