#include "topology/shortest_path_router.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"

namespace photonsim {
namespace {

Topology ring(int n, bool both) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) {
    e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
    if (both) e.push_back({static_cast<Node>((u + 1) % n), static_cast<Node>(u)});
  }
  return Topology(both ? "bidirectional_ring" : "ring", n, std::move(e));
}

TEST(ShortestPathRouter, UnidirectionalRingHopsAndPaths) {
  const Topology t = ring(8, false);
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
  const Topology t = ring(8, true);
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
  const Topology t = ring(8, true);
  const ShortestPathRouter router(t);
  for (Node s = 0; s < 8; ++s) {
    const Node d = (s + 4) % 8;
    EXPECT_EQ(router.path(s, d),
              (std::vector<Node>{s, (s + 1) % 8, (s + 2) % 8, (s + 3) % 8, d}))
        << "source " << s;
  }
}

TEST(ShortestPathRouter, TieBreakIsIndependentOfQueryOrder) {
  const Topology t = ring(6, true);
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

}  // namespace
}  // namespace photonsim
