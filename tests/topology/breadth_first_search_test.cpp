#include "topology/breadth_first_search.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.h"

namespace photonsim {
namespace {

using Lists = std::vector<std::vector<Node>>;

// 0 -> 1 -> 2 -> 3 -> 4 -> 0.
Topology directed_ring() { return Topology("ring", 5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}}); }

// Node 2 is reached at the same distance from 0 and from 5, so its parent
// depends on the order 4 lists them in; 4 -> 0 is a parallel circuit.
//   4 -> 0 (twice), 4 -> 5, 0 -> 1, 0 -> 2, 5 -> 2, 2 -> 3
Topology ties() { return Topology("ties", 6, {{4, 0}, {4, 5}, {0, 2}, {5, 2}, {2, 3}, {0, 1}, {4, 0}}); }

TEST(BreadthFirstSearch, DirectedRingForward) {
  BreadthFirstSearch search(successor_lists(directed_ring(), NeighbourOrder::ascending));
  EXPECT_EQ(search.nodes(), 5);
  search.run(0);
  EXPECT_EQ(search.distances(), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(search.parents(), (std::vector<int>{-1, 0, 1, 2, 3}));
  EXPECT_EQ(search.order(), (std::vector<Node>{0, 1, 2, 3, 4}));
  EXPECT_EQ(search.path_counts(), (std::vector<uint64_t>{1, 1, 1, 1, 1}));
  EXPECT_EQ(search.path_to(3), (std::vector<Node>{0, 1, 2, 3}));
  EXPECT_EQ(search.path_to(0), (std::vector<Node>{0}));

  search.run(3);  // buffers are reused: nothing of the last run survives
  EXPECT_EQ(search.distances(), (std::vector<int>{2, 3, 4, 0, 1}));
  EXPECT_EQ(search.parents(), (std::vector<int>{4, 0, 1, -1, 3}));
  EXPECT_EQ(search.order(), (std::vector<Node>{3, 4, 0, 1, 2}));
}

TEST(BreadthFirstSearch, DirectedRingReversed) {
  EXPECT_EQ(predecessor_lists(directed_ring()), (Lists{{4}, {0}, {1}, {2}, {3}}));
  BreadthFirstSearch search(predecessor_lists(directed_ring()));
  search.run(0);
  EXPECT_EQ(search.distances(), (std::vector<int>{0, 4, 3, 2, 1}));
  EXPECT_EQ(search.parents(), (std::vector<int>{-1, 2, 3, 4, 0}));
  EXPECT_EQ(search.order(), (std::vector<Node>{0, 4, 3, 2, 1}));
}

TEST(BreadthFirstSearch, ListsInEachOrder) {
  const Topology t = ties();
  EXPECT_EQ(successor_lists(t, NeighbourOrder::ascending), (Lists{{1, 2}, {}, {3}, {}, {0, 5}, {2}}));
  // Clockwise offsets (v - u) mod 6: from 4, 5 is +1 and 0 is +2; from 0, 1 is +1 and 2 is +2.
  EXPECT_EQ(successor_lists(t, NeighbourOrder::clockwise), (Lists{{1, 2}, {}, {3}, {}, {5, 0}, {2}}));
  EXPECT_EQ(successor_lists(t, NeighbourOrder::counterclockwise), (Lists{{2, 1}, {}, {3}, {}, {0, 5}, {2}}));
  EXPECT_EQ(predecessor_lists(t), (Lists{{4}, {0}, {0, 5}, {2}, {}, {4}}));
}

TEST(BreadthFirstSearch, TiesFollowTheListsOrder) {
  const Topology t = ties();
  BreadthFirstSearch ascending(successor_lists(t, NeighbourOrder::ascending));
  ascending.run(4);
  EXPECT_EQ(ascending.distances(), (std::vector<int>{1, 2, 2, 3, 0, 1}));
  EXPECT_EQ(ascending.parents(), (std::vector<int>{4, 0, 0, 2, -1, 4}));
  EXPECT_EQ(ascending.order(), (std::vector<Node>{4, 0, 5, 1, 2, 3}));
  // Parallel circuits do not multiply paths; 2 and 3 have two each.
  EXPECT_EQ(ascending.path_counts(), (std::vector<uint64_t>{1, 1, 2, 2, 1, 1}));
  EXPECT_EQ(ascending.path_to(3), (std::vector<Node>{4, 0, 2, 3}));

  BreadthFirstSearch clockwise(successor_lists(t, NeighbourOrder::clockwise));
  clockwise.run(4);
  EXPECT_EQ(clockwise.distances(), ascending.distances());
  EXPECT_EQ(clockwise.parents(), (std::vector<int>{4, 0, 5, 2, -1, 4}));
  EXPECT_EQ(clockwise.order(), (std::vector<Node>{4, 5, 0, 2, 1, 3}));
  EXPECT_EQ(clockwise.path_counts(), ascending.path_counts());
  EXPECT_EQ(clockwise.path_to(3), (std::vector<Node>{4, 5, 2, 3}));

  BreadthFirstSearch counterclockwise(successor_lists(t, NeighbourOrder::counterclockwise));
  counterclockwise.run(4);
  EXPECT_EQ(counterclockwise.parents(), (std::vector<int>{4, 0, 0, 2, -1, 4}));
  EXPECT_EQ(counterclockwise.order(), (std::vector<Node>{4, 0, 5, 2, 1, 3}));
}

TEST(BreadthFirstSearch, UnreachedNodes) {
  BreadthFirstSearch search(successor_lists(ties(), NeighbourOrder::ascending));
  EXPECT_TRUE(search.path_to(2).empty());  // before any run nothing is reached
  search.run(2);
  EXPECT_EQ(search.distances(), (std::vector<int>{-1, -1, 0, 1, -1, -1}));
  EXPECT_EQ(search.parents(), (std::vector<int>{-1, -1, -1, 2, -1, -1}));
  EXPECT_EQ(search.order(), (std::vector<Node>{2, 3}));
  EXPECT_EQ(search.path_counts(), (std::vector<uint64_t>{0, 0, 1, 1, 0, 0}));
  EXPECT_TRUE(search.path_to(0).empty());
}

TEST(BreadthFirstSearch, FilterSkipsEdges) {
  BreadthFirstSearch search(successor_lists(ties(), NeighbourOrder::ascending));
  search.run(4, [](Node u, Node v) { return !(u == 0 && v == 2); });
  EXPECT_EQ(search.distances(), (std::vector<int>{1, 2, 2, 3, 0, 1}));
  EXPECT_EQ(search.parents(), (std::vector<int>{4, 0, 5, 2, -1, 4}));
  EXPECT_EQ(search.path_counts(), (std::vector<uint64_t>{1, 1, 1, 1, 1, 1}));

  search.run(4, [](Node, Node v) { return v != 0; });  // a blocked node
  EXPECT_EQ(search.distances(), (std::vector<int>{-1, -1, 2, 3, 0, 1}));

  search.run(4, nullptr);  // no filter: every edge
  EXPECT_EQ(search.parents(), (std::vector<int>{4, 0, 0, 2, -1, 4}));
}

TEST(BreadthFirstSearch, StopsAtTarget) {
  BreadthFirstSearch search(successor_lists(ties(), NeighbourOrder::ascending));
  search.run(4, nullptr, 5);
  EXPECT_EQ(search.order(), (std::vector<Node>{4, 0, 5}));
  EXPECT_EQ(search.path_to(5), (std::vector<Node>{4, 5}));
  EXPECT_EQ(search.distance(2), -1);  // not reached before the search stopped

  search.run(4, nullptr, 4);
  EXPECT_EQ(search.order(), (std::vector<Node>{4}));
  EXPECT_EQ(search.path_to(4), (std::vector<Node>{4}));
}

TEST(BreadthFirstSearch, CirculantInGeneratorOrder) {
  // u -> u + 2 listed before u -> u + 1.
  const Lists lists = circulant_successor_lists(5, {2, 1});
  EXPECT_EQ(lists, (Lists{{2, 1}, {3, 2}, {4, 3}, {0, 4}, {1, 0}}));
  BreadthFirstSearch search(lists);
  search.run(0);
  EXPECT_EQ(search.distances(), (std::vector<int>{0, 1, 1, 2, 2}));
  EXPECT_EQ(search.parents(), (std::vector<int>{-1, 0, 0, 2, 2}));
  EXPECT_EQ(search.order(), (std::vector<Node>{0, 2, 1, 4, 3}));
  EXPECT_EQ(search.path_counts(), (std::vector<uint64_t>{1, 1, 1, 2, 1}));
}

TEST(BreadthFirstSearch, PathCountsSaturate) {
  // 65 diamonds in a row: hub h_i -> a_i, b_i -> h_{i+1}, so 2^i paths reach h_i.
  constexpr int kDiamonds = 65;
  Lists lists(3 * kDiamonds + 1);
  for (Node i = 0; i < kDiamonds; ++i) {
    const Node hub = 3 * i;
    lists[hub] = {hub + 1, hub + 2};
    lists[hub + 1] = {hub + 3};
    lists[hub + 2] = {hub + 3};
  }
  BreadthFirstSearch search(lists);
  search.run(0);
  EXPECT_EQ(search.path_counts()[3 * 63], uint64_t{1} << 63);
  EXPECT_EQ(search.path_counts()[3 * 64], std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(search.path_counts()[3 * 65], std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(search.distance(3 * 65), 2 * 65);
}

TEST(BreadthFirstSearch, NodesOutOfRangeThrow) {
  EXPECT_THROW(BreadthFirstSearch(Lists{{1}, {2}}), Error);
  BreadthFirstSearch search(Lists{{1}, {0}});
  EXPECT_THROW(search.run(2), Error);
  EXPECT_THROW(search.run(0, nullptr, 2), Error);
  EXPECT_THROW(search.path_to(2), Error);
}

}  // namespace
}  // namespace photonsim
