// RecursiveDoubling: Harvest's cyclic recursive doubling for any n.
#include "schedules/algorithms/recursive_doubling.h"

#include <gtest/gtest.h>

#include "tests/schedules/pattern_of.h"
#include "tests/schedules/reduction_checks.h"

namespace photonsim {
namespace {

using namespace reduction_checks;

// The verifier proves every n in 2..130 (one test per collective so ctest can
// run them side by side), larger powers of two, and the registry path.
TEST(RecursiveDoubling, AllReduceVerifiedForEveryNUpTo130) {
  EXPECT_EQ(failures(RecursiveDoubling(), "recursive_doubling", every_n(2, 130), Collective::allreduce), "");
}
TEST(RecursiveDoubling, ReduceScatterVerifiedForEveryNUpTo130) {
  EXPECT_EQ(failures(RecursiveDoubling(), "recursive_doubling", every_n(2, 130), Collective::reducescatter), "");
}
TEST(RecursiveDoubling, AllGatherVerifiedForEveryNUpTo130) {
  EXPECT_EQ(failures(RecursiveDoubling(), "recursive_doubling", every_n(2, 130), Collective::allgather), "");
}

TEST(RecursiveDoubling, VerifiedForLargeSizes) {
  EXPECT_EQ(failures(RecursiveDoubling(), "recursive_doubling", {256}, Collective::allreduce), "");
  EXPECT_EQ(failures(RecursiveDoubling(), "recursive_doubling", {512}, Collective::reducescatter), "");
  EXPECT_EQ(failures(RecursiveDoubling(), "recursive_doubling", {1000, 1024}, Collective::allgather), "");
}

TEST(RecursiveDoubling, VerifiedThroughTheRegistry) {
  const auto registry = SynthesizerRegistry::with_builtins();
  for (Collective c : reduction_collectives()) {
    EXPECT_EQ(verdict(synthesize(registry, "recursive_doubling", 12, c)), "ok") << to_string(c);
  }
}

// Harvest Sec. 5.1: step i (1-based) pairs u with u + 2^(i-1) and moves m / 2^i
// in the reduce-scatter; the all-gather reverses it.
TEST(RecursiveDoubling, StepsAndVolumesMatchHarvestForPowersOfTwo) {
  for (int n = 2; n <= 1024; n *= 2) {
    const int64_t m = int64_t{1} << 20;  // a multiple of n: m / 2^i is exact
    const StepPattern p = pattern_of(RecursiveDoubling(), fabric(n), workload(Collective::allreduce, m));
    const int L = ceil_log2(n);
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(2 * L)) << "n=" << n;
    EXPECT_EQ(RecursiveDoubling::steps(n), L);
    for (int i = 1; i <= L; ++i) {
      const auto& rs = p.steps[static_cast<size_t>(i - 1)];
      const auto& ag = p.steps[static_cast<size_t>(2 * L - i)];  // the mirror of step i
      ASSERT_EQ(rs.size(), static_cast<size_t>(n));
      ASSERT_EQ(ag.size(), static_cast<size_t>(n));
      for (int u = 0; u < n; ++u) {
        const Transfer& r = rs[static_cast<size_t>(u)];
        const Transfer& a = ag[static_cast<size_t>(u)];
        EXPECT_EQ(r.src, static_cast<Node>(u));
        EXPECT_EQ(r.dst, static_cast<Node>((u + (1 << (i - 1))) % n)) << "n=" << n << " step " << i;
        EXPECT_EQ(r.bytes.count(), m >> i) << "n=" << n << " step " << i;
        EXPECT_EQ(r.op, TransferOp::reduce);
        EXPECT_EQ(a.dst, r.dst);
        EXPECT_EQ(a.bytes, r.bytes);
        EXPECT_EQ(a.op, TransferOp::copy);
      }
      EXPECT_EQ(RecursiveDoubling::blocks_in_step(n, i), n >> i);
    }
  }
}

// Other n: ceil(log2 n) steps; step i carries ceil((n - 2^(i-1)) / 2^i) blocks,
// n - 1 blocks in all (still bandwidth-optimal).
TEST(RecursiveDoubling, OtherNStepBlockCounts) {
  EXPECT_EQ(RecursiveDoubling::blocks_in_step(6, 1), 3);
  EXPECT_EQ(RecursiveDoubling::blocks_in_step(6, 2), 1);
  EXPECT_EQ(RecursiveDoubling::blocks_in_step(6, 3), 1);
  for (int n = 2; n <= 130; ++n) {
    const StepPattern p = pattern_of(RecursiveDoubling(), fabric(n), workload(Collective::reducescatter));
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(ceil_log2(n))) << "n=" << n;
    size_t total = 0;
    for (size_t s = 0; s < p.steps.size(); ++s) {
      for (const Transfer& t : p.steps[s]) {
        EXPECT_EQ(t.blocks.size(), static_cast<size_t>(RecursiveDoubling::blocks_in_step(n, static_cast<int>(s) + 1)));
      }
      total += p.steps[s][0].blocks.size();
    }
    EXPECT_EQ(total, static_cast<size_t>(n - 1)) << "n=" << n;
  }
}

TEST(RecursiveDoubling, HalvesAreTheirOwnCollectives) {
  for (int n : {5, 8, 12}) {
    const StepPattern full = pattern_of(RecursiveDoubling(), fabric(n), workload(Collective::allreduce));
    const StepPattern rs = pattern_of(RecursiveDoubling(), fabric(n), workload(Collective::reducescatter));
    const StepPattern ag = pattern_of(RecursiveDoubling(), fabric(n), workload(Collective::allgather));
    ASSERT_EQ(rs.steps.size() + ag.steps.size(), full.steps.size());
    for (size_t s = 0; s < rs.steps.size(); ++s) EXPECT_EQ(rs.steps[s][1].blocks, full.steps[s][1].blocks);
    for (size_t s = 0; s < ag.steps.size(); ++s) {
      EXPECT_EQ(ag.steps[s][1].blocks, full.steps[rs.steps.size() + s][1].blocks);
    }
  }
}

TEST(RecursiveDoubling, VerifierCatchesADroppedTransfer) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const Schedule good = synthesize(registry, "recursive_doubling", 6, Collective::allreduce);
  ASSERT_EQ(verdict(good), "ok");
  const Schedule dropped =
      edited(good, [](ScheduleParts& p) { p.steps[1].transfers.erase(p.steps[1].transfers.begin() + 2); });
  EXPECT_NE(verdict(dropped), "ok");
  const Schedule dropped_gather = edited(good, [](ScheduleParts& p) { p.steps.back().transfers.pop_back(); });
  EXPECT_NE(verdict(dropped_gather).find("ends"), std::string::npos) << verdict(dropped_gather);
}

}  // namespace
}  // namespace photonsim
