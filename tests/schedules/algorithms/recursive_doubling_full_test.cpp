// RecursiveDoublingFull: latency-optimal whole-vector recursive doubling.
#include "schedules/algorithms/recursive_doubling_full.h"

#include <gtest/gtest.h>

#include "tests/schedules/pattern_of.h"
#include "tests/schedules/reduction_checks.h"

namespace photonsim {
namespace {

using namespace reduction_checks;

TEST(RecursiveDoublingFull, VerifiedForPowersOfTwo) {
  EXPECT_EQ(failures(RecursiveDoublingFull(), "recursive_doubling_full", powers_of_two(2, 128), Collective::allreduce),
            "");
  EXPECT_EQ(failures(RecursiveDoublingFull(), "recursive_doubling_full", powers_of_two(2, 1024), Collective::allgather),
            "");
  const auto registry = SynthesizerRegistry::with_builtins();
  EXPECT_EQ(verdict(synthesize(registry, "recursive_doubling_full", 16, Collective::allreduce)), "ok");
}

// log2 n steps, partner u XOR 2^i, the whole vector (m bytes) both ways.
TEST(RecursiveDoublingFull, StepsPartnersAndVolumes) {
  for (int n = 2; n <= 1024; n *= 2) {
    const StepPattern p = pattern_of(RecursiveDoublingFull(), fabric(n), workload(Collective::allreduce));
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(ceil_log2(n))) << "n=" << n;
    for (size_t i = 0; i < p.steps.size(); ++i) {
      ASSERT_EQ(p.steps[i].size(), static_cast<size_t>(n));
      for (const Transfer& t : p.steps[i]) {
        EXPECT_EQ(t.dst, t.src ^ (Node{1} << i));
        EXPECT_EQ(t.bytes, Bytes(kOddMessage));
        EXPECT_EQ(t.blocks.size(), static_cast<size_t>(n));
        EXPECT_EQ(t.op, TransferOp::reduce);
      }
    }
    const StepPattern ag = pattern_of(RecursiveDoublingFull(), fabric(n), workload(Collective::allgather, 1 << 20));
    for (size_t i = 0; i < ag.steps.size(); ++i) {
      EXPECT_EQ(ag.steps[i][0].bytes.count(), (int64_t{1} << 20) / n * (int64_t{1} << i));
    }
  }
}

TEST(RecursiveDoublingFull, OtherNNameThePowersOfTwo) {
  const auto registry = SynthesizerRegistry::with_builtins();
  for (int n : {3, 6, 12, 100}) {
    const std::string msg =
        error_of([&] { synthesize(registry, "recursive_doubling_full", n, Collective::allreduce); });
    EXPECT_NE(msg.find("algorithm 'recursive_doubling_full'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("power of two"), std::string::npos) << msg;
    EXPECT_NE(msg.find("n = " + std::to_string(n)), std::string::npos) << msg;
  }
  const std::string msg =
      error_of([&] { synthesize(registry, "recursive_doubling_full", 8, Collective::reducescatter); });
  EXPECT_NE(msg.find("does not implement"), std::string::npos) << msg;
}

TEST(RecursiveDoublingFull, VerifierCatchesADoubleCountedReduction) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const Schedule good = synthesize(registry, "recursive_doubling_full", 8, Collective::allreduce);
  ASSERT_EQ(verdict(good), "ok");
  // Replaying step 0 adds every partner's input a second time.
  const Schedule twice = edited(good, [](ScheduleParts& p) { p.steps.push_back(p.steps[0]); });
  EXPECT_NE(verdict(twice).find("twice"), std::string::npos) << verdict(twice);
}

}  // namespace
}  // namespace photonsim
