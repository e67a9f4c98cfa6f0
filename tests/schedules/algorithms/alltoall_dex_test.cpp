// AlltoallDex: PCCL's hypercube dimension-exchange all-to-all.
#include "schedules/algorithms/alltoall_dex.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/error.h"
#include "tests/schedules/pattern_of.h"
#include "tests/schedules/verification_harness.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

using testing_support::test_workload;

FabricSpec alltoall_dex_fabric(int gpus) {
  FabricSpec f = testing_support::test_fabric(gpus);
  f.latency = Time::zero();
  return f;
}

Schedule alltoall_dex_synthesized(int n) { return synthesize_for_verification({"dex", n}); }

TEST(AlltoallDex, VerifierProvesEveryPowerOfTwoUpTo1024) {
  for (int n = 2; n <= 1024; n *= 2) {
    const Verification v = verify_schedule(alltoall_dex_synthesized(n));
    ASSERT_TRUE(v.ok()) << "n = " << n << ": " << v.violation->describe();
  }
}

TEST(AlltoallDex, Log2NStepsOfPerfectMatchingsWithHalfTheBlocksEachWay) {
  for (int n : {2, 4, 8, 16, 64, 128}) {
    const StepPattern p = pattern_of(AlltoallDex(), alltoall_dex_fabric(n), test_workload(Collective::alltoall, 1000));
    EXPECT_EQ(p.blocks, static_cast<uint32_t>(n * n));
    int log2n = 0;
    while ((1 << log2n) < n) ++log2n;
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(log2n)) << "n = " << n;
    for (size_t k = 0; k < p.steps.size(); ++k) {
      ASSERT_EQ(p.steps[k].size(), static_cast<size_t>(n));  // every node sends once
      std::set<Node> receivers;
      for (const Transfer& t : p.steps[k]) {
        EXPECT_EQ(t.dst, t.src ^ (Node{1} << k));
        EXPECT_EQ(t.blocks.size(), static_cast<size_t>(n / 2));
        EXPECT_EQ(t.bytes, Bytes(1000 * n / 2));
        for (uint32_t b : t.blocks) {
          // Every block it sends is headed for the partner's side of dimension k.
          EXPECT_NE((b % static_cast<uint32_t>(n)) & (1U << k), t.src & (1U << k));
        }
        receivers.insert(t.dst);
      }
      EXPECT_EQ(receivers.size(), static_cast<size_t>(n));
    }
  }
}

TEST(AlltoallDex, OtherSizesAreAnErrorNamingPowersOfTwo) {
  for (int n : {3, 6, 12, 100}) {
    try {
      alltoall_dex_synthesized(n);
      FAIL() << "n = " << n << " accepted";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("algorithm 'dex'"), std::string::npos) << msg;
      EXPECT_NE(msg.find("power of two"), std::string::npos) << msg;
      EXPECT_NE(msg.find("got n = " + std::to_string(n)), std::string::npos) << msg;
    }
  }
}

TEST(AlltoallDex, VerifierCatchesCorruptions) {
  const Schedule good = alltoall_dex_synthesized(16);
  ASSERT_TRUE(verify_schedule(good).ok());
  {
    ScheduleParts parts = parts_of(good);
    parts.steps[2].transfers.pop_back();  // drop a transfer
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
  }
  {
    ScheduleParts parts = parts_of(good);
    std::swap(parts.steps[0].transfers[3].dst, parts.steps[0].transfers[5].dst);  // swap destinations
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
  }
  {
    ScheduleParts parts = parts_of(good);
    std::swap(parts.steps[0], parts.steps[3]);  // step 3 forwards blocks not received yet
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.violation->what.find("does not hold"), std::string::npos) << v.violation->describe();
  }
}

TEST(AlltoallDex, RegisteredAsDexWithStaticDefaultPlanner) { expect_all_to_all_runs_on_a_static_ring("dex", 16); }

}  // namespace
}  // namespace photonsim
