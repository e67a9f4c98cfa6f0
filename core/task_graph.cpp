#include "core/task_graph.h"

#include <algorithm>
#include <queue>
#include <set>
#include <unordered_map>

#include "core/error.h"

namespace photonsim {

namespace {

[[noreturn]] void fail(const TaskNode& node, const std::string& what) {
  throw Error("workload.graph: node '" + node.name + "': " + what);
}

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
  // Ancestors as bitsets, in topological order: which nodes may run at once.
  const size_t words = (n + 63) / 64;
  std::vector<std::vector<uint64_t>> ancestors(n, std::vector<uint64_t>(words, 0));
  for (uint32_t i : g.order_) {
    for (uint32_t p : g.predecessors_[i]) {
      for (size_t w = 0; w < words; ++w) ancestors[i][w] |= ancestors[p][w];
      ancestors[i][p / 64] |= uint64_t{1} << (p % 64);
    }
  }
  const auto ordered = [&](uint32_t a, uint32_t b) {
    return ((ancestors[a][b / 64] >> (b % 64)) & 1U) != 0 || ((ancestors[b][a / 64] >> (a % 64)) & 1U) != 0;
  };
  std::unordered_map<int, std::vector<uint32_t>> by_gpu;
  for (uint32_t i = 0; i < n; ++i) {
    for (int gpu : gpus_of(nodes[i])) by_gpu[gpu].push_back(i);
  }
  std::vector<int> gpu_list;
  for (const auto& entry : by_gpu) gpu_list.push_back(entry.first);
  std::sort(gpu_list.begin(), gpu_list.end());
  for (int gpu : gpu_list) {
    const std::vector<uint32_t>& users = by_gpu[gpu];
    for (size_t x = 0; x < users.size(); ++x) {
      for (size_t y = x + 1; y < users.size(); ++y) {
        const TaskNode& a = nodes[users[x]];
        const TaskNode& b = nodes[users[y]];
        const bool a_computes = a.kind == TaskKind::compute, b_computes = b.kind == TaskKind::compute;
        if (a_computes != b_computes || ordered(users[x], users[y])) continue;
        // A send takes its GPUs' ports in turn with the other communication
        // (fabric.priority decides who goes first); two collectives would
        // leave the order of whole algorithms to chance.
        if (!a_computes && (a.kind == TaskKind::p2p || b.kind == TaskKind::p2p)) continue;
        fail(b, "may run at the same time as '" + a.name + "' and both " +
                    (a_computes ? "compute" : "are collectives") + " on GPU " + std::to_string(gpu) +
                    "; order them with `after`");
      }
    }
  }
  g.nodes_ = std::move(nodes);
  return g;
}

}  // namespace photonsim
