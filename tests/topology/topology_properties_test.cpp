#include "topology/topology_properties.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"

namespace photonsim {
namespace {

// Hand-built topologies: these tests must not depend on the generators.
Topology topology_properties_ring(int n, bool bidirectional) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) {
    const Node v = static_cast<Node>((u + 1) % n);
    e.push_back({static_cast<Node>(u), v});
    if (bidirectional) e.push_back({v, static_cast<Node>(u)});
  }
  return Topology(bidirectional ? "biring" : "ring", n, std::move(e));
}

// r x c grid with wrap-around in both dimensions, every link bidirectional.
Topology topology_properties_torus(int r, int c) {
  std::vector<Edge> e;
  auto id = [c](int i, int j) { return static_cast<Node>(i * c + j); };
  for (int i = 0; i < r; ++i) {
    for (int j = 0; j < c; ++j) {
      for (Node v : {id((i + 1) % r, j), id(i, (j + 1) % c)}) {
        e.push_back({id(i, j), v});
        e.push_back({v, id(i, j)});
      }
    }
  }
  return Topology("torus", r * c, std::move(e));
}

Topology topology_properties_hypercube(int d) {
  std::vector<Edge> e;
  for (int u = 0; u < (1 << d); ++u) {
    for (int b = 0; b < d; ++b) e.push_back({static_cast<Node>(u), static_cast<Node>(u ^ (1 << b))});
  }
  return Topology("hypercube", 1 << d, std::move(e));
}

std::string topology_properties_error_of(const Topology& t) {
  try {
    average_hop_distance(t);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(TopologyProperties, UnidirectionalRing) {
  for (int n : {2, 3, 7, 8, 16}) {
    const Topology t = topology_properties_ring(n, false);
    EXPECT_TRUE(is_strongly_connected(t)) << n;
    EXPECT_EQ(diameter(t), n - 1) << n;
    EXPECT_DOUBLE_EQ(average_hop_distance(t), n / 2.0) << n;
    const auto d = hop_distances(t);
    for (int s = 0; s < n; ++s) {
      for (int u = 0; u < n; ++u) EXPECT_EQ(d[s][u], (u - s + n) % n);
    }
  }
}

TEST(TopologyProperties, BidirectionalRing) {
  for (int n : {3, 4, 7, 8, 11}) {
    const Topology t = topology_properties_ring(n, true);
    EXPECT_EQ(diameter(t), n / 2) << n;
    const auto d = hop_distances(t);
    for (int s = 0; s < n; ++s) {
      for (int u = 0; u < n; ++u) EXPECT_EQ(d[s][u], std::min(std::abs(u - s), n - std::abs(u - s)));
    }
  }
  // Sum of min(i, 8 - i) over i = 1..7 is 16, over 7 destinations.
  EXPECT_DOUBLE_EQ(average_hop_distance(topology_properties_ring(8, true)), 16.0 / 7.0);
  EXPECT_DOUBLE_EQ(average_hop_distance(topology_properties_ring(7, true)), 12.0 / 6.0);
}

TEST(TopologyProperties, TorusDiameter) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{{2, 3}, {3, 3}, {3, 4}, {4, 4}, {4, 5}, {5, 7}, {6, 8}}) {
    const Topology t = topology_properties_torus(r, c);
    EXPECT_EQ(diameter(t), r / 2 + c / 2) << r << "x" << c;
    EXPECT_TRUE(is_strongly_connected(t));
  }
  // 4x4: per dimension offsets 0,1,2,1 sum to 4, so the sum over all 16
  // destinations is 2 * 4 * 4 = 32, over 15 other nodes.
  EXPECT_DOUBLE_EQ(average_hop_distance(topology_properties_torus(4, 4)), 32.0 / 15.0);
  EXPECT_TRUE(is_regular(topology_properties_torus(4, 5), 4));
  // 2 x c wraps onto the same neighbour twice: parallel circuits still count.
  EXPECT_TRUE(is_regular(topology_properties_torus(2, 3), 4));
}

TEST(TopologyProperties, HypercubeDiameterAndAverage) {
  for (int d = 1; d <= 6; ++d) {
    const Topology t = topology_properties_hypercube(d);
    EXPECT_EQ(diameter(t), d);
    EXPECT_TRUE(is_regular(t, d));
    // Sum of Hamming weights over all 2^d - 1 other nodes is d * 2^(d-1).
    EXPECT_DOUBLE_EQ(average_hop_distance(t),
                     static_cast<double>(d * (1 << (d - 1))) / static_cast<double>((1 << d) - 1));
    const auto dist = hop_distances(t);
    EXPECT_EQ(dist[0][(1 << d) - 1], d);
    EXPECT_EQ(dist[5 % (1 << d)][5 % (1 << d)], 0);
  }
}

TEST(TopologyProperties, DisconnectedGraph) {
  // Two separate rings 0-1-2 and 3-4-5.
  const Topology t("split", 6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}});
  EXPECT_FALSE(is_strongly_connected(t));
  EXPECT_EQ(diameter(t), -1);
  const auto d = hop_distances(t);
  EXPECT_EQ(d[0][2], 2);
  EXPECT_EQ(d[0][3], -1);
  EXPECT_EQ(d[4][1], -1);
  EXPECT_EQ(d[4][3], 2);
  EXPECT_EQ(topology_properties_error_of(t),
            "topology 'split': node 3 is unreachable from node 0, so the average hop distance is "
            "undefined");
}

TEST(TopologyProperties, WeaklyButNotStronglyConnected) {
  const Topology path("path", 3, {{0, 1}, {1, 2}});
  EXPECT_FALSE(is_strongly_connected(path));
  EXPECT_EQ(diameter(path), -1);
  EXPECT_EQ(hop_distances(path)[0][2], 2);
  EXPECT_EQ(hop_distances(path)[2][0], -1);
  // Isolated node with everything else connected.
  const Topology lonely("lonely", 4, {{0, 1}, {1, 2}, {2, 0}});
  EXPECT_FALSE(is_strongly_connected(lonely));
  EXPECT_EQ(topology_properties_error_of(lonely),
            "topology 'lonely': node 3 is unreachable from node 0, so the "
            "average hop distance is undefined");
}

TEST(TopologyProperties, TrivialSizes) {
  const Topology one("one", 1, {});
  EXPECT_TRUE(is_strongly_connected(one));
  EXPECT_EQ(diameter(one), 0);
  EXPECT_EQ(hop_distances(one), (std::vector<std::vector<int>>{{0}}));
  EXPECT_EQ(topology_properties_error_of(one), "topology 'one': average hop distance needs at least 2 GPUs, got 1");
  EXPECT_TRUE(is_strongly_connected(Topology()));
  EXPECT_EQ(diameter(Topology()), 0);
}

TEST(TopologyProperties, HopDistancesSymmetricOnUndirectedGraphs) {
  for (const Topology& t :
       {topology_properties_ring(9, true), topology_properties_torus(3, 5), topology_properties_hypercube(4)}) {
    const auto d = hop_distances(t);
    for (int s = 0; s < t.gpus(); ++s) {
      EXPECT_EQ(d[s][s], 0);
      for (int u = 0; u < t.gpus(); ++u) EXPECT_EQ(d[s][u], d[u][s]) << t.name();
    }
  }
}

TEST(TopologyProperties, ParallelCircuitsDoNotChangeDistances) {
  const Topology doubled("doubled", 4, {{0, 1}, {0, 1}, {1, 2}, {2, 3}, {3, 0}, {3, 0}});
  EXPECT_EQ(diameter(doubled), 3);
  EXPECT_DOUBLE_EQ(average_hop_distance(doubled), 2.0);
  EXPECT_FALSE(is_regular(doubled, 1));
  EXPECT_FALSE(is_regular(doubled, 2));
}

TEST(TopologyProperties, IsRegular) {
  EXPECT_TRUE(is_regular(topology_properties_ring(5, false), 1));
  EXPECT_FALSE(is_regular(topology_properties_ring(5, false), 2));
  EXPECT_TRUE(is_regular(topology_properties_ring(5, true), 2));
  // Out-degree 1 everywhere but node 0 receives twice and node 2 never.
  const Topology skewed("skewed", 3, {{0, 1}, {1, 0}, {2, 0}});
  EXPECT_FALSE(is_regular(skewed, 1));
  EXPECT_TRUE(is_regular(Topology("none", 3, {}), 0));
}

TEST(TopologyProperties, LargeRandomGraphIsFast) {
  // 1024 nodes: a bidirectional ring (so strongly connected) plus one random
  // chord per node, out-degree 3.
  const int n = 1024;
  Rng rng(7);
  std::vector<Edge> e = topology_properties_ring(n, true).edges();
  for (int u = 0; u < n; ++u) {
    e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1 + rng.uniform(n - 1)) % n)});
  }
  const Topology t("big", n, std::move(e));
  const auto start = std::chrono::steady_clock::now();
  const auto d = hop_distances(t);
  const int diam = diameter(t);
  const double average = average_hop_distance(t);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ timing ] 1024-node out-degree-3 hop distances + diameter + average: " << ms << " ms\n";
  EXPECT_TRUE(is_strongly_connected(t));
  EXPECT_GT(diam, 0);
  EXPECT_LE(diam, n / 2);
  int longest = 0;
  for (const auto& row : d) {
    for (int x : row) longest = std::max(longest, x);
  }
  EXPECT_EQ(longest, diam);
  EXPECT_GT(average, 1.0);
}

}  // namespace
}  // namespace photonsim
