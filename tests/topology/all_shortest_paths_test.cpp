#include "topology/all_shortest_paths.h"

#include <gtest/gtest.h>

#include "tests/topology/hand_built_topologies.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "topology/shortest_path_router.h"

namespace photonsim {
namespace {

using hand_built::at;
using hand_built::grid;
using hand_built::hypercube;
using hand_built::torus;

using Path = std::vector<Node>;

uint64_t binomial(int n, int k) {
  uint64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * static_cast<uint64_t>(n - k + i) / static_cast<uint64_t>(i);
  return r;
}

uint64_t factorial(int n) { return n <= 1 ? 1 : static_cast<uint64_t>(n) * factorial(n - 1); }

bool is_walk(const Topology& t, const Path& p) {
  for (size_t i = 0; i + 1 < p.size(); ++i) {
    if (t.multiplicity(p[i], p[i + 1]) == 0) return false;
  }
  return true;
}

std::vector<int> offsets(const Path& p, int n) {
  std::vector<int> o;
  for (size_t i = 0; i + 1 < p.size(); ++i) {
    o.push_back((static_cast<int>(p[i + 1]) - static_cast<int>(p[i]) + n) % n);
  }
  return o;
}

TEST(ClockwiseSuccessors, OrderByOffsetAndDropParallelCircuits) {
  const std::vector<std::vector<Node>> s = clockwise_successors(torus(4, 4));
  // Node 0 (column 0): right +1, left wrap +3, down +4, up +12.
  EXPECT_EQ(s[0], (std::vector<Node>{1, 3, 4, 12}));
  // Node 3 (column 3): down +4, up +12, right wrap +13, left +15.
  EXPECT_EQ(s[3], (std::vector<Node>{7, 15, 0, 2}));
  const Topology doubled("doubled", 3, {{0, 2}, {0, 1}, {0, 1}, {1, 2}});
  EXPECT_EQ(clockwise_successors(doubled)[0], (std::vector<Node>{1, 2}));
}

TEST(AllShortestPaths, CubeAntipodesInClockwiseLexicographicOrder) {
  const Topology t = hypercube(3);
  const AllShortestPaths all(t);
  // From 0 the neighbours 1, 2, 4 have offsets 1, 2, 4; from 1: 3 (+2), 5 (+4);
  // from 2: 3 (+1), 6 (+4); from 4: 5 (+1), 6 (+2).
  const ShortestPathSet from0 = all.paths(0, 7, 100);
  EXPECT_FALSE(from0.truncated);
  EXPECT_EQ(from0.paths,
            (std::vector<Path>{{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}}));
  // From 5 (offset order differs from id order): 7 (+2), 1 (+4), 4 (+7);
  // from 7 towards 2: 3 (+4) before 6 (+7); from 1: 3 (+2) before 0 (+7);
  // from 4: 6 (+2) before 0 (+4).
  EXPECT_EQ(all.paths(5, 2, 100).paths,
            (std::vector<Path>{{5, 7, 3, 2}, {5, 7, 6, 2}, {5, 1, 3, 2}, {5, 1, 0, 2}, {5, 4, 6, 2}, {5, 4, 0, 2}}));
  EXPECT_EQ(all.count(5, 2), 6u);
  EXPECT_EQ(all.hops(5, 2), 3);
}

TEST(AllShortestPaths, FirstPathIsTheDefaultRoutersPath) {
  for (const Topology& t : {torus(4, 4), grid(3, 5), hypercube(4)}) {
    const AllShortestPaths all(t);
    const ShortestPathRouter router(t);
    for (Node s = 0; s < static_cast<Node>(t.gpus()); ++s) {
      for (Node d = 0; d < static_cast<Node>(t.gpus()); ++d) {
        EXPECT_EQ(all.paths(s, d, 1).paths.front(), router.path(s, d)) << t.name() << " " << s << "->" << d;
      }
    }
  }
}

TEST(AllShortestPaths, HypercubeCountsArePopcountFactorial) {
  // Between u and v the d differing bits can be flipped in any order: d! paths.
  const Topology t = hypercube(4);
  const AllShortestPaths all(t);
  EXPECT_EQ(all.count(0, 15), 24u);
  EXPECT_EQ(all.count(6, 9), 24u);
  EXPECT_EQ(all.count(0, 3), 2u);
  for (Node u = 0; u < 16; ++u) {
    for (Node v = 0; v < 16; ++v) {
      EXPECT_EQ(all.count(u, v), factorial(std::popcount(u ^ v))) << u << "->" << v;
    }
  }
  EXPECT_EQ(AllShortestPaths(hypercube(5)).count(0, 31), 120u);
  EXPECT_EQ(AllShortestPaths(hypercube(6)).count(9, 9 ^ 63), 720u);
}

// Dropping the cached layers changes no answer: they are built again on use.
TEST(AllShortestPaths, ForgettingSourcesKeepsEveryAnswer) {
  const Topology t = hypercube(4);
  const AllShortestPaths all(t);
  const AllShortestPaths fresh(t);
  for (Node u = 0; u < 16; u += 3) {
    const ShortestPathSet before = all.paths(u, 15 - u, 7);
    all.forget_sources();
    for (Node v = 0; v < 16; ++v) {
      EXPECT_EQ(all.hops(u, v), fresh.hops(u, v)) << u << "->" << v;
      EXPECT_EQ(all.count(u, v), fresh.count(u, v)) << u << "->" << v;
    }
    all.forget_sources();
    EXPECT_EQ(all.paths(u, 15 - u, 7).paths, before.paths) << u;
    EXPECT_EQ(all.paths(u, 15 - u, 7).truncated, before.truncated) << u;
  }
}

TEST(AllShortestPaths, GridCountsAreBinomial) {
  // A monotone staircase: choose which of the |dr| + |dc| steps are vertical.
  const AllShortestPaths square(grid(4, 4));
  EXPECT_EQ(square.count(0, 15), 20u);  // C(6, 3)
  EXPECT_EQ(square.count(3, 12), 20u);
  EXPECT_EQ(square.count(0, 10), 6u);  // C(4, 2)
  EXPECT_EQ(square.count(5, 6), 1u);
  const int rows = 4, cols = 5;
  const AllShortestPaths all(grid(rows, cols));
  for (int a = 0; a < rows * cols; ++a) {
    for (int b = 0; b < rows * cols; ++b) {
      const int dr = std::abs(a / cols - b / cols), dc = std::abs(a % cols - b % cols);
      EXPECT_EQ(all.count(static_cast<Node>(a), static_cast<Node>(b)), binomial(dr + dc, dr)) << a << "->" << b;
      EXPECT_EQ(all.hops(static_cast<Node>(a), static_cast<Node>(b)), dr + dc);
    }
  }
}

TEST(AllShortestPaths, TorusCountsDoubleForEachAntipodalDimension) {
  // On a 4-ring per dimension, distance 2 can be covered either way round.
  const AllShortestPaths all(torus(4, 4));
  EXPECT_EQ(all.count(0, 10), 24u);  // 2 x 2 x C(4, 2)
  EXPECT_EQ(all.count(0, 5), 2u);
  EXPECT_EQ(all.count(0, 2), 2u);
  EXPECT_EQ(all.count(0, 8), 2u);
  EXPECT_EQ(all.count(0, 9), 6u);  // rows either way (2) x C(3, 1) interleavings
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      const int dr0 = std::abs(a / 4 - b / 4), dc0 = std::abs(a % 4 - b % 4);
      const int dr = std::min(dr0, 4 - dr0), dc = std::min(dc0, 4 - dc0);
      const uint64_t ways = (dr == 2 ? 2u : 1u) * (dc == 2 ? 2u : 1u) * binomial(dr + dc, dr);
      EXPECT_EQ(all.count(static_cast<Node>(a), static_cast<Node>(b)), ways) << a << "->" << b;
    }
  }
}

TEST(AllShortestPaths, EnumerationMatchesCountIsSortedAndValid) {
  const Topology t = torus(4, 4);
  const AllShortestPaths all(t);
  const ShortestPathSet set = all.paths(0, 10, 1000);
  ASSERT_EQ(set.paths.size(), 24u);
  EXPECT_FALSE(set.truncated);
  for (size_t i = 0; i < set.paths.size(); ++i) {
    const Path& p = set.paths[i];
    EXPECT_EQ(p.size(), 5u);
    EXPECT_EQ(p.front(), 0u);
    EXPECT_EQ(p.back(), 10u);
    EXPECT_TRUE(is_walk(t, p));
    if (i > 0) {
      EXPECT_LT(offsets(set.paths[i - 1], 16), offsets(p, 16)) << "path " << i;
    }
  }
  EXPECT_EQ(set.paths.front(), (Path{0, 1, 2, 6, 10}));   // offsets 1, 1, 4, 4
  EXPECT_EQ(set.paths.back(), (Path{0, 12, 8, 11, 10}));  // offsets 12, 12, 3 (left wrap), 15
}

TEST(AllShortestPaths, LimitTruncatesAndSaysSo) {
  const AllShortestPaths all(hypercube(3));
  const ShortestPathSet first4 = all.paths(0, 7, 4);
  EXPECT_TRUE(first4.truncated);
  EXPECT_EQ(first4.paths, (std::vector<Path>{{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}}));
  const ShortestPathSet exactly6 = all.paths(0, 7, 6);
  EXPECT_FALSE(exactly6.truncated);
  EXPECT_EQ(exactly6.paths.size(), 6u);
  try {
    all.paths(0, 7, 0);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("limit"), std::string::npos) << e.what();
  }
}

TEST(AllShortestPaths, SelfUnreachableAndParallelCircuits) {
  const Topology split("split", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  const AllShortestPaths all(split);
  EXPECT_EQ(all.count(2, 2), 1u);
  EXPECT_EQ(all.paths(2, 2, 5).paths, (std::vector<Path>{{2}}));
  EXPECT_EQ(all.count(0, 3), 0u);
  EXPECT_EQ(all.hops(0, 3), -1);
  const ShortestPathSet none = all.paths(0, 3, 5);
  EXPECT_TRUE(none.paths.empty());
  EXPECT_FALSE(none.truncated);
  Rng rng(1);
  EXPECT_THROW(all.sample(0, 3, rng), Error);

  const Topology doubled("doubled", 3, {{0, 1}, {0, 1}, {1, 2}, {1, 2}});
  EXPECT_EQ(AllShortestPaths(doubled).count(0, 2), 1u);
}

TEST(AllShortestPaths, CountSaturatesInsteadOfOverflowing) {
  // A chain of 65 diamonds: layer node 3i fans out to 3i+1 and 3i+2, which both
  // lead to 3(i+1). Reaching layer k has 2^k shortest paths.
  std::vector<Edge> e;
  for (Node i = 0; i < 65; ++i) {
    e.push_back({3 * i, 3 * i + 1});
    e.push_back({3 * i, 3 * i + 2});
    e.push_back({3 * i + 1, 3 * i + 3});
    e.push_back({3 * i + 2, 3 * i + 3});
  }
  const Topology t("diamonds", 196, std::move(e));
  const AllShortestPaths all(t);
  EXPECT_EQ(all.count(0, 9), 8u);
  EXPECT_EQ(all.count(0, 3 * 63), uint64_t{1} << 63);
  EXPECT_EQ(all.count(0, 3 * 64), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(all.count(0, 3 * 65), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(all.paths(0, 9, 100).paths.size(), 8u);
  const ShortestPathSet three = all.paths(0, 3 * 65, 3);
  EXPECT_TRUE(three.truncated);
  ASSERT_EQ(three.paths.size(), 3u);
  EXPECT_EQ(three.paths[0].size(), 131u);
  Rng rng(7);
  const Path sampled = all.sample(0, 3 * 65, rng);
  EXPECT_EQ(sampled.size(), 131u);
  EXPECT_TRUE(is_walk(t, sampled));
}

TEST(AllShortestPaths, NodeOutOfRangeThrowsNamingIt) {
  const AllShortestPaths all(hypercube(2));
  try {
    all.count(0, 4);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("node 4"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'hypercube'"), std::string::npos) << msg;
  }
  EXPECT_THROW(all.paths(7, 0, 1), Error);
  EXPECT_THROW(all.hops(5, 0), Error);
}

}  // namespace
}  // namespace photonsim
