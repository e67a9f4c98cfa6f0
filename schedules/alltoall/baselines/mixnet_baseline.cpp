#include "schedules/alltoall/baselines/mixnet_baseline.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include "core/error.h"
#include "schedules/alltoall/baselines/concurrent_routing.h"
#include "schedules/alltoall/round_packer.h"
#include "topology/all_shortest_paths.h"

namespace photonsim {

AlgorithmInfo MixnetBaseline::info() const {
  return {
      "mixnet",
      {Collective::alltoall},
      "joint",
      "MixNet: one greedy topology from the traffic matrix (heaviest pairs first), shortest paths (d = 1)",
      {ParameterSpec::choice("routing", {"rounds", "max_concurrent_flow"},
                             "rounds: one shortest path per flow, packed into contention-free rounds (the all-to-all "
                             "paper's scheduling of baselines without one); max_concurrent_flow: DirectConnect's "
                             "split routing, one concurrent round")},
      "n >= 2",
      true};
}

bool MixnetBaseline::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {

constexpr size_t kCandidatePaths = 16;  // shortest paths offered to the packer per flow

// The circuits being built: at most one per ordered pair, port counts per node.
class CircuitSet {
 public:
  explicit CircuitSet(const JointInput& input)
      : input_(input),
        n_(input.gpus()),
        ports_(input.fabric.ports),
        out_(static_cast<size_t>(n_), 0),
        in_(static_cast<size_t>(n_), 0) {}

  int gpus() const { return n_; }
  bool has(Node u, Node v) const { return circuits_.count({u, v}) > 0; }
  bool free_out(Node u) const { return out_[u] < ports_; }
  bool free_in(Node v) const { return in_[v] < ports_; }
  // Adds u -> v unless it exists (the port then stays dark); ports must be free.
  void add(Node u, Node v) {
    if (u == v || has(u, v)) return;
    circuits_.insert({u, v});
    ++out_[u];
    ++in_[v];
  }
  void remove(const Edge& e) {
    circuits_.erase(e);
    --out_[e.first];
    --in_[e.second];
  }
  const std::set<Edge>& circuits() const { return circuits_; }

  // The circuit of least demand among those `pick` accepts (ties: smaller pair), if any.
  template <class Pick>
  std::optional<Edge> lightest(Pick pick) const {
    std::optional<Edge> best;
    for (const Edge& e : circuits_) {
      if (!pick(e)) continue;
      if (!best || input_.demand_at(e.first, e.second) < input_.demand_at(best->first, best->second)) best = e;
    }
    return best;
  }

  // Strongly connected component of every node, numbered by their smallest node.
  std::vector<int> components() const {
    std::vector<std::vector<Node>> succ(static_cast<size_t>(n_)), pred(static_cast<size_t>(n_));
    for (const Edge& e : circuits_) {
      succ[e.first].push_back(e.second);
      pred[e.second].push_back(e.first);
    }
    auto reach = [&](Node from, const std::vector<std::vector<Node>>& adj) {
      std::vector<bool> seen(static_cast<size_t>(n_), false);
      std::vector<Node> stack = {from};
      seen[from] = true;
      while (!stack.empty()) {
        const Node u = stack.back();
        stack.pop_back();
        for (Node v : adj[u]) {
          if (!seen[v]) {
            seen[v] = true;
            stack.push_back(v);
          }
        }
      }
      return seen;
    };
    std::vector<int> component(static_cast<size_t>(n_), -1);
    int count = 0;
    for (Node v = 0; v < static_cast<Node>(n_); ++v) {
      if (component[v] >= 0) continue;
      const std::vector<bool> forward = reach(v, succ), backward = reach(v, pred);
      for (size_t u = 0; u < forward.size(); ++u) {
        if (forward[u] && backward[u]) component[u] = count;
      }
      ++count;
    }
    return component;
  }

 private:
  const JointInput& input_;
  int n_;
  int ports_;
  std::vector<int> out_, in_;
  std::set<Edge> circuits_;
};

Node clockwise_offset(Node s, Node t, int n) {
  return static_cast<Node>((static_cast<int>(t) - static_cast<int>(s) + n) % n);
}

void greedy(CircuitSet& set, const JointInput& input) {
  const int n = input.gpus();
  std::vector<Edge> pairs;
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (s != t && input.demand_at(s, t).count() > 0) pairs.push_back({s, t});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [&](const Edge& a, const Edge& b) {
    const Bytes da = input.demand_at(a.first, a.second), db = input.demand_at(b.first, b.second);
    if (da != db) return da > db;
    return std::pair(clockwise_offset(a.first, a.second, n), a.first) <
           std::pair(clockwise_offset(b.first, b.second, n), b.first);
  });
  for (const Edge& e : pairs) {
    if (set.free_out(e.first) && set.free_in(e.second)) set.add(e.first, e.second);
  }
}

void fill(CircuitSet& set) {
  const int n = set.gpus();
  for (Node u = 0; u < static_cast<Node>(n); ++u) {
    for (int offset = 1; offset < n && set.free_out(u); ++offset) {
      const auto v = static_cast<Node>((static_cast<int>(u) + offset) % n);
      if (set.free_in(v) && !set.has(u, v)) set.add(u, v);
    }
  }
}

// One repair move (see the header); false when already strongly connected.
bool merge_one_component(CircuitSet& set) {
  const std::vector<int> component = set.components();
  const int count = *std::max_element(component.begin(), component.end()) + 1;
  if (count == 1) return false;
  std::vector<int> size(static_cast<size_t>(count), 0);
  std::vector<bool> has_inside(static_cast<size_t>(count), false);
  for (int c : component) ++size[static_cast<size_t>(c)];
  for (const Edge& e : set.circuits()) {
    if (component[e.first] == component[e.second]) has_inside[static_cast<size_t>(component[e.first])] = true;
  }
  int z = -1;
  for (int c = 0; c < count; ++c) {
    if (has_inside[static_cast<size_t>(c)] && (z < 0 || size[static_cast<size_t>(c)] > size[static_cast<size_t>(z)]))
      z = c;
  }
  // A DAG would need a node without out- and one without in-circuits, which
  // the fill would have joined.
  if (z < 0) throw Error("mixnet: connectivity repair found no strongly connected part (fill bug)");
  int w = -1;
  for (int c : component) {
    if (c != z) {
      w = c;
      break;
    }
  }
  auto inside = [&](int c) {
    return [&component, c](const Edge& e) { return component[e.first] == c && component[e.second] == c; };
  };
  const Edge in_z = *set.lightest(inside(z));
  if (has_inside[static_cast<size_t>(w)]) {
    const Edge in_w = *set.lightest(inside(w));
    set.remove(in_z);
    set.remove(in_w);
    set.add(in_z.first, in_w.second);
    set.add(in_w.first, in_z.second);
    return true;
  }
  Node node = 0;
  while (component[node] != w) ++node;
  std::optional<Edge> in_edge, out_edge;
  if (!set.free_in(node)) in_edge = set.lightest([node](const Edge& e) { return e.second == node; });
  if (!set.free_out(node)) out_edge = set.lightest([node](const Edge& e) { return e.first == node; });
  if (in_edge) set.remove(*in_edge);
  if (out_edge) set.remove(*out_edge);
  // x -> w -> y cross components (w is alone in its own), so x != y.
  if (in_edge && out_edge) set.add(in_edge->first, out_edge->second);
  set.remove(in_z);
  set.add(in_z.first, node);
  set.add(node, in_z.second);
  return true;
}

}  // namespace

Topology MixnetBaseline::topology(const JointInput& input) {
  if (input.fabric.circuits != CircuitKind::directed) {
    throw Error("algorithm 'mixnet' builds directed circuits: set fabric.circuits: directed");
  }
  CircuitSet set(input);
  greedy(set, input);
  fill(set);
  for (int moves = 0; merge_one_component(set); ++moves) {
    if (moves > input.gpus()) throw Error("mixnet: connectivity repair did not converge");
  }
  return Topology("mixnet", input.gpus(), std::vector<Edge>(set.circuits().begin(), set.circuits().end()));
}

std::vector<AlltoallStrategy> MixnetBaseline::strategies(const JointInput& input, std::optional<int> only) const {
  Topology built = topology(input);  // validates the circuit kind first
  if (only && *only != 1) return {};
  if (input.params.text("routing") == "max_concurrent_flow") {
    std::vector<AlltoallStrategy> out;
    out.push_back(concurrent_round_strategy(route_concurrently(std::move(built), input), input, "mixnet"));
    return out;
  }
  const int n = input.gpus();
  const AllShortestPaths shortest(built);
  struct Flow {
    int hops;
    Bytes bytes;
    Node offset, src, dst;
  };
  std::vector<Flow> flows;
  for (Node s = 0; s < static_cast<Node>(n); ++s) {
    for (Node t = 0; t < static_cast<Node>(n); ++t) {
      if (s != t && input.demand_at(s, t).count() > 0) {
        flows.push_back({shortest.hops(s, t), input.demand_at(s, t), clockwise_offset(s, t, n), s, t});
      }
    }
  }
  std::sort(flows.begin(), flows.end(), [](const Flow& a, const Flow& b) {
    return std::tie(b.hops, b.bytes, a.offset, a.src) < std::tie(a.hops, a.bytes, b.offset, b.src);
  });
  // With one circuit out of every GPU (k = 1) each pair's one path is the
  // walk an implicit flow takes: keeping every path would cost O(n^3) nodes.
  RoundPacker packer(built, built.one_circuit_out_of_every_gpu() ? RoundPacker::FlowPaths::implicit_walks
                                                                 : RoundPacker::FlowPaths::explicit_routes);
  for (size_t i = 0; i < flows.size(); ++i) {
    if (i % 1024 == 0) {
      report_work(input.progress,
                  {"MixNet: packing flows into rounds", static_cast<double>(i), static_cast<double>(flows.size())});
    }
    packer.place(flows[i].bytes, shortest.paths(flows[i].src, flows[i].dst, kCandidatePaths).paths);
  }
  packer.merge_rounds();
  AlltoallStrategy strategy;
  strategy.construction = "greedy topology, " + std::to_string(built.edges().size()) + " circuits";
  strategy.topologies.push_back(built);
  strategy.rounds = std::move(packer).rounds(0);
  std::vector<AlltoallStrategy> out;
  out.push_back(std::move(strategy));
  return out;
}

}  // namespace photonsim
