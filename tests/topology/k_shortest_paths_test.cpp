#include "topology/k_shortest_paths.h"

#include <gtest/gtest.h>

#include "tests/topology/hand_built_topologies.h"

#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "topology/all_shortest_paths.h"

namespace photonsim {
namespace {

using hand_built::at;
using hand_built::torus;

using KShortestPathsPath = std::vector<Node>;

TEST(KShortestPaths, SecondAndThirdShortestOnALadder) {
  // 0 -> 3 directly, via 1, or via 1 and 2: 1, 2 and 3 hops.
  const Topology t("ladder", 4, {{0, 3}, {0, 1}, {1, 3}, {1, 2}, {2, 3}});
  const std::vector<KShortestPathsPath> expected{{0, 3}, {0, 1, 3}, {0, 1, 2, 3}};
  EXPECT_EQ(k_shortest_paths(t, 0, 3, 3), expected);
  EXPECT_EQ(k_shortest_paths(t, 0, 3, 1), (std::vector<KShortestPathsPath>{{0, 3}}));
  EXPECT_EQ(k_shortest_paths(t, 0, 3, 2), (std::vector<KShortestPathsPath>{{0, 3}, {0, 1, 3}}));
  // Only three loopless paths exist.
  EXPECT_EQ(k_shortest_paths(t, 0, 3, 5), expected);
}

TEST(KShortestPaths, TiesFollowClockwiseOffsets) {
  // n = 6. Offsets: 0->1 +1, 0->3 +3, 1->2 +1, 1->4 +3, 2->5 +3, 3->2 +5,
  // 3->4 +1, 4->5 +1, 2->4 +2.
  // 3 hops: 0-1-2-5 (1,1,3) < 0-1-4-5 (1,3,1) < 0-3-4-5 (3,1,1) < 0-3-2-5 (3,5,3).
  // 4 hops: 0-1-2-4-5 (1,1,2,1) < 0-3-2-4-5 (3,5,2,1). Nothing longer is loopless.
  const Topology t("ties", 6, {{0, 1}, {0, 3}, {1, 2}, {1, 4}, {2, 5}, {3, 2}, {3, 4}, {4, 5}, {2, 4}});
  EXPECT_EQ(k_shortest_paths(t, 0, 5, 10),
            (std::vector<KShortestPathsPath>{
                {0, 1, 2, 5}, {0, 1, 4, 5}, {0, 3, 4, 5}, {0, 3, 2, 5}, {0, 1, 2, 4, 5}, {0, 3, 2, 4, 5}}));
}

TEST(KShortestPaths, PathsAreLoopless) {
  // A bidirectional ring of 5 has exactly two simple paths between two nodes.
  std::vector<Edge> e;
  for (Node u = 0; u < 5; ++u) {
    e.push_back({u, (u + 1) % 5});
    e.push_back({(u + 1) % 5, u});
  }
  const Topology t("bidirectional_ring", 5, std::move(e));
  EXPECT_EQ(k_shortest_paths(t, 0, 2, 5), (std::vector<KShortestPathsPath>{{0, 1, 2}, {0, 4, 3, 2}}));
  EXPECT_EQ(k_shortest_paths(t, 3, 2, 5), (std::vector<KShortestPathsPath>{{3, 2}, {3, 4, 0, 1, 2}}));
}

TEST(KShortestPaths, TorusStartsWithAllShortestPathsThenGrows) {
  const Topology t = torus(4, 4);
  const std::vector<KShortestPathsPath> yen = k_shortest_paths(t, 0, 10, 25);
  ASSERT_EQ(yen.size(), 25u);
  const std::vector<KShortestPathsPath> shortest = AllShortestPaths(t).paths(0, 10, 100).paths;
  ASSERT_EQ(shortest.size(), 24u);
  EXPECT_EQ(std::vector<KShortestPathsPath>(yen.begin(), yen.begin() + 24), shortest);
  // The torus is bipartite, so the next length is 6 hops. Clockwise-first:
  // 0 -> 1 -> 2 -> 3 (+1 each), then from column 3 the smallest offset is down
  // (+4) to 7, down again to 11, and left (+15) to 10.
  EXPECT_EQ(yen[24], (KShortestPathsPath{0, 1, 2, 3, 7, 11, 10}));
  EXPECT_EQ(std::set<KShortestPathsPath>(yen.begin(), yen.end()).size(), 25u);
}

TEST(KShortestPaths, ParallelCircuitsDoNotDuplicatePaths) {
  const Topology t("doubled", 3, {{0, 1}, {0, 1}, {1, 2}, {1, 2}});
  EXPECT_EQ(k_shortest_paths(t, 0, 2, 3), (std::vector<KShortestPathsPath>{{0, 1, 2}}));
}

TEST(KShortestPaths, SelfUnreachableAndBadArguments) {
  const Topology t("split", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  EXPECT_EQ(k_shortest_paths(t, 2, 2, 3), (std::vector<KShortestPathsPath>{{2}}));
  EXPECT_TRUE(k_shortest_paths(t, 0, 3, 3).empty());
  for (int k : {0, -1}) {
    try {
      k_shortest_paths(t, 0, 1, k);
      FAIL() << "expected Error for k = " << k;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("k must be"), std::string::npos) << e.what();
    }
  }
  try {
    k_shortest_paths(t, 0, 4, 1);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("node 4"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace photonsim
