// BruckConcat: Bruck's concatenation all-gather.
#include "schedules/algorithms/bruck_concat.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/schedules/pattern_of.h"
#include "tests/schedules/reduction_checks.h"

namespace photonsim {
namespace {

using namespace reduction_checks;

TEST(BruckConcat, VerifiedForEveryNUpTo130AndLargeSizes) {
  EXPECT_EQ(failures(BruckConcat(), "bruck_concat", every_n(2, 130), Collective::allgather), "");
  EXPECT_EQ(failures(BruckConcat(), "bruck_concat", {1000, 1024}, Collective::allgather), "");
  const auto registry = SynthesizerRegistry::with_builtins();
  EXPECT_EQ(verdict(synthesize(registry, "bruck_concat", 13, Collective::allgather)), "ok");
}

// ceil(log2 n) steps; step k: u -> u - 2^k with min(2^k, n - 2^k) blocks (the
// last step only the remainder).
TEST(BruckConcat, StepsPartnersAndVolumes) {
  for (int n = 2; n <= 130; ++n) {
    const StepPattern p = pattern_of(BruckConcat(), fabric(n), workload(Collective::allgather));
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(ceil_log2(n))) << "n=" << n;
    size_t total = 0;
    for (size_t k = 0; k < p.steps.size(); ++k) {
      const int d = 1 << k;
      for (const Transfer& t : p.steps[k]) {
        EXPECT_EQ(t.dst, static_cast<Node>((static_cast<int>(t.src) - d + n) % n));
        EXPECT_EQ(t.blocks.size(), static_cast<size_t>(std::min(d, n - d)));
        EXPECT_EQ(t.blocks.front(), t.src);
        EXPECT_EQ(t.op, TransferOp::copy);
      }
      total += p.steps[k][0].blocks.size();
    }
    EXPECT_EQ(total, static_cast<size_t>(n - 1));
  }
}

TEST(BruckConcat, AllGatherOnly) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const std::string msg = error_of([&] { synthesize(registry, "bruck_concat", 8, Collective::allreduce); });
  EXPECT_NE(msg.find("'bruck_concat' does not implement"), std::string::npos) << msg;
}

TEST(BruckConcat, VerifierCatchesADroppedTransfer) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const Schedule good = synthesize(registry, "bruck_concat", 11, Collective::allgather);
  ASSERT_EQ(verdict(good), "ok");
  const Schedule dropped =
      edited(good, [](ScheduleParts& p) { p.steps.back().transfers.erase(p.steps.back().transfers.begin()); });
  EXPECT_NE(verdict(dropped).find("ends without block"), std::string::npos) << verdict(dropped);
}

}  // namespace
}  // namespace photonsim
