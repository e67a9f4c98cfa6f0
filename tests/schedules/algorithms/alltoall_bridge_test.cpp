// AlltoallBridge: Bridge's mirrored two-port Bruck all-to-all.
#include "schedules/algorithms/alltoall_bridge.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "tests/schedules/pattern_of.h"
#include "tests/schedules/verification_harness.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

using testing_support::test_workload;

FabricSpec alltoall_bridge_fabric(int gpus) {
  FabricSpec f = testing_support::test_fabric(gpus, 2, CircuitKind::bidirectional);
  f.latency = Time::zero();
  return f;
}

StepPattern bridge(int n) {
  return pattern_of(AlltoallBridge(), alltoall_bridge_fabric(n), test_workload(Collective::alltoall, 1000));
}

int floor_log2(int n) {
  int k = 0;
  while ((2 << k) <= n) ++k;
  return k;
}

TEST(AlltoallBridge, VerifierProvesEveryNUpTo130) {
  for (int n = 2; n <= 130; ++n) {
    const Verification v = verify_schedule(synthesize_for_verification({"bridge", n}));
    ASSERT_TRUE(v.ok()) << "n = " << n << ": " << v.violation->describe();
  }
}

TEST(AlltoallBridge, VerifierProvesLargeSizes) {
  for (int n : {1000, 1024}) {
    const Verification v = verify_schedule(synthesize_for_verification({"bridge", n}));
    ASSERT_TRUE(v.ok()) << "n = " << n << ": " << v.violation->describe();
  }
}

TEST(AlltoallBridge, FloorLog2NPhasesToTheTwoSubringNeighbours) {
  for (int n = 2; n <= 130; ++n) {
    const StepPattern p = bridge(n);
    EXPECT_EQ(p.blocks, static_cast<uint32_t>(n * n));
    // ceil(log2 n) for powers of two, one fewer otherwise: no offset exceeds n/2.
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(floor_log2(n))) << "n = " << n;
    int weight = 1;
    for (const auto& step : p.steps) {
      std::map<Node, int> sent;
      for (const Transfer& t : step) {
        const bool plus = t.dst == (t.src + static_cast<Node>(weight)) % static_cast<Node>(n);
        const bool minus = t.dst == (t.src + static_cast<Node>(n - weight)) % static_cast<Node>(n);
        EXPECT_TRUE(plus || minus) << "n = " << n << ": " << t.src << "->" << t.dst;
        ++sent[t.src];
      }
      for (const auto& [node, transfers] : sent) EXPECT_LE(transfers, 2);
      weight *= 2;
    }
  }
}

TEST(AlltoallBridge, EveryBlockTakesTheShorterWayRound) {
  for (int n : {7, 8, 13}) {
    const StepPattern p = bridge(n);
    for (Node src = 0; src < static_cast<Node>(n); ++src) {
      for (Node dst = 0; dst < static_cast<Node>(n); ++dst) {
        const std::vector<Node> route = route_of(p, n, src, dst);
        int travelled = 0;
        for (size_t h = 1; h < route.size(); ++h) {
          const int step = static_cast<int>((route[h] + static_cast<Node>(n) - route[h - 1]) % static_cast<Node>(n));
          travelled += std::min(step, n - step);
        }
        const int offset = static_cast<int>((dst + static_cast<Node>(n) - src) % static_cast<Node>(n));
        EXPECT_EQ(travelled, std::min(offset, n - offset)) << "n = " << n << ", " << src << "->" << dst;
        EXPECT_EQ(route.back(), dst);
      }
    }
  }
  const StepPattern p8 = bridge(8);
  EXPECT_EQ(route_of(p8, 8, 0, 3), (std::vector<Node>{0, 1, 3}));  // +1 +2
  EXPECT_EQ(route_of(p8, 8, 0, 5), (std::vector<Node>{0, 7, 5}));  // -1 -2
  EXPECT_EQ(route_of(p8, 8, 0, 4), (std::vector<Node>{0, 4}));     // n/2 goes the + way
}

TEST(AlltoallBridge, PowersOfTwoSendAQuarterEachWayThenTheAntipodalBlock) {
  for (int n : {4, 8, 16, 64}) {
    const StepPattern p = bridge(n);
    const int phases = floor_log2(n);
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(phases));
    for (int k = 0; k < phases; ++k) {
      const Node weight = Node{1} << k;
      std::map<std::pair<Node, Node>, size_t> blocks;
      for (const Transfer& t : p.steps[static_cast<size_t>(k)]) blocks[{t.src, t.dst}] += t.blocks.size();
      for (Node i = 0; i < static_cast<Node>(n); ++i) {
        const Node right = (i + weight) % static_cast<Node>(n);
        const Node left = (i + static_cast<Node>(n) - weight) % static_cast<Node>(n);
        if (k + 1 < phases) {
          EXPECT_EQ(blocks[std::make_pair(i, right)], static_cast<size_t>(n / 4)) << "n = " << n << ", k = " << k;
          EXPECT_EQ(blocks[std::make_pair(i, left)], static_cast<size_t>(n / 4)) << "n = " << n << ", k = " << k;
        } else {
          EXPECT_EQ(blocks[std::make_pair(i, right)], size_t{1}) << "n = " << n;  // right == left: i + n/2
        }
      }
    }
  }
}

TEST(AlltoallBridge, FewerThanTwoGpusIsAnError) {
  try {
    bridge(1);
    FAIL() << "n = 1 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("n >= 2"), std::string::npos) << e.what();
  }
}

TEST(AlltoallBridge, VerifierCatchesCorruptions) {
  const Schedule good = synthesize_for_verification({"bridge", 11});
  ASSERT_TRUE(verify_schedule(good).ok());
  {
    ScheduleParts parts = parts_of(good);
    parts.steps[1].transfers.erase(parts.steps[1].transfers.begin() + 3);  // drop a transfer
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
  }
  {
    ScheduleParts parts = parts_of(good);
    auto& ts = parts.steps[0].transfers;
    std::swap(ts[0].dst, ts[1].dst);  // node 0's + and - transfers trade destinations
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
  }
}

TEST(AlltoallBridge, RegisteredAsBridgeWithStaticDefaultPlanner) {
  expect_all_to_all_runs_on_a_static_ring("bridge", 12);
}

// The ReTri paper's variant: every flow halved, one half each way round.
TEST(AlltoallBridge, HalvesVariantIsVerifiedAndSplitsEveryFlow) {
  for (int n : {2, 3, 4, 7, 8, 12, 16, 31, 64, 81}) {
    const Verification v = verify_schedule(synthesize_for_verification(
        {"bridge", n, Collective::alltoall, Bytes(1001), Bytes(0), 0, {{"mirror", "halves"}}}));
    EXPECT_TRUE(v.ok()) << "n = " << n << ": " << v.violation->describe();
  }
  const StepPattern p = pattern_of(AlltoallBridge(), alltoall_bridge_fabric(64),
                                   test_workload(Collective::alltoall, 1000), {{"mirror", "halves"}});
  EXPECT_EQ(p.block_parts, 2u);
  EXPECT_EQ(p.blocks, 64u * 64u * 2u);
  ASSERT_EQ(p.steps.size(), 6u);  // ceil(log2 64): offsets up to 63 each way
  for (size_t k = 0; k < p.steps.size(); ++k) {
    // Phase k moves every half whose distance has bit k: 32 of 64 halves each way, 500 bytes each.
    for (const Transfer& t : p.steps[k]) {
      EXPECT_EQ(t.blocks.size(), 32u) << k;
      EXPECT_EQ(t.counterclockwise, t.blocks.front() % 2 == 1);
    }
  }
  EXPECT_THROW(pattern_of(AlltoallBridge(), alltoall_bridge_fabric(8), test_workload(Collective::alltoall, 1000),
                          {{"mirror", "both"}}),
               Error);
}

}  // namespace
}  // namespace photonsim
