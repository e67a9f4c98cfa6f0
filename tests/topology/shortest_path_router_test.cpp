#include "topology/shortest_path_router.h"

#include <gtest/gtest.h>

#include "tests/topology/hand_built_topologies.h"

#include <map>
#include <string>
#include <vector>

#include "topology/all_shortest_paths.h"

#include "core/error.h"

namespace photonsim {
namespace {

using hand_built::at;
using hand_built::grid;
using hand_built::torus;

Topology shortest_path_router_ring(int n, bool both) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) {
    e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
    if (both) e.push_back({static_cast<Node>((u + 1) % n), static_cast<Node>(u)});
  }
  return Topology(both ? "bidirectional_ring" : "ring", n, std::move(e));
}

TEST(ShortestPathRouter, UnidirectionalRingHopsAndPaths) {
  const Topology t = shortest_path_router_ring(8, false);
  const ShortestPathRouter router(t);
  EXPECT_EQ(router.hops(0, 3), 3);
  EXPECT_EQ(router.hops(3, 0), 5);
  EXPECT_EQ(router.path(0, 3), (std::vector<Node>{0, 1, 2, 3}));
  EXPECT_EQ(router.path(3, 0), (std::vector<Node>{3, 4, 5, 6, 7, 0}));
  EXPECT_EQ(router.hops(5, 5), 0);
  EXPECT_EQ(router.path(5, 5), (std::vector<Node>{5}));
  for (Node s = 0; s < 8; ++s) {
    for (Node d = 0; d < 8; ++d) {
      EXPECT_EQ(router.hops(s, d), static_cast<int>((d - s + 8) % 8)) << s << "->" << d;
      EXPECT_EQ(router.path(s, d).size(), static_cast<size_t>((d - s + 8) % 8 + 1));
    }
  }
}

TEST(ShortestPathRouter, BidirectionalRingTakesShorterWay) {
  const Topology t = shortest_path_router_ring(8, true);
  const ShortestPathRouter router(t);
  EXPECT_EQ(router.hops(0, 7), 1);
  EXPECT_EQ(router.path(0, 6), (std::vector<Node>{0, 7, 6}));
  EXPECT_EQ(router.path(2, 5), (std::vector<Node>{2, 3, 4, 5}));
  for (Node s = 0; s < 8; ++s) {
    for (Node d = 0; d < 8; ++d) {
      const int cw = static_cast<int>((d - s + 8) % 8);
      EXPECT_EQ(router.hops(s, d), cw <= 4 ? cw : 8 - cw) << s << "->" << d;
    }
  }
}

TEST(ShortestPathRouter, BidirectionalRingAntipodeGoesClockwiseForEverySource) {
  const Topology t = shortest_path_router_ring(8, true);
  const ShortestPathRouter router(t);
  for (Node s = 0; s < 8; ++s) {
    const Node d = (s + 4) % 8;
    EXPECT_EQ(router.path(s, d), (std::vector<Node>{s, (s + 1) % 8, (s + 2) % 8, (s + 3) % 8, d})) << "source " << s;
  }
}

TEST(ShortestPathRouter, TieBreakIsIndependentOfQueryOrder) {
  const Topology t = shortest_path_router_ring(6, true);
  const ShortestPathRouter a(t);
  const ShortestPathRouter b(t);
  // Query in opposite orders; caching must not change the answers.
  std::vector<std::vector<Node>> fwd, bwd;
  for (Node s = 0; s < 6; ++s) fwd.push_back(a.path(s, (s + 3) % 6));
  for (Node s = 6; s-- > 0;) bwd.insert(bwd.begin(), b.path(s, (s + 3) % 6));
  EXPECT_EQ(fwd, bwd);
  EXPECT_EQ(fwd[5], (std::vector<Node>{5, 0, 1, 2}));
}

TEST(ShortestPathRouter, ParallelEdgesDoNotChangePaths) {
  const Topology t("doubled", 4, {{0, 1}, {0, 1}, {1, 2}, {2, 3}, {3, 0}, {3, 0}});
  const ShortestPathRouter router(t);
  EXPECT_EQ(router.path(0, 3), (std::vector<Node>{0, 1, 2, 3}));
  EXPECT_EQ(router.hops(3, 1), 2);
}

TEST(ShortestPathRouter, PrefersSmallerClockwiseOffsetOnGeneralGraphs) {
  // 0 -> 1 -> 3 and 0 -> 2 -> 3 both take 2 hops: offset 1 is explored first.
  const Topology t("diamond", 4, {{0, 2}, {0, 1}, {1, 3}, {2, 3}});
  const ShortestPathRouter router(t);
  EXPECT_EQ(router.path(0, 3), (std::vector<Node>{0, 1, 3}));
  // A chord beats a longer path.
  const Topology chord("chord", 6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}});
  const ShortestPathRouter r2(chord);
  EXPECT_EQ(r2.path(0, 4), (std::vector<Node>{0, 3, 4}));
  EXPECT_EQ(r2.hops(1, 0), 5);
}

TEST(ShortestPathRouter, UnreachableThrowsNamingBothNodesAndHopsIsMinusOne) {
  const Topology t("split", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  const ShortestPathRouter router(t);
  EXPECT_EQ(router.hops(0, 2), -1);
  EXPECT_EQ(router.hops(3, 1), -1);
  EXPECT_EQ(router.hops(0, 1), 1);
  try {
    router.path(1, 3);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("node 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("node 3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'split'"), std::string::npos) << msg;
  }
}

TEST(ShortestPathRouter, EmptyTopologyReachesNothing) {
  const Topology t("none", 3, {});
  const ShortestPathRouter router(t);
  EXPECT_EQ(router.hops(0, 1), -1);
  EXPECT_EQ(router.hops(2, 2), 0);
  EXPECT_THROW(router.path(0, 2), Error);
}

TEST(ShortestPathRouter, ExplicitClockwiseTieBreakIsTheDefault) {
  const Topology t = torus(4, 4);
  const ShortestPathRouter by_default(t);
  const ShortestPathRouter clockwise(t, ShortestPathRouter::TieBreak::clockwise());
  for (Node s = 0; s < 16; ++s) {
    for (Node d = 0; d < 16; ++d) EXPECT_EQ(by_default.path(s, d), clockwise.path(s, d));
  }
  // Right (+1) before down (+4): 0 -> 5 goes through 1.
  EXPECT_EQ(by_default.path(0, 5), (std::vector<Node>{0, 1, 5}));
}

TEST(ShortestPathRouter, RandomTiesGiveShortestPathsOnly) {
  const Topology t = torus(4, 4);
  const ShortestPathRouter reference(t);
  const ShortestPathRouter random(t, ShortestPathRouter::TieBreak::random(11));
  for (Node s = 0; s < 16; ++s) {
    for (Node d = 0; d < 16; ++d) {
      const std::vector<Node> p = random.path(s, d);
      ASSERT_EQ(p.size(), static_cast<size_t>(reference.hops(s, d) + 1)) << s << "->" << d;
      EXPECT_EQ(p.front(), s);
      EXPECT_EQ(p.back(), d);
      for (size_t i = 0; i + 1 < p.size(); ++i) EXPECT_GT(t.multiplicity(p[i], p[i + 1]), 0);
      EXPECT_EQ(random.hops(s, d), reference.hops(s, d));
    }
  }
}

TEST(ShortestPathRouter, RandomTiesDependOnSeedNotQueryOrder) {
  const Topology t = torus(4, 4);
  const ShortestPathRouter a(t, ShortestPathRouter::TieBreak::random(5));
  const ShortestPathRouter b(t, ShortestPathRouter::TieBreak::random(5));
  const ShortestPathRouter other(t, ShortestPathRouter::TieBreak::random(6));
  std::map<Edge, std::vector<Node>> forward, backward;
  for (Node s = 0; s < 16; ++s) {
    for (Node d = 0; d < 16; ++d) forward[{s, d}] = a.path(s, d);
  }
  for (Node s = 16; s-- > 0;) {
    for (Node d = 16; d-- > 0;) backward[{s, d}] = b.path(s, d);
  }
  EXPECT_EQ(forward, backward);
  for (const auto& [pair, p] : forward) EXPECT_EQ(a.path(pair.first, pair.second), p);  // cached answers agree
  int differing = 0;
  for (const auto& [pair, p] : forward) differing += other.path(pair.first, pair.second) != p ? 1 : 0;
  EXPECT_GT(differing, 0);
}

TEST(ShortestPathRouter, RandomTiesAreSpreadOverAllShortestPaths) {
  // 0 -> 10 on a 4x4 grid has C(4, 2) = 6 shortest paths; over 600 seeds each
  // should come up about 100 times. The seeds are fixed, so this is exact and
  // repeatable; the bounds only say the draw is not lopsided.
  const Topology t = grid(4, 4);
  const std::vector<std::vector<Node>> all = AllShortestPaths(t).paths(0, 10, 10).paths;
  ASSERT_EQ(all.size(), 6u);
  std::map<std::vector<Node>, int> seen;
  for (uint64_t seed = 0; seed < 600; ++seed) {
    ++seen[ShortestPathRouter(t, ShortestPathRouter::TieBreak::random(seed)).path(0, 10)];
  }
  ASSERT_EQ(seen.size(), 6u);
  for (const std::vector<Node>& p : all) {
    EXPECT_GT(seen[p], 60);
    EXPECT_LT(seen[p], 140);
  }
}

TEST(ShortestPathRouter, RandomTiesUnreachableAndTrivialRoutes) {
  const Topology t("split", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  const ShortestPathRouter router(t, ShortestPathRouter::TieBreak::random(3));
  EXPECT_EQ(router.hops(0, 2), -1);
  EXPECT_EQ(router.path(2, 2), (std::vector<Node>{2}));
  EXPECT_EQ(router.path(0, 1), (std::vector<Node>{0, 1}));
  try {
    router.path(1, 3);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("node 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("node 3"), std::string::npos) << msg;
  }
}

TEST(ShortestPathRouter, NodeOutOfRangeThrowsNamingIt) {
  const Topology t = shortest_path_router_ring(4, true);
  for (const ShortestPathRouter::TieBreak tie :
       {ShortestPathRouter::TieBreak::clockwise(), ShortestPathRouter::TieBreak::random(1)}) {
    const ShortestPathRouter router(t, tie);
    try {
      router.path(0, 4);
      FAIL() << "expected Error";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("node 4"), std::string::npos) << msg;
    }
    EXPECT_THROW(router.hops(9, 0), Error);
  }
}

TEST(ShortestPathRouter, CounterclockwiseTiesGoTheOtherWayRound) {
  std::vector<Edge> edges;
  for (Node u = 0; u < 8; ++u) {
    edges.push_back({u, (u + 1) % 8});
    edges.push_back({(u + 1) % 8, u});
  }
  const Topology shortest_path_router_ring("bidirectional_ring", 8, edges);
  EXPECT_EQ(ShortestPathRouter(shortest_path_router_ring).path(0, 4), (std::vector<Node>{0, 1, 2, 3, 4}));
  const ShortestPathRouter counter(shortest_path_router_ring, ShortestPathRouter::TieBreak::counterclockwise());
  EXPECT_EQ(counter.path(0, 4), (std::vector<Node>{0, 7, 6, 5, 4}));
  EXPECT_EQ(counter.path(2, 3), (std::vector<Node>{2, 3}));  // no tie: the shortest way
  EXPECT_EQ(counter.path(2, 7), (std::vector<Node>{2, 1, 0, 7}));
}

}  // namespace
}  // namespace photonsim
