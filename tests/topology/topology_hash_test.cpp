#include "topology/topology_hash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/rng.h"

namespace photonsim {
namespace {

std::vector<Edge> ring_edges(int n) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
  return e;
}

TEST(TopologyHash, IgnoresNameAndEdgeOrder) {
  const TopologyHash hash;
  std::vector<Edge> edges = ring_edges(8);
  const Topology a("a", 8, edges);
  std::reverse(edges.begin(), edges.end());
  const Topology b("a completely different name", 8, edges);
  ASSERT_EQ(a, b);
  EXPECT_EQ(hash(a), hash(b));
  EXPECT_EQ(hash(a), hash(Topology("", 8, {{7, 0}, {3, 4}, {0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 6}, {6, 7}})));
}

TEST(TopologyHash, DeterministicAcrossCalls) {
  const Topology t("t", 5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}});
  EXPECT_EQ(TopologyHash{}(t), TopologyHash{}(Topology(t)));
  EXPECT_EQ(TopologyHash{}(Topology()), TopologyHash{}(Topology("x", 0, {})));
  // Pinned: the hash is plain 64-bit integer arithmetic, so it is the same on
  // every platform with a 64-bit size_t; a change must be deliberate.
  if constexpr (sizeof(size_t) == 8) {
    EXPECT_EQ(TopologyHash{}(t), size_t{1855128739583590541ULL});
    EXPECT_EQ(TopologyHash{}(Topology()), size_t{12143708142215757907ULL});
  }
}

TEST(TopologyHash, OneEdgeChangeChangesHash) {
  const TopologyHash hash;
  Rng rng(42);
  for (int sample = 0; sample < 200; ++sample) {
    const int n = 3 + static_cast<int>(rng.uniform(30));
    std::vector<Edge> edges;
    for (int i = 0; i < 2 * n; ++i) {
      const Node u = static_cast<Node>(rng.uniform(n));
      const Node v = static_cast<Node>((u + 1 + rng.uniform(n - 1)) % n);
      edges.push_back({u, v});
    }
    const Topology base("base", n, edges);
    // Redirect one circuit to a different head.
    std::vector<Edge> changed = edges;
    const size_t i = rng.uniform(changed.size());
    Node v = changed[i].second;
    do {
      v = static_cast<Node>((v + 1) % n);
    } while (v == changed[i].first || v == edges[i].second);
    changed[i].second = v;
    const Topology other("base", n, changed);
    ASSERT_FALSE(base == other);
    EXPECT_NE(hash(base), hash(other)) << "sample " << sample;
    // Dropping or duplicating one circuit changes it too.
    std::vector<Edge> fewer(edges.begin() + 1, edges.end());
    EXPECT_NE(hash(base), hash(Topology("base", n, fewer)));
    std::vector<Edge> more = edges;
    more.push_back(edges[0]);
    EXPECT_NE(hash(base), hash(Topology("base", n, more)));
  }
}

TEST(TopologyHash, GpuCountIsPartOfTheHash) {
  const TopologyHash hash;
  EXPECT_NE(hash(Topology("r", 8, ring_edges(8))), hash(Topology("r", 9, ring_edges(8))));
  EXPECT_NE(hash(Topology("e", 3, {})), hash(Topology("e", 4, {})));
}

TEST(TopologyHash, ReversedCircuitsHashApart) {
  const TopologyHash hash;
  const Topology forward("f", 4, ring_edges(4));
  const Topology backward("b", 4, {{1, 0}, {2, 1}, {3, 2}, {0, 3}});
  EXPECT_NE(hash(forward), hash(backward));
}

TEST(TopologyHash, WorksAsUnorderedMapKey) {
  std::unordered_map<Topology, int, TopologyHash> index;
  for (int n = 2; n < 50; ++n) index[Topology("ring" + std::to_string(n), n, ring_edges(n))] = n;
  EXPECT_EQ(index.size(), 48u);
  EXPECT_EQ(index.at(Topology("renamed", 17, ring_edges(17))), 17);
  EXPECT_EQ(index.count(Topology("missing", 17, ring_edges(16))), 0u);
  std::set<size_t> distinct;
  for (const auto& [t, n] : index) distinct.insert(TopologyHash{}(t));
  EXPECT_EQ(distinct.size(), 48u);
}

}  // namespace
}  // namespace photonsim
