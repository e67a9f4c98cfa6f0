// port_blockers: each node's blockers cover exactly the communication before
// it on its ports (checked against the transitive closure on seeded random
// graphs of sends), and a chain needs only the node before.
#include "sim/engine/port_blockers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tests/support/task_nodes.h"

namespace photonsim {
namespace {

// A send's resources as the engine numbers them: src's transmitters 2 src, dst's receivers 2 dst + 1.
std::vector<std::vector<uint32_t>> send_resources(const TaskGraph& g) {
  std::vector<std::vector<uint32_t>> out;
  for (const TaskNode& n : g.nodes()) {
    out.push_back({2 * static_cast<uint32_t>(n.src), 2 * static_cast<uint32_t>(n.dst) + 1});
  }
  return out;
}

TEST(PortBlockers, ChainNeedsOnlyTheNodeBefore) {
  std::vector<TaskNode> nodes;
  for (int i = 0; i < 1000; ++i) {
    nodes.push_back(testing_support::send_node(
        "s" + std::to_string(i), 0, 1, Bytes(1000),
        i == 0 ? std::vector<std::string>{} : std::vector<std::string>{"s" + std::to_string(i - 1)}));
  }
  const TaskGraph g = TaskGraph::build(std::move(nodes), 2);
  const auto blockers = port_blockers(g, send_resources(g), 4);
  EXPECT_TRUE(blockers[0].empty());
  for (uint32_t v = 1; v < 1000; ++v) EXPECT_EQ(blockers[v], std::vector<uint32_t>{v - 1}) << v;
}

TEST(PortBlockers, CoverTheCommunicationBeforeOnTheSamePorts) {
  std::mt19937 rng(5);
  for (int round = 0; round < 30; ++round) {
    const int n = 2 + static_cast<int>(rng() % 50), gpus = 2 + static_cast<int>(rng() % 4);
    std::bernoulli_distribution edge(static_cast<double>(1 + rng() % 3) / (2.0 * n));
    std::vector<TaskNode> nodes;
    for (int v = 0; v < n; ++v) {
      std::vector<std::string> after;
      for (int u = 0; u < v; ++u) {
        if (edge(rng)) after.push_back("s" + std::to_string(u));
      }
      const int src = static_cast<int>(rng() % static_cast<unsigned>(gpus));
      const int dst = (src + 1 + static_cast<int>(rng() % static_cast<unsigned>(gpus - 1))) % gpus;
      nodes.push_back(testing_support::send_node("s" + std::to_string(v), src, dst, Bytes(1000), after));
    }
    const TaskGraph g = TaskGraph::build(std::move(nodes), gpus);
    const auto resources = send_resources(g);
    const auto blockers = port_blockers(g, resources, 2 * static_cast<size_t>(gpus));
    // closure[a][b]: b waits for a, directly or not (ids are in topological order here).
    std::vector<std::vector<char>> closure(n, std::vector<char>(n, 0));
    for (int b = 0; b < n; ++b) {
      for (uint32_t p : g.predecessors()[static_cast<size_t>(b)]) {
        closure[p][b] = 1;
        for (int a = 0; a < n; ++a) {
          if (closure[a][p] != 0) closure[a][b] = 1;
        }
      }
    }
    const auto shares = [&](int a, int b) {
      for (uint32_t r : resources[a]) {
        if (std::find(resources[b].begin(), resources[b].end(), r) != resources[b].end()) return true;
      }
      return false;
    };
    for (int v = 0; v < n; ++v) {
      const std::vector<uint32_t>& cover = blockers[v];
      EXPECT_TRUE(std::is_sorted(cover.begin(), cover.end()));
      EXPECT_EQ(std::adjacent_find(cover.begin(), cover.end()), cover.end());
      for (uint32_t m : cover) {
        EXPECT_TRUE(closure[m][v] != 0 && shares(static_cast<int>(m), v)) << "round " << round << ": " << m;
      }
      for (int u = 0; u < n; ++u) {
        if (closure[u][v] == 0 || !shares(u, v)) continue;
        const bool covered = std::any_of(cover.begin(), cover.end(),
                                         [&](uint32_t m) { return static_cast<int>(m) == u || closure[u][m] != 0; });
        EXPECT_TRUE(covered) << "round " << round << ": node " << v << " misses " << u;
      }
    }
  }
}

}  // namespace
}  // namespace photonsim
