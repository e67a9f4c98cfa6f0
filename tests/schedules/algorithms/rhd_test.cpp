// Rhd: Rabenseifner recursive halving + doubling with the non-power-of-two fold.
#include "schedules/algorithms/rhd.h"

#include <gtest/gtest.h>

#include "tests/schedules/pattern_of.h"
#include "tests/schedules/reduction_checks.h"

namespace photonsim {
namespace {

using namespace reduction_checks;

TEST(Rhd, AllReduceVerifiedForEveryNUpTo130) {
  EXPECT_EQ(failures(Rhd(), "rhd", every_n(2, 130), Collective::allreduce), "");
}
TEST(Rhd, ReduceScatterVerifiedForEveryNUpTo130) {
  EXPECT_EQ(failures(Rhd(), "rhd", every_n(2, 130), Collective::reducescatter), "");
}
TEST(Rhd, AllGatherVerifiedForEveryNUpTo130) {
  EXPECT_EQ(failures(Rhd(), "rhd", every_n(2, 130), Collective::allgather), "");
}

TEST(Rhd, VerifiedForLargeSizesAndThroughTheRegistry) {
  EXPECT_EQ(failures(Rhd(), "rhd", {256, 384}, Collective::reducescatter), "");
  EXPECT_EQ(failures(Rhd(), "rhd", {1000, 1024}, Collective::allgather), "");
  const auto registry = SynthesizerRegistry::with_builtins();
  for (Collective c : reduction_collectives()) {
    EXPECT_EQ(verdict(synthesize(registry, "rhd", 11, c)), "ok") << to_string(c);
  }
}

// Power-of-two n: log2 n halving steps, distance n / 2^(s+1) via XOR, m / 2^(s+1)
// per node; the all-gather doubles back (distance 1 first).
TEST(Rhd, PowerOfTwoStepsDistancesAndVolumes) {
  for (int n = 2; n <= 1024; n *= 2) {
    const int64_t m = int64_t{1} << 20;
    const StepPattern p = pattern_of(Rhd(), fabric(n), workload(Collective::allreduce, m));
    const int L = ceil_log2(n);
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(2 * L)) << "n=" << n;
    for (int s = 0; s < L; ++s) {
      for (const Transfer& t : p.steps[static_cast<size_t>(s)]) {
        EXPECT_EQ(t.dst, t.src ^ static_cast<Node>(n >> (s + 1)));
        EXPECT_EQ(t.bytes.count(), m >> (s + 1));
        EXPECT_EQ(t.op, TransferOp::reduce);
      }
      for (const Transfer& t : p.steps[static_cast<size_t>(L + s)]) {
        EXPECT_EQ(t.dst, t.src ^ (Node{1} << s));
        EXPECT_EQ(t.bytes.count(), (m / n) << s);
        EXPECT_EQ(t.op, TransferOp::copy);
      }
    }
  }
}

// Other n: the fold adds one step before and one after each collective.
TEST(Rhd, FoldAddsTwoSteps) {
  for (int n = 3; n <= 130; ++n) {
    if (power_of_two(n)) continue;
    const int L = ceil_log2(n) - 1;  // log2 of the power of two folded onto
    const int r = n - (1 << L);
    const StepPattern ar = pattern_of(Rhd(), fabric(n), workload(Collective::allreduce));
    const StepPattern rs = pattern_of(Rhd(), fabric(n), workload(Collective::reducescatter));
    const StepPattern ag = pattern_of(Rhd(), fabric(n), workload(Collective::allgather));
    EXPECT_EQ(ar.steps.size(), static_cast<size_t>(2 * L + 2)) << "n=" << n;
    EXPECT_EQ(rs.steps.size(), static_cast<size_t>(L + 2)) << "n=" << n;
    EXPECT_EQ(ag.steps.size(), static_cast<size_t>(L + 2)) << "n=" << n;
    // Fold-in: 2j reduces its whole vector into 2j+1.
    ASSERT_EQ(ar.steps.front().size(), static_cast<size_t>(r));
    for (int j = 0; j < r; ++j) {
      const Transfer& t = ar.steps.front()[static_cast<size_t>(j)];
      EXPECT_EQ(t.src, static_cast<Node>(2 * j));
      EXPECT_EQ(t.dst, static_cast<Node>(2 * j + 1));
      EXPECT_EQ(t.bytes, Bytes(kOddMessage));
    }
    // Reduce-scatter fold-out: 2j+1 hands block 2j back.
    for (int j = 0; j < r; ++j) {
      EXPECT_EQ(rs.steps.back()[static_cast<size_t>(j)].blocks, (std::vector<uint32_t>{static_cast<uint32_t>(2 * j)}));
    }
  }
}

TEST(Rhd, VerifierCatchesADoubleCountedFold) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const Schedule good = synthesize(registry, "rhd", 6, Collective::reducescatter);
  ASSERT_EQ(verdict(good), "ok");
  // Folding node 0 into node 1 a second time counts node 0's input twice.
  const Schedule twice =
      edited(good, [](ScheduleParts& p) { p.steps[1].transfers.push_back(p.steps[0].transfers[0]); });
  EXPECT_NE(verdict(twice).find("twice"), std::string::npos) << verdict(twice);
  // Without the fold-out copy node 0 never gets block 0.
  const Schedule unfolded = edited(good, [](ScheduleParts& p) { p.steps.pop_back(); });
  EXPECT_NE(verdict(unfolded).find("node 0 ends with block 0"), std::string::npos) << verdict(unfolded);
}

}  // namespace
}  // namespace photonsim
