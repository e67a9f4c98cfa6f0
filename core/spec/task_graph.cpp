#include "core/spec/task_graph.h"

#include <algorithm>
#include <optional>
#include <queue>
#include <set>
#include <unordered_map>
#include <utility>

#include "core/error.h"
#include "core/spec/graph_node_error.h"
#include "core/spec/reachability.h"

namespace photonsim {

namespace {

[[noreturn]] void fail(const TaskNode& node, const std::string& what) { throw GraphNodeError(node.name, what); }

void check_gpus(const TaskNode& node, const std::vector<int>& list, int gpus) {
  std::set<int> seen;
  for (int g : list) {
    if (g < 0 || g >= gpus) {
      fail(node, "GPU " + std::to_string(g) + " is outside 0.." + std::to_string(gpus - 1) + " (fabric.gpus is " +
                     std::to_string(gpus) + ")");
    }
    if (!seen.insert(g).second) fail(node, "GPU " + std::to_string(g) + " is listed twice");
  }
}

void check_node(const TaskNode& node, int gpus) {
  switch (node.kind) {
    case TaskKind::compute:
      if (node.gpus.empty()) fail(node, "a compute node needs at least one GPU (gpus)");
      if (node.duration <= Time::zero()) fail(node, "a compute node needs a positive duration");
      check_gpus(node, node.gpus, gpus);
      break;
    case TaskKind::collective:
      if (node.gpus.size() < 2) fail(node, "a collective needs a group of at least two GPUs (gpus)");
      if (node.message.count() <= 0) fail(node, "a collective needs a positive message");
      check_gpus(node, node.gpus, gpus);
      if (node.collective == Collective::broadcast &&
          std::find(node.gpus.begin(), node.gpus.end(), node.root) == node.gpus.end()) {
        fail(node, "the broadcast root " + std::to_string(node.root) + " is not in the group");
      }
      break;
    case TaskKind::p2p:
      check_gpus(node, {node.src, node.dst}, gpus);
      if (node.bytes.count() <= 0) fail(node, "a p2p send needs positive bytes");
      break;
    case TaskKind::delay:
      if (node.duration <= Time::zero()) fail(node, "a delay node needs a positive duration");
      check_gpus(node, node.gpus, gpus);
      break;
  }
}

// Two nodes that may run at once must not share a GPU when both compute or
// both are collectives: per GPU, each class's nodes, in topological order,
// must each wait for the one before (reachability is transitive, so that
// orders them all). One reachability query per GPU a node lists.
void check_exclusive_gpus(const TaskGraph& g, const std::vector<TaskNode>& nodes) {
  struct Use {
    int gpu;
    bool collective;
    uint32_t position;
    uint32_t node;
    auto operator<=>(const Use&) const = default;
  };
  Reachability reach(g.predecessors(), g.topological_order());
  std::vector<Use> uses;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind == TaskKind::p2p || nodes[i].kind == TaskKind::delay) continue;
    for (int gpu : nodes[i].gpus) uses.push_back({gpu, nodes[i].kind == TaskKind::collective, reach.position(i), i});
  }
  std::sort(uses.begin(), uses.end());
  for (size_t k = 0; k < uses.size();) {
    size_t end = k;
    while (end < uses.size() && uses[end].gpu == uses[k].gpu) ++end;
    // The GPU's first unordered pair of each class; of the two, the one
    // whose nodes come first in the graph.
    std::optional<std::pair<uint32_t, uint32_t>> worst;
    for (size_t x = k; x + 1 < end; ++x) {
      const Use& a = uses[x];
      const Use& b = uses[x + 1];
      if (a.collective != b.collective || reach.reaches(a.node, b.node)) continue;
      const std::pair<uint32_t, uint32_t> pair{std::min(a.node, b.node), std::max(a.node, b.node)};
      if (!worst || pair < *worst) worst = pair;
      while (x + 1 < end && uses[x + 1].collective == a.collective) ++x;
    }
    if (worst) {
      const TaskNode& a = nodes[worst->first];
      const TaskNode& b = nodes[worst->second];
      // A send takes its GPUs' ports in turn with the other communication
      // (fabric.priority decides who goes first); two collectives would
      // leave the order of whole algorithms to chance.
      fail(b, "may run at the same time as '" + a.name + "' and both " +
                  (a.kind == TaskKind::compute ? "compute" : "are collectives") + " on GPU " +
                  std::to_string(uses[k].gpu) + "; order them with `after`");
    }
    k = end;
  }
}

}  // namespace

const char* to_string(TaskKind kind) { return name_of(kTaskKindNames, kind); }

std::vector<int> TaskGraph::gpus_of(const TaskNode& node) {
  if (node.kind == TaskKind::p2p) return {node.src, node.dst};
  return node.gpus;
}

TaskGraph TaskGraph::build(std::vector<TaskNode> nodes, int gpus) {
  TaskGraph g;
  std::unordered_map<std::string, uint32_t> index;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].name.empty()) throw Error("workload.graph: node " + std::to_string(i) + " has no name");
    if (!index.emplace(nodes[i].name, i).second) fail(nodes[i], "the name is used by another node");
  }
  for (const TaskNode& node : nodes) check_node(node, gpus);
  const size_t n = nodes.size();
  g.predecessors_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    for (const std::string& before : nodes[i].after) {
      auto it = index.find(before);
      if (it == index.end()) fail(nodes[i], "`after` names '" + before + "', which is no node");
      if (it->second == i) fail(nodes[i], "`after` names the node itself");
      g.predecessors_[i].push_back(it->second);
    }
    std::sort(g.predecessors_[i].begin(), g.predecessors_[i].end());
    g.predecessors_[i].erase(std::unique(g.predecessors_[i].begin(), g.predecessors_[i].end()),
                             g.predecessors_[i].end());
  }
  // Kahn's algorithm, smallest index first among the ready.
  std::vector<std::vector<uint32_t>> successors(n);
  std::vector<uint32_t> waiting(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    waiting[i] = static_cast<uint32_t>(g.predecessors_[i].size());
    for (uint32_t p : g.predecessors_[i]) successors[p].push_back(i);
  }
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
  for (uint32_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.push(i);
  }
  while (!ready.empty()) {
    const uint32_t i = ready.top();
    ready.pop();
    g.order_.push_back(i);
    for (uint32_t s : successors[i]) {
      if (--waiting[s] == 0) ready.push(s);
    }
  }
  if (g.order_.size() != n) {
    // Walk back along unfinished predecessors until a node repeats: a cycle.
    uint32_t at = 0;
    while (waiting[at] == 0) ++at;
    std::vector<uint32_t> path;
    std::vector<int> seen_at(n, -1);
    while (seen_at[at] < 0) {
      seen_at[at] = static_cast<int>(path.size());
      path.push_back(at);
      for (uint32_t p : g.predecessors_[at]) {
        if (waiting[p] > 0) {
          at = p;
          break;
        }
      }
    }
    // path runs against the dependencies from `at` round to `at`: name it
    // forwards, from `at`.
    std::string cycle = "'" + nodes[at].name + "'";
    for (size_t k = path.size(); k-- > static_cast<size_t>(seen_at[at]) + 1;)
      cycle += " -> '" + nodes[path[k]].name + "'";
    cycle += " -> '" + nodes[at].name + "'";
    fail(nodes[at], "its dependencies form a cycle: " + cycle);
  }
  // Compute and delays alone along any chain of `after` must end within the time range
  // (communication can only add to it): the iteration's total never wraps.
  std::vector<int64_t> compute_end(n, 0);
  for (uint32_t i : g.order_) {
    int64_t start = 0;
    for (uint32_t p : g.predecessors_[i]) start = std::max(start, compute_end[p]);
    if (runs_off_network(nodes[i].kind) &&
        __builtin_add_overflow(start, nodes[i].duration.picoseconds(), &compute_end[i])) {
      fail(nodes[i], "its duration " + std::to_string(nodes[i].duration.picoseconds()) + " ps after " +
                         std::to_string(start) +
                         " ps of compute and delays before it (along `after`) ends past the largest time photonsim "
                         "represents, 9223372036854775807 ps (about 106.75 days)");
    }
    if (!runs_off_network(nodes[i].kind)) compute_end[i] = start;
  }
  check_exclusive_gpus(g, nodes);
  g.nodes_ = std::move(nodes);
  return g;
}

}  // namespace photonsim
