// AlltoallBruck: Bruck's index all-to-all with radix r.
#include "schedules/algorithms/alltoall_bruck.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "core/error.h"
#include "tests/schedules/pattern_of.h"
#include "tests/schedules/verification_harness.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

FabricSpec alltoall_bruck_fabric(int gpus) {
  FabricSpec f = testing_support::test_fabric(gpus, 4);
  f.latency = Time::zero();
  return f;
}

StepPattern bruck(int n, int64_t radix) {
  return pattern_of(AlltoallBruck(), alltoall_bruck_fabric(n),
                    testing_support::test_workload(Collective::alltoall, 1000), {{"radix", std::to_string(radix)}});
}

int ceil_log(int64_t radix, int64_t n) {
  int k = 0;
  for (int64_t reach = 1; reach < n; reach *= radix) ++k;
  return k;
}

Schedule synthesized(int n, int64_t radix) {
  return synthesize_for_verification(
      {"bruck", n, Collective::alltoall, Bytes(1000), Bytes(0), 0, {{"radix", std::to_string(radix)}}});
}

TEST(AlltoallBruck, VerifierProvesRadixTwoForEveryNUpTo130) {
  for (int n = 2; n <= 130; ++n) {
    const Verification v = verify_schedule(synthesized(n, 2));
    ASSERT_TRUE(v.ok()) << "n = " << n << ": " << v.violation->describe();
  }
}

TEST(AlltoallBruck, VerifierProvesOtherRadices) {
  for (int64_t radix : {3, 4, 5, 7}) {
    for (int n = 2; n <= 40; ++n) {
      const Verification v = verify_schedule(synthesized(n, radix));
      ASSERT_TRUE(v.ok()) << "r = " << radix << ", n = " << n << ": " << v.violation->describe();
    }
  }
  // A radix of n or more is one step of n-1 direct transfers per node.
  const Verification v = verify_schedule(synthesized(5, 1000000000000));
  EXPECT_TRUE(v.ok());
}

TEST(AlltoallBruck, VerifierProvesLargeSizes) {
  for (int n : {729, 1024}) {
    const Verification v = verify_schedule(synthesized(n, n == 729 ? 3 : 2));
    ASSERT_TRUE(v.ok()) << "n = " << n << ": " << v.violation->describe();
  }
}

TEST(AlltoallBruck, OneStepPerDigitPositionWithRMinusOneTransfersPerNode) {
  for (int64_t radix : {2, 3, 4, 5}) {
    for (int n : {2, 3, 5, 8, 9, 16, 17, 27, 64, 100}) {
      const StepPattern p = bruck(n, radix);
      EXPECT_FALSE(p.independent_steps);
      EXPECT_EQ(p.blocks, static_cast<uint32_t>(n * n));
      ASSERT_EQ(p.steps.size(), static_cast<size_t>(ceil_log(radix, n))) << "r = " << radix << ", n = " << n;
      int64_t weight = 1;
      for (const auto& step : p.steps) {
        std::map<Node, std::set<Node>> peers;
        for (const Transfer& t : step) {
          const int64_t distance = (static_cast<int64_t>(t.dst) - t.src + n) % n;
          EXPECT_EQ(distance % weight, 0);
          EXPECT_GE(distance / weight, 1);
          EXPECT_LT(distance / weight, radix);
          EXPECT_EQ(t.bytes, Bytes(1000 * static_cast<int64_t>(t.blocks.size())));
          EXPECT_TRUE(peers[t.src].insert(t.dst).second) << "two transfers " << t.src << "->" << t.dst;
        }
        for (const auto& [node, to] : peers) EXPECT_LE(to.size(), static_cast<size_t>(radix - 1));
        weight *= radix;
      }
    }
  }
}

TEST(AlltoallBruck, RadixTwoOnPowersOfTwoSendsHalfTheBlocksPerStep) {
  for (int n : {2, 4, 8, 32, 128}) {
    const StepPattern p = bruck(n, 2);
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(ceil_log(2, n)));
    for (const auto& step : p.steps) {
      ASSERT_EQ(step.size(), static_cast<size_t>(n));  // one transfer per node
      for (const Transfer& t : step) EXPECT_EQ(t.blocks.size(), static_cast<size_t>(n / 2));
    }
  }
}

TEST(AlltoallBruck, ForwardsBlocksReceivedInEarlierSteps) {
  // Block (0, 3) on 8 nodes goes 0 -> 1 (step 0) -> 3 (step 1): node 1 forwards it.
  const StepPattern p = bruck(8, 2);
  const uint32_t block = 0 * 8 + 3;
  std::vector<std::pair<Node, Node>> hops;
  for (const auto& step : p.steps) {
    for (const Transfer& t : step) {
      for (uint32_t b : t.blocks) {
        if (b == block) hops.push_back({t.src, t.dst});
      }
    }
  }
  EXPECT_EQ(hops, (std::vector<std::pair<Node, Node>>{{0, 1}, {1, 3}}));
}

TEST(AlltoallBruck, RadixBelowTwoIsAnError) {
  for (const char* radix : {"1", "0", "-3"}) {
    try {
      synthesized(8, std::stoll(radix));
      FAIL() << "radix " << radix << " accepted";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("algorithm 'bruck' parameter 'radix'"), std::string::npos) << msg;
      EXPECT_NE(msg.find(">= 2"), std::string::npos) << msg;
    }
  }
}

TEST(AlltoallBruck, FewerThanTwoGpusIsAnError) {
  try {
    bruck(1, 2);
    FAIL() << "n = 1 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("n >= 2"), std::string::npos) << e.what();
  }
}

TEST(AlltoallBruck, VerifierCatchesCorruptions) {
  const Schedule good = synthesized(12, 3);
  ASSERT_TRUE(verify_schedule(good).ok());
  {
    ScheduleParts parts = parts_of(good);
    parts.steps[1].transfers.erase(parts.steps[1].transfers.begin() + 4);  // drop a transfer
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
  }
  {
    ScheduleParts parts = parts_of(good);
    Transfer& t = parts.steps[0].transfers[2];
    t.dst = (t.dst + 1) % 12;  // deliver to the wrong neighbour
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
  }
  {
    ScheduleParts parts = parts_of(good);
    parts.steps[0].transfers[0].bytes += Bytes(1);  // size no longer matches the blocks
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.violation->what.find("bytes"), std::string::npos) << v.violation->describe();
  }
}

TEST(AlltoallBruck, RegisteredAsBruckWithStaticDefaultPlanner) { expect_all_to_all_runs_on_a_static_ring("bruck", 12); }

}  // namespace
}  // namespace photonsim
