#include "topology/congestion_dilation.h"

#include <gtest/gtest.h>

#include "tests/topology/hand_built_topologies.h"

#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

using hand_built::at;
using hand_built::grid;
using hand_built::torus;

Topology ring(int n, bool bidirectional) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) {
    e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
    if (bidirectional) e.push_back({static_cast<Node>((u + 1) % n), static_cast<Node>(u)});
  }
  return Topology(bidirectional ? "bidirectional_ring" : "ring", n, std::move(e));
}

// rows x cols torus, node id = row * cols + col, bidirectional neighbours with wrap-around.

// rows x cols grid (mesh): like the torus without wrap-around.

// One round of recursive halving-doubling: every node u sends to u XOR distance.
// Reduce-scatter by recursive halving (Thakur et al. 2005, which PCCL cites for
// RHD) uses distance n/2 in step 0, then n/4, ..., 1; all-gather by recursive
// doubling runs the same rounds in reverse. The tests name rounds by distance,
// so they hold for either order.
std::vector<Edge> rhd_round(int n, int distance) {
  std::vector<Edge> pairs;
  for (int u = 0; u < n; ++u) pairs.push_back({static_cast<Node>(u), static_cast<Node>(u ^ distance)});
  return pairs;
}

std::map<Edge, int> usage_map(const CongestionDilation& cd) {
  return std::map<Edge, int>(cd.edge_usage.begin(), cd.edge_usage.end());
}

// ---- bidirectional ring of 8 ----------------------------------------------
// Ties go clockwise (the router explores offset +1 before offset n-1).
// distance 4: every partner is the antipode; 4 hops clockwise for every u.
//   Clockwise edge (i, i+1) carries the transfers from i-3, i-2, i-1, i: 4.
// distance 2: u with bit 1 clear (0,1,4,5) go +2 clockwise; the others go -2
//   counter-clockwise. (1,2) carries 0->2 and 1->3, (5,6) carries 4->6 and
//   5->7; (2,1) carries 2->0 and 3->1, (6,5) carries 6->4 and 7->5: max 2.
// distance 1: even u -> u+1, odd u -> u-1, each a direct circuit used once.
TEST(CongestionDilation, RhdOnBidirectionalRingOf8) {
  const Topology t = ring(8, true);

  const CongestionDilation d4 = compute_congestion_dilation(t, rhd_round(8, 4));
  EXPECT_TRUE(d4.reachable);
  EXPECT_EQ(d4.dilation, 4);
  EXPECT_EQ(d4.congestion, 4);
  EXPECT_EQ(d4.congestion_per_circuit, 4);
  std::map<Edge, int> clockwise_all_4;
  for (Node i = 0; i < 8; ++i) clockwise_all_4[{i, (i + 1) % 8}] = 4;
  EXPECT_EQ(usage_map(d4), clockwise_all_4);

  const CongestionDilation d2 = compute_congestion_dilation(t, rhd_round(8, 2));
  EXPECT_EQ(d2.dilation, 2);
  EXPECT_EQ(d2.congestion, 2);
  const std::map<Edge, int> expected_d2{{{0, 1}, 1}, {{1, 2}, 2}, {{2, 3}, 1}, {{4, 5}, 1}, {{5, 6}, 2}, {{6, 7}, 1},
                                        {{2, 1}, 2}, {{1, 0}, 1}, {{3, 2}, 1}, {{6, 5}, 2}, {{5, 4}, 1}, {{7, 6}, 1}};
  EXPECT_EQ(usage_map(d2), expected_d2);

  const CongestionDilation d1 = compute_congestion_dilation(t, rhd_round(8, 1));
  EXPECT_EQ(d1.dilation, 1);
  EXPECT_EQ(d1.congestion, 1);
  EXPECT_EQ(d1.edge_usage.size(), 8u);
}

// ---- unidirectional ring of 8 ---------------------------------------------
// Every transfer goes clockwise (d - s) mod 8 hops; 8 transfers of total
// length L spread evenly, so each edge carries L / 8.
// distance 4: 8 x 4 hops = 32 -> 4 per edge; dilation 4.
// distance 2: four transfers of 2 hops and four of 6 (u - 2 = u + 6): 32 -> 4; dilation 6.
// distance 1: four of 1 hop, four of 7: 32 -> 4; dilation 7.
TEST(CongestionDilation, RhdOnUnidirectionalRingOf8) {
  const Topology t = ring(8, false);
  const int dilation[] = {4, 6, 7};
  const int distance[] = {4, 2, 1};
  for (int k = 0; k < 3; ++k) {
    const CongestionDilation cd = compute_congestion_dilation(t, rhd_round(8, distance[k]));
    EXPECT_EQ(cd.dilation, dilation[k]) << "distance " << distance[k];
    EXPECT_EQ(cd.congestion, 4) << "distance " << distance[k];
    ASSERT_EQ(cd.edge_usage.size(), 8u);
    for (const auto& [edge, count] : cd.edge_usage) EXPECT_EQ(count, 4) << edge.first << "->" << edge.second;
  }
}

// ---- 4x4 torus, node = row * 4 + col ---------------------------------------
// Clockwise offsets from (r, c): down +4 and up +12 always; right +1 and left
// +15 inside a row; from column 0 the left wrap is +3, from column 3 the right
// wrap is +13. The router's path is the lexicographically smallest offset
// sequence among the shortest paths.
// distance 8 flips row bit 1: (r, c) -> (r + 2 mod 4, c). Shortest: down-down
//   (4, 4) or up-up (12, 12); down-down wins. Down edge (r, c) -> (r+1, c)
//   carries the transfers from rows r and r-1: 2 each, 16 edges; dilation 2.
// distance 4 flips row bit 0: rows 0<->1 and 2<->3 are neighbours: 1 hop,
//   every vertical circuit between those rows used once.
// distance 2 flips column bit 1: (r, c) -> (r, c + 2 mod 4). Right-right vs
//   left-left: c=0 (1,1) vs (3,15); c=1 (1,1) vs (15,3); c=2 (1,13) vs
//   (15,15); c=3 (13,1) vs (15,15): right-right always, so every right edge
//   carries 2, like the antipodes of a 4-ring; dilation 2.
// distance 1 flips column bit 0: direct neighbours, 1 hop, each used once.
TEST(CongestionDilation, RhdOn4x4Torus) {
  const Topology t = torus(4, 4);

  const CongestionDilation d8 = compute_congestion_dilation(t, rhd_round(16, 8));
  EXPECT_EQ(d8.dilation, 2);
  EXPECT_EQ(d8.congestion, 2);
  std::map<Edge, int> down_all_2;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) down_all_2[{at(r, c, 4), at((r + 1) % 4, c, 4)}] = 2;
  }
  EXPECT_EQ(usage_map(d8), down_all_2);

  const CongestionDilation d4 = compute_congestion_dilation(t, rhd_round(16, 4));
  EXPECT_EQ(d4.dilation, 1);
  EXPECT_EQ(d4.congestion, 1);
  EXPECT_EQ(d4.edge_usage.size(), 16u);

  const CongestionDilation d2 = compute_congestion_dilation(t, rhd_round(16, 2));
  EXPECT_EQ(d2.dilation, 2);
  EXPECT_EQ(d2.congestion, 2);
  std::map<Edge, int> right_all_2;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) right_all_2[{at(r, c, 4), at(r, (c + 1) % 4, 4)}] = 2;
  }
  EXPECT_EQ(usage_map(d2), right_all_2);

  const CongestionDilation d1 = compute_congestion_dilation(t, rhd_round(16, 1));
  EXPECT_EQ(d1.dilation, 1);
  EXPECT_EQ(d1.congestion, 1);
  EXPECT_EQ(d1.edge_usage.size(), 16u);
}

// ---- 4x4 grid (no wrap-around), node = row * 4 + col -----------------------
// Partners differ in one coordinate only, so the shortest path is the unique
// straight line (any turn adds two hops).
// distance 8: rows 0<->2 and 1<->3 per column. Down: 0->2 uses (0,1),(1,2) and
//   1->3 uses (1,2),(2,3); up: 2->0 uses (2,1),(1,0) and 3->1 uses (3,2),(2,1).
//   So (1->2) and (2->1) carry 2 per column, the rest 1; dilation 2.
// distance 4: rows 0<->1, 2<->3: 1 hop, congestion 1.
// distance 2: columns 0<->2, 1<->3 per row: the same count along rows.
// distance 1: columns 0<->1, 2<->3: 1 hop, congestion 1.
TEST(CongestionDilation, RhdOn4x4Grid) {
  const Topology t = grid(4, 4);

  const CongestionDilation d8 = compute_congestion_dilation(t, rhd_round(16, 8));
  EXPECT_EQ(d8.dilation, 2);
  EXPECT_EQ(d8.congestion, 2);
  std::map<Edge, int> expected_d8;
  for (int c = 0; c < 4; ++c) {
    expected_d8[{at(0, c, 4), at(1, c, 4)}] = 1;
    expected_d8[{at(1, c, 4), at(2, c, 4)}] = 2;
    expected_d8[{at(2, c, 4), at(3, c, 4)}] = 1;
    expected_d8[{at(3, c, 4), at(2, c, 4)}] = 1;
    expected_d8[{at(2, c, 4), at(1, c, 4)}] = 2;
    expected_d8[{at(1, c, 4), at(0, c, 4)}] = 1;
  }
  EXPECT_EQ(usage_map(d8), expected_d8);

  const CongestionDilation d4 = compute_congestion_dilation(t, rhd_round(16, 4));
  EXPECT_EQ(d4.dilation, 1);
  EXPECT_EQ(d4.congestion, 1);

  const CongestionDilation d2 = compute_congestion_dilation(t, rhd_round(16, 2));
  EXPECT_EQ(d2.dilation, 2);
  EXPECT_EQ(d2.congestion, 2);
  std::map<Edge, int> expected_d2;
  for (int r = 0; r < 4; ++r) {
    expected_d2[{at(r, 0, 4), at(r, 1, 4)}] = 1;
    expected_d2[{at(r, 1, 4), at(r, 2, 4)}] = 2;
    expected_d2[{at(r, 2, 4), at(r, 3, 4)}] = 1;
    expected_d2[{at(r, 3, 4), at(r, 2, 4)}] = 1;
    expected_d2[{at(r, 2, 4), at(r, 1, 4)}] = 2;
    expected_d2[{at(r, 1, 4), at(r, 0, 4)}] = 1;
  }
  EXPECT_EQ(usage_map(d2), expected_d2);

  const CongestionDilation d1 = compute_congestion_dilation(t, rhd_round(16, 1));
  EXPECT_EQ(d1.dilation, 1);
  EXPECT_EQ(d1.congestion, 1);
}

// Transfers that are not axis-aligned exercise the tie-breaking: on the 4x4
// torus, 0 -> 5 can go right-down (offsets 1, 4) or down-right (4, 1); the
// router takes right first: 0->1->5, and likewise 4->5->9. With 1 -> 5 direct,
// circuit (1,5) carries two transfers (down-right first would have spread them).
TEST(CongestionDilation, DiagonalTransfersFollowTheClockwiseTieBreak) {
  const Topology t = torus(4, 4);
  const CongestionDilation cd = compute_congestion_dilation(t, {{0, 5}, {4, 9}, {1, 5}});
  EXPECT_EQ(cd.dilation, 2);
  EXPECT_EQ(cd.congestion, 2);
  const std::map<Edge, int> expected{{{0, 1}, 1}, {{1, 5}, 2}, {{4, 5}, 1}, {{5, 9}, 1}};
  EXPECT_EQ(usage_map(cd), expected);
}

TEST(CongestionDilation, ParallelCircuitsAreOneEdgeKeyButSharePerCircuitLoad) {
  const Topology t("doubled", 3, {{0, 1}, {0, 1}, {1, 2}, {2, 0}});
  const CongestionDilation cd = compute_congestion_dilation(t, {{0, 1}, {0, 1}, {0, 2}});
  // (0,1) carries all three transfers over two circuits; (1,2) carries one over one.
  EXPECT_EQ(cd.congestion, 3);
  EXPECT_EQ(cd.congestion_per_circuit, 2);
  EXPECT_EQ(cd.dilation, 2);
  const CongestionDilation single = compute_congestion_dilation(t, {{1, 2}, {1, 0}});
  EXPECT_EQ(single.congestion, 2);  // both cross (1,2), which has one circuit
  EXPECT_EQ(single.congestion_per_circuit, 2);
}

TEST(CongestionDilation, CostIsLatencyTimesDilationPlusSerialisationOfCongestionTimesW) {
  const Topology t = ring(8, true);
  const CongestionDilation cd = compute_congestion_dilation(t, rhd_round(8, 4));
  // The test fabric (800 Gbps = 1e11 B/s, 500 ns): 4 x 1 MB = 4e6 B takes 40 us; 4 hops x 500 ns = 2 us.
  const FabricSpec f = testing_support::test_fabric(8);
  EXPECT_EQ(cd.cost(f.latency, f.bandwidth, Bytes(1'000'000)), Time::us(42));
  // PCCL's evaluation: alpha = 3 us, beta = 1/450 s/GB (450 GB/s = 3.6e12 bit/s), w = 1 MB:
  // 4 x 3 us + 4e6 / 450e9 s = 12 us + 8888888.9 ps, rounded up to a whole picosecond.
  EXPECT_EQ(cd.cost(Time::us(3), Bandwidth::bits_per_second(3'600'000'000'000), Bytes(1'000'000)),
            Time::ps(12'000'000 + 8'888'889));
}

TEST(CongestionDilation, EmptyAndSelfTransfersCostNothing) {
  const Topology t = ring(4, true);
  const CongestionDilation none = compute_congestion_dilation(t, {});
  EXPECT_TRUE(none.reachable);
  EXPECT_EQ(none.dilation, 0);
  EXPECT_EQ(none.congestion, 0);
  EXPECT_TRUE(none.edge_usage.empty());
  const CongestionDilation self = compute_congestion_dilation(t, {{2, 2}});
  EXPECT_EQ(self.dilation, 0);
  EXPECT_EQ(self.congestion, 0);
  EXPECT_EQ(self.cost(Time::us(3), Bandwidth::bits_per_second(1'000'000'000), Bytes(1000)), Time::zero());
}

TEST(CongestionDilation, UnreachablePairIsPenalisedAndNamed) {
  const Topology t("split", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  const CongestionDilation cd = compute_congestion_dilation(t, {{0, 1}, {1, 2}, {3, 0}});
  EXPECT_FALSE(cd.reachable);
  ASSERT_TRUE(cd.first_unreachable.has_value());
  EXPECT_EQ(*cd.first_unreachable, (Edge{1, 2}));
  EXPECT_EQ(cd.cost(Time::us(3), Bandwidth::bits_per_second(1'000'000'000), Bytes(1000)), Time::max());
  EXPECT_TRUE(compute_congestion_dilation(t, {{0, 1}, {2, 3}}).reachable);
}

TEST(CongestionDilation, NodeOutOfRangeThrowsNamingIt) {
  const Topology t = ring(4, true);
  try {
    compute_congestion_dilation(t, {{0, 1}, {2, 9}});
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("node 9"), std::string::npos) << msg;
    EXPECT_NE(msg.find("transfer 1"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace photonsim
