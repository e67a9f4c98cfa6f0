#include "topology/switch_decomposition.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/error.h"

namespace photonsim {

namespace {

constexpr int unmatched = -1;

// ---------------------------------------------------------------------------
// Directed split: successive perfect matchings of a k-regular bipartite
// multigraph. Left vertex u is u's transmit side, right vertex v is v's
// receive side; edge ids index `from`/`to`, so parallel circuits stay distinct.

struct BipartiteMultigraph {
  int vertices = 0;  // per side
  std::vector<int> from, to;
};

constexpr int unreached = std::numeric_limits<int>::max();

// Hopcroft-Karp's working state. The buffers live across phases, so a phase
// allocates nothing once they have grown.
struct MatchingState {
  explicit MatchingState(const BipartiteMultigraph& graph) : g(graph) {}

  const BipartiteMultigraph& g;
  std::vector<std::vector<int>> adjacency;   // left vertex -> alive edge ids
  std::vector<int> match_left, match_right;  // vertex -> edge id, or unmatched
  int matched = 0;
  std::vector<int> layer, queue, next;
  std::vector<int> stack, path;
};

MatchingState unmatched_state(const BipartiteMultigraph& g, const std::vector<char>& alive) {
  const int n = g.vertices;
  MatchingState m(g);
  m.adjacency.resize(static_cast<size_t>(n));
  for (size_t e = 0; e < g.from.size(); ++e) {
    if (alive[e]) m.adjacency[g.from[e]].push_back(static_cast<int>(e));
  }
  m.match_left.assign(static_cast<size_t>(n), unmatched);
  m.match_right.assign(static_cast<size_t>(n), unmatched);
  m.layer.resize(static_cast<size_t>(n));
  m.next.resize(static_cast<size_t>(n));
  return m;
}

// Greedy start: most vertices match immediately, leaving Hopcroft-Karp little to do.
void match_greedily(MatchingState& m) {
  const BipartiteMultigraph& g = m.g;
  for (int u = 0; u < g.vertices; ++u) {
    for (int e : m.adjacency[u]) {
      if (m.match_right[g.to[e]] == unmatched) {
        m.match_left[u] = e;
        m.match_right[g.to[e]] = e;
        ++m.matched;
        break;
      }
    }
  }
}

// BFS layers from the free left vertices along alternating paths; false when
// no free right vertex is reachable. Not BreadthFirstSearch: many sources, and
// the graph (left vertex -> the partner of a right neighbour) changes with the matching.
bool layer_alternating_paths(MatchingState& m) {
  const BipartiteMultigraph& g = m.g;
  m.queue.clear();
  for (int u = 0; u < g.vertices; ++u) {
    m.layer[u] = m.match_left[u] == unmatched ? 0 : unreached;
    if (m.layer[u] == 0) m.queue.push_back(u);
  }
  bool found_free_right = false;
  for (size_t head = 0; head < m.queue.size(); ++head) {
    const int u = m.queue[head];
    for (int e : m.adjacency[u]) {
      const int partner = m.match_right[g.to[e]];
      if (partner == unmatched) {
        found_free_right = true;
      } else {
        const int w = g.from[partner];
        if (m.layer[w] == unreached) {
          m.layer[w] = m.layer[u] + 1;
          m.queue.push_back(w);
        }
      }
    }
  }
  return found_free_right;
}

// One augmenting path from the free left vertex `root` along the layers, if
// any (iterative DFS, so long paths cannot overflow the call stack).
void augment_from(MatchingState& m, int root) {
  const BipartiteMultigraph& g = m.g;
  m.stack.assign(1, root);
  m.path.clear();  // path[i] leads from stack[i] towards stack[i + 1]
  while (!m.stack.empty()) {
    const int u = m.stack.back();
    if (m.next[u] == static_cast<int>(m.adjacency[u].size())) {
      m.layer[u] = unreached;  // dead end for the rest of this phase
      m.stack.pop_back();
      if (!m.path.empty()) m.path.pop_back();
      continue;
    }
    const int e = m.adjacency[u][m.next[u]++];
    const int partner = m.match_right[g.to[e]];
    if (partner == unmatched) {
      m.path.push_back(e);
      for (int p : m.path) {
        m.match_left[g.from[p]] = p;
        m.match_right[g.to[p]] = p;
      }
      ++m.matched;
      return;
    }
    const int w = g.from[partner];
    if (m.layer[w] == m.layer[u] + 1) {
      m.path.push_back(e);
      m.stack.push_back(w);
    }
  }
}

// Hopcroft-Karp over the edges with alive[e]; returns match_left[u] = edge id.
// The caller guarantees a perfect matching exists (Hall's condition holds in
// every regular bipartite multigraph), so a shortfall is a logic error.
std::vector<int> perfect_matching(const BipartiteMultigraph& g, const std::vector<char>& alive) {
  const int n = g.vertices;
  MatchingState m = unmatched_state(g, alive);
  match_greedily(m);
  while (m.matched < n) {
    if (!layer_alternating_paths(m))
      throw std::logic_error("switch decomposition: no perfect matching in a regular bipartite graph");
    // Vertex-disjoint augmenting paths along the layers.
    std::fill(m.next.begin(), m.next.end(), 0);
    for (int root = 0; root < n; ++root) {
      if (m.match_left[root] != unmatched || m.layer[root] != 0) continue;
      augment_from(m, root);
    }
  }
  return std::move(m.match_left);
}

// Colours (0..k-1) the circuits so no two of one colour share a transmitter
// or a receiver. Requires every out- and in-degree <= k (checked by callers).
std::vector<int> colour_bipartite(int n, const std::vector<Edge>& edges, int k) {
  BipartiteMultigraph g;
  g.vertices = n;
  std::vector<int> out_missing(static_cast<size_t>(n), k), in_missing(static_cast<size_t>(n), k);
  for (const Edge& e : edges) {
    g.from.push_back(static_cast<int>(e.first));
    g.to.push_back(static_cast<int>(e.second));
    --out_missing[e.first];
    --in_missing[e.second];
  }
  // Pad to k-regular: both sides miss the same total (n * k - edges), so pair
  // them off in order. A dummy u -> u is fine: the two copies are distinct.
  const size_t real_edges = edges.size();
  for (int u = 0, v = 0; u < n; ++u) {
    while (out_missing[u] > 0) {
      while (in_missing[v] == 0) ++v;
      g.from.push_back(u);
      g.to.push_back(v);
      --out_missing[u];
      --in_missing[v];
    }
  }
  std::vector<char> alive(g.from.size(), 1);
  std::vector<int> colour(real_edges, unmatched);
  for (int c = 0; c < k; ++c) {
    for (int e : perfect_matching(g, alive)) {
      alive[e] = 0;
      if (static_cast<size_t>(e) < real_edges) colour[e] = c;
    }
  }
  return colour;
}

// ---------------------------------------------------------------------------
// Bidirectional split of one non-bipartite connected component: exact
// backtracking over edges, always branching on the edge with the fewest
// colours left (DSatur order), trying only one never-used colour because all
// never-used colours are interchangeable.

enum class SearchOutcome { coloured, impossible, gave_up };

struct EdgeColouringSearch {
  std::vector<std::pair<int, int>> edges;  // local node ids
  std::vector<uint64_t> used;              // per node: colours on its edges
  std::vector<int> uncoloured_degree;      // per node
  std::vector<int> colour;                 // per edge, -1 while open
  uint64_t all_colours = 0;
  int64_t steps_left = 0;
  bool gave_up = false;

  bool extend(size_t open_edges, int colours_in_use) {
    if (open_edges == 0) return true;
    int best = -1;
    int best_free = 65;
    int best_pressure = -1;
    for (size_t e = 0; e < edges.size(); ++e) {
      if (colour[e] >= 0) continue;
      const auto [u, v] = edges[e];
      const int free = std::popcount(all_colours & ~(used[u] | used[v]));
      const int pressure = uncoloured_degree[u] + uncoloured_degree[v];
      if (free < best_free || (free == best_free && pressure > best_pressure)) {
        best = static_cast<int>(e);
        best_free = free;
        best_pressure = pressure;
      }
    }
    if (best_free == 0) return false;
    const auto [u, v] = edges[best];
    const uint64_t free = all_colours & ~(used[u] | used[v]);
    for (int c = 0; c <= colours_in_use && c < 64; ++c) {
      const uint64_t bit = uint64_t{1} << c;
      if (!(free & bit)) continue;
      if (--steps_left < 0) {
        gave_up = true;
        return false;
      }
      colour[best] = c;
      used[u] |= bit;
      used[v] |= bit;
      --uncoloured_degree[u];
      --uncoloured_degree[v];
      if (extend(open_edges - 1, std::max(colours_in_use, c + 1))) return true;
      colour[best] = -1;
      used[u] &= ~bit;
      used[v] &= ~bit;
      ++uncoloured_degree[u];
      ++uncoloured_degree[v];
      if (gave_up) return false;
    }
    return false;
  }
};

std::string node_list(const std::vector<int>& nodes) {
  std::string s;
  for (int u : nodes) s += (s.empty() ? "" : "-") + std::to_string(u);
  return s;
}

class BidirectionalSplitter {
 public:
  BidirectionalSplitter(const Topology& topology, int k, int64_t search_steps)
      : topology_(topology),
        k_(k),
        step_limit_(search_steps),
        steps_left_(search_steps),
        prefix_("bidirectional topology '" + topology.name() + "' cannot be split into " + std::to_string(k) +
                " switch matchings: ") {}

  std::vector<std::vector<int>> run() {
    const int n = topology_.gpus();
    for (const Edge& e : topology_.edges()) {
      if (e.first < e.second) edges_.push_back(e);
      if (topology_.multiplicity(e.first, e.second) != topology_.multiplicity(e.second, e.first)) {
        throw Error("bidirectional topology '" + topology_.name() + "': circuit " + std::to_string(e.first) + "->" +
                    std::to_string(e.second) + " at node " + std::to_string(e.first) +
                    " has no matching reverse circuit");
      }
    }
    incident_.assign(static_cast<size_t>(n), {});
    for (size_t e = 0; e < edges_.size(); ++e) {
      incident_[edges_[e].first].push_back(static_cast<int>(e));
      incident_[edges_[e].second].push_back(static_cast<int>(e));
    }
    for (int u = 0; u < n; ++u) {
      if (static_cast<int>(incident_[u].size()) > k_) {
        throw Error("bidirectional topology '" + topology_.name() + "': node " + std::to_string(u) + " ends " +
                    std::to_string(incident_[u].size()) + " circuits but there are only " + std::to_string(k_) +
                    " switches");
      }
    }
    colour_.assign(edges_.size(), unmatched);
    split_components();

    std::vector<std::vector<int>> permutations(static_cast<size_t>(k_), std::vector<int>(static_cast<size_t>(n), -1));
    for (size_t e = 0; e < edges_.size(); ++e) {
      const auto [u, v] = edges_[e];
      permutations[colour_[e]][u] = static_cast<int>(v);
      permutations[colour_[e]][v] = static_cast<int>(u);
    }
    return permutations;
  }

 private:
  // Bipartite components all go to König's route in one batch (oriented from
  // side 0 to side 1, so a directed split is a matching split); every other
  // component is searched on its own.
  void split_components() {
    const int n = topology_.gpus();
    std::vector<int> side(static_cast<size_t>(n), -1);
    std::vector<int> bipartite_edges;
    std::vector<Edge> oriented;
    for (int root = 0; root < n; ++root) {
      if (side[root] >= 0 || incident_[root].empty()) continue;
      std::vector<int> nodes{root};
      side[root] = 0;
      bool bipartite = true;
      for (size_t head = 0; head < nodes.size(); ++head) {
        const int u = nodes[head];
        for (int e : incident_[u]) {
          const int v = other_end(e, u);
          if (side[v] < 0) {
            side[v] = 1 - side[u];
            nodes.push_back(v);
          } else if (side[v] == side[u]) {
            bipartite = false;
          }
        }
      }
      std::vector<int> component_edges;
      for (int u : nodes) {
        for (int e : incident_[u]) {
          if (static_cast<int>(edges_[e].first) == u) component_edges.push_back(e);
        }
      }
      if (bipartite) {
        for (int e : component_edges) {
          const auto [u, v] = edges_[e];
          bipartite_edges.push_back(e);
          oriented.push_back(side[u] == 0 ? Edge{u, v} : Edge{v, u});
        }
      } else {
        search_component(nodes, component_edges);
      }
    }
    if (oriented.empty()) return;
    const std::vector<int> colours = colour_bipartite(n, oriented, k_);
    for (size_t i = 0; i < bipartite_edges.size(); ++i) colour_[bipartite_edges[i]] = colours[i];
  }

  void search_component(const std::vector<int>& nodes, const std::vector<int>& component_edges) {
    const int lowest = *std::min_element(nodes.begin(), nodes.end());
    const int64_t size = static_cast<int64_t>(nodes.size());
    const int64_t circuits = static_cast<int64_t>(component_edges.size());
    // Each matching covers at most floor(size / 2) circuits of the component.
    if (circuits > static_cast<int64_t>(k_) * (size / 2)) {
      if (k_ == 2) {
        // Degrees <= 2 and not bipartite: the component is an odd cycle.
        throw Error(prefix_ + "odd cycle " + odd_cycle(lowest) + " needs 3 switches");
      }
      throw Error(prefix_ + "no proper " + std::to_string(k_) +
                  "-edge-colouring exists (the component containing node " + std::to_string(lowest) + " has " +
                  std::to_string(circuits) + " circuits on " + std::to_string(size) + " nodes, but " +
                  std::to_string(k_) + " matchings hold at most " + std::to_string(k_ * (size / 2)) + ")");
    }
    std::vector<int> local(static_cast<size_t>(topology_.gpus()), -1);
    for (size_t i = 0; i < nodes.size(); ++i) local[nodes[i]] = static_cast<int>(i);
    EdgeColouringSearch search;
    int max_degree = 0;
    search.uncoloured_degree.assign(nodes.size(), 0);
    for (int e : component_edges) {
      const int u = local[edges_[e].first], v = local[edges_[e].second];
      search.edges.emplace_back(u, v);
      max_degree = std::max({max_degree, ++search.uncoloured_degree[u], ++search.uncoloured_degree[v]});
    }
    // With 2 * max_degree - 1 colours no edge can run out, so more colours
    // than that never help; this also keeps the colour masks within 64 bits.
    const int colours = std::min(k_, 2 * max_degree - 1);
    if (colours > 64) {
      throw Error("bidirectional topology '" + topology_.name() + "': node degrees up to " +
                  std::to_string(max_degree) +
                  " are beyond the edge-colouring search (at most 32 for non-bipartite components)");
    }
    search.used.assign(nodes.size(), 0);
    search.colour.assign(component_edges.size(), -1);
    search.all_colours = colours == 64 ? ~uint64_t{0} : (uint64_t{1} << colours) - 1;
    search.steps_left = steps_left_;
    const bool coloured = search.extend(component_edges.size(), 0);
    steps_left_ = std::max<int64_t>(search.steps_left, 0);
    if (search.gave_up) {
      throw Error("bidirectional topology '" + topology_.name() + "': the search for a split into " +
                  std::to_string(k_) + " switch matchings gave up on the component containing node " +
                  std::to_string(lowest) + " after " + std::to_string(step_limit_) +
                  " colour assignments; whether a split exists is unknown");
    }
    if (!coloured) {
      throw Error(prefix_ + "no proper " + std::to_string(k_) +
                  "-edge-colouring exists (exhaustive search over the component containing node " +
                  std::to_string(lowest) + ")");
    }
    for (size_t i = 0; i < component_edges.size(); ++i) colour_[component_edges[i]] = search.colour[i];
  }

  // Walks the 2-regular component from `start` and lists it, closing the loop.
  std::string odd_cycle(int start) const {
    std::vector<int> cycle{start};
    int previous_edge = -1;
    int u = start;
    while (true) {
      const int e = incident_[u][0] != previous_edge ? incident_[u][0] : incident_[u][1];
      u = other_end(e, u);
      previous_edge = e;
      cycle.push_back(u);
      if (u == start) break;
    }
    if (cycle.size() > 12) {
      const size_t length = cycle.size() - 1;
      cycle.resize(6);
      return node_list(cycle) + "-...-" + std::to_string(start) + " (length " + std::to_string(length) + ")";
    }
    return node_list(cycle);
  }

  int other_end(int e, int u) const {
    const auto [a, b] = edges_[e];
    return static_cast<int>(static_cast<int>(a) == u ? b : a);
  }

  const Topology& topology_;
  const int k_;
  const int64_t step_limit_;  // shared by all components
  int64_t steps_left_;
  const std::string prefix_;
  std::vector<Edge> edges_;                 // one per bidirectional circuit, first < second
  std::vector<std::vector<int>> incident_;  // per node: ids into edges_
  std::vector<int> colour_;                 // per edge: its switch
};

}  // namespace

SwitchDecomposition SwitchDecomposition::decompose(const Topology& topology, int switches, CircuitKind circuits,
                                                   int64_t search_steps) {
  if (switches < 1) {
    throw Error("switch decomposition of topology '" + topology.name() + "': switches must be >= 1, got " +
                std::to_string(switches));
  }
  const int n = topology.gpus();
  if (circuits == CircuitKind::bidirectional) {
    BidirectionalSplitter splitter(topology, switches, search_steps);
    return SwitchDecomposition(topology.name(), n, circuits, splitter.run());
  }
  std::vector<int> out(static_cast<size_t>(n), 0), in(static_cast<size_t>(n), 0);
  for (const Edge& e : topology.edges()) {
    ++out[e.first];
    ++in[e.second];
  }
  for (int u = 0; u < n; ++u) {
    if (out[u] > switches || in[u] > switches) {
      const bool sends = out[u] > switches;
      throw Error("topology '" + topology.name() + "': node " + std::to_string(u) + (sends ? " sends " : " receives ") +
                  std::to_string(sends ? out[u] : in[u]) + " circuits but there are only " + std::to_string(switches) +
                  " switches");
    }
  }
  const std::vector<int> colour = colour_bipartite(n, topology.edges(), switches);
  std::vector<std::vector<int>> permutations(static_cast<size_t>(switches),
                                             std::vector<int>(static_cast<size_t>(n), -1));
  for (size_t e = 0; e < colour.size(); ++e) {
    const Edge& edge = topology.edges()[e];
    permutations[colour[e]][edge.first] = static_cast<int>(edge.second);
  }
  return SwitchDecomposition(topology.name(), n, circuits, std::move(permutations));
}

Topology SwitchDecomposition::switch_topology(size_t i) const {
  if (i >= permutations_.size()) {
    throw Error("switch decomposition of topology '" + name_ + "': switch " + std::to_string(i) +
                " does not exist (there are " + std::to_string(permutations_.size()) + ")");
  }
  std::vector<Edge> edges;
  for (int u = 0; u < gpus_; ++u) {
    const int v = permutations_[i][u];
    if (v >= 0) edges.push_back({static_cast<Node>(u), static_cast<Node>(v)});
  }
  return Topology(name_ + "/switch" + std::to_string(i), gpus_, std::move(edges));
}

}  // namespace photonsim
