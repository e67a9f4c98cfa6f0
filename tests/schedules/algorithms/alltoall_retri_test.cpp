// AlltoallRetri: ReTri's balanced-ternary all-to-all (ReTri section 3.2, Appendix B).
#include "schedules/algorithms/alltoall_retri.h"

#include <gtest/gtest.h>

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

FabricSpec alltoall_retri_fabric(int gpus) {
  FabricSpec f = testing_support::test_fabric(gpus, 2, CircuitKind::bidirectional);
  f.latency = Time::zero();
  return f;
}

StepPattern retri(int n) {
  return pattern_of(AlltoallRetri(), alltoall_retri_fabric(n), test_workload(Collective::alltoall, 1000));
}

int ceil_log3(int n) {
  int k = 0;
  for (int reach = 1; reach < n; reach *= 3) ++k;
  return k;
}

TEST(AlltoallRetri, VerifierProvesEveryNUpTo130) {
  for (int n = 2; n <= 130; ++n) {
    const Verification v = verify_schedule(synthesize_for_verification({"retri", n}));
    ASSERT_TRUE(v.ok()) << "n = " << n << ": " << v.violation->describe();
  }
}

TEST(AlltoallRetri, VerifierProvesLargeSizes) {
  for (int n : {243, 729, 1024}) {
    const Verification v = verify_schedule(synthesize_for_verification({"retri", n}));
    ASSERT_TRUE(v.ok()) << "n = " << n << ": " << v.violation->describe();
  }
}

TEST(AlltoallRetri, CeilLog3NPhasesToTheTwoSubringNeighbours) {
  for (int n = 2; n <= 130; ++n) {
    const StepPattern p = retri(n);
    EXPECT_FALSE(p.independent_steps);
    EXPECT_EQ(p.blocks, static_cast<uint32_t>(n * n));
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(ceil_log3(n))) << "n = " << n;
    int weight = 1;
    for (const auto& step : p.steps) {
      ASSERT_FALSE(step.empty()) << "n = " << n;
      std::map<Node, int> sent;
      for (const Transfer& t : step) {
        const bool plus = t.dst == (t.src + static_cast<Node>(weight)) % static_cast<Node>(n);
        const bool minus = t.dst == (t.src + static_cast<Node>(n - weight % n)) % static_cast<Node>(n);
        EXPECT_TRUE(plus || minus) << "n = " << n << ": " << t.src << "->" << t.dst << " in phase of weight " << weight;
        EXPECT_EQ(t.bytes, Bytes(1000 * static_cast<int64_t>(t.blocks.size())));
        ++sent[t.src];
      }
      for (const auto& [node, transfers] : sent) EXPECT_LE(transfers, 2);
      weight *= 3;
    }
  }
}

TEST(AlltoallRetri, PowersOfThreeSendExactlyNOverThreeBlocksEachWay) {
  // The Appendix B lemma: in every phase every node sends n/3 blocks to
  // i + 3^k, n/3 to i - 3^k, and keeps n/3.
  for (int n : {3, 9, 27, 81, 243}) {
    const StepPattern p = retri(n);
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(ceil_log3(n)));
    int weight = 1;
    for (const auto& step : p.steps) {
      ASSERT_EQ(step.size(), static_cast<size_t>(2 * n)) << "n = " << n << ", weight " << weight;
      std::map<std::pair<Node, Node>, size_t> blocks;
      for (const Transfer& t : step) blocks[{t.src, t.dst}] += t.blocks.size();
      for (Node i = 0; i < static_cast<Node>(n); ++i) {
        const Node right = (i + static_cast<Node>(weight)) % static_cast<Node>(n);
        const Node left = (i + static_cast<Node>(n - weight)) % static_cast<Node>(n);
        EXPECT_EQ(blocks[std::make_pair(i, right)], static_cast<size_t>(n / 3)) << "n = " << n << ", node " << i;
        EXPECT_EQ(blocks[std::make_pair(i, left)], static_cast<size_t>(n / 3)) << "n = " << n << ", node " << i;
      }
      weight *= 3;
    }
  }
}

TEST(AlltoallRetri, BlocksFollowTheBalancedTernaryDigitsOfTheCentredOffset) {
  const StepPattern p9 = retri(9);
  // offset 4 = +1 +3
  EXPECT_EQ(route_of(p9, 9, 0, 4), (std::vector<Node>{0, 1, 4}));
  // offset 5 -> centred -4 = -1 -3
  EXPECT_EQ(route_of(p9, 9, 0, 5), (std::vector<Node>{0, 8, 5}));
  // offset 2 = -1 +3
  EXPECT_EQ(route_of(p9, 9, 0, 2), (std::vector<Node>{0, 8, 2}));
  // offset 3 = 0 +3: stays in phase 0
  EXPECT_EQ(route_of(p9, 9, 7, 1), (std::vector<Node>{7, 1}));
  // Not a power of three: n = 10, offset 5 = n/2 stays positive: 5 = -1 -3 +9, moves mod 10.
  const StepPattern p10 = retri(10);
  EXPECT_EQ(route_of(p10, 10, 0, 5), (std::vector<Node>{0, 9, 6, 5}));
  // offset 6 -> centred -4 = -1 -3
  EXPECT_EQ(route_of(p10, 10, 2, 8), (std::vector<Node>{2, 1, 8}));
}

TEST(AlltoallRetri, FewerThanTwoGpusIsAnError) {
  try {
    retri(1);
    FAIL() << "n = 1 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("n >= 2"), std::string::npos) << e.what();
  }
}

TEST(AlltoallRetri, VerifierCatchesCorruptions) {
  for (int n : {9, 10}) {
    const Schedule good = synthesize_for_verification({"retri", n});
    ASSERT_TRUE(verify_schedule(good).ok());
    {
      ScheduleParts parts = parts_of(good);
      parts.steps.back().transfers.erase(parts.steps.back().transfers.begin());  // drop a transfer
      const Verification v = verify_schedule(Schedule(std::move(parts)));
      ASSERT_FALSE(v.ok()) << "n = " << n;
      EXPECT_EQ(v.violation->step, good.steps().size()) << v.violation->describe();
    }
    {
      ScheduleParts parts = parts_of(good);
      Transfer& t = parts.steps[0].transfers[1];
      t.dst = (t.dst + 2) % static_cast<Node>(n);  // node 0's - transfer goes to its + neighbour
      const Verification v = verify_schedule(Schedule(std::move(parts)));
      ASSERT_FALSE(v.ok()) << "n = " << n;
    }
  }
}

TEST(AlltoallRetri, RegisteredAsRetriWithStaticDefaultPlanner) { expect_all_to_all_runs_on_a_static_ring("retri", 27); }

}  // namespace
}  // namespace photonsim
