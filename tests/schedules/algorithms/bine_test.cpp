// Bine: negabinary butterflies (distance doubling = Swing's pattern; halving).
#include "schedules/algorithms/bine.h"

#include <gtest/gtest.h>

#include "schedules/model/block_sizes.h"
#include "schedules/algorithms/swing.h"
#include "tests/schedules/pattern_of.h"
#include "tests/schedules/reduction_checks.h"

namespace photonsim {
namespace {

using namespace reduction_checks;

TEST(Bine, VerifiedForPowersOfTwoBothDistances) {
  const auto registry = SynthesizerRegistry::with_builtins();
  for (const char* distance : {"doubling", "halving"}) {
    const std::map<std::string, std::string> params = {{"distance", distance}};
    for (Collective c : reduction_collectives()) {
      EXPECT_EQ(failures(Bine(), "bine", powers_of_two(2, 128), c, params), "") << distance;
    }
    EXPECT_EQ(failures(Bine(), "bine", {1024}, Collective::allgather, params), "") << distance;
    EXPECT_EQ(verdict(synthesize(registry, "bine", 16, Collective::allreduce, params)), "ok") << distance;
  }
}

TEST(Bine, NegabinaryDistancesAreSwingsRho) {
  // 1, 11, 111, 1111 in base -2.
  EXPECT_EQ(Bine::negabinary_ones(1), 1);
  EXPECT_EQ(Bine::negabinary_ones(2), -1);
  EXPECT_EQ(Bine::negabinary_ones(3), 3);
  EXPECT_EQ(Bine::negabinary_ones(4), -5);
  for (int s = 0; s < 12; ++s) EXPECT_EQ(Bine::negabinary_ones(s + 1), Swing::rho(s));
}

// Harvest: Swing "is equivalent to Bine Butterfly in terms of communication pattern".
TEST(Bine, DoublingIsSwingsPattern) {
  for (int n = 2; n <= 256; n *= 2) {
    for (Collective c : reduction_collectives()) {
      const StepPattern bine = pattern_of(Bine(), fabric(n), workload(c));
      const StepPattern swing = pattern_of(Swing(), fabric(n), workload(c));
      ASSERT_EQ(bine.steps.size(), swing.steps.size());
      for (size_t s = 0; s < bine.steps.size(); ++s) {
        for (size_t i = 0; i < bine.steps[s].size(); ++i) {
          EXPECT_EQ(bine.steps[s][i].dst, swing.steps[s][i].dst);
          EXPECT_EQ(bine.steps[s][i].blocks, swing.steps[s][i].blocks);
        }
      }
    }
  }
}

// Distance halving: reduce-scatter step s uses |d(log2 n - 1 - s)|, farthest
// first, while the data still halves each step (m / 2^(s+1)).
TEST(Bine, HalvingGoesFarthestFirst) {
  for (int n = 4; n <= 1024; n *= 2) {
    const int64_t m = int64_t{1} << 20;
    const StepPattern p =
        pattern_of(Bine(), fabric(n), workload(Collective::reducescatter, m), {{"distance", "halving"}});
    const int L = ceil_log2(n);
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(L));
    for (int s = 0; s < L; ++s) {
      const int d = Bine::negabinary_ones(L - s);
      for (const Transfer& t : p.steps[static_cast<size_t>(s)]) {
        const int expected = t.src % 2 == 0 ? d : -d;
        EXPECT_EQ(t.dst, static_cast<Node>(((static_cast<int>(t.src) + expected) % n + n) % n));
        EXPECT_EQ(t.bytes.count(), m >> (s + 1));
      }
    }
  }
}

TEST(Bine, RejectsOtherNAndUnknownDistance) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const std::string msg = error_of([&] { synthesize(registry, "bine", 24, Collective::allreduce); });
  EXPECT_NE(msg.find("algorithm 'bine': needs n to be a power of two"), std::string::npos) << msg;
  const std::string bad = error_of([&] {
    synthesize(registry, "bine", 8, Collective::allreduce, {{"distance", "tripling"}});
  });
  EXPECT_NE(bad.find("parameter 'distance'"), std::string::npos) << bad;
}

TEST(Bine, VerifierCatchesADroppedBlock) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const Schedule good = synthesize(registry, "bine", 8, Collective::allgather, {{"distance", "halving"}});
  ASSERT_EQ(verdict(good), "ok");
  const Schedule short_of_one = edited(good, [&](ScheduleParts& p) {
    Transfer& t = p.steps.back().transfers[3];
    t.blocks.pop_back();
    t.bytes = blocks_bytes(p.message, p.blocks, t.blocks);
  });
  EXPECT_NE(verdict(short_of_one).find("ends without block"), std::string::npos) << verdict(short_of_one);
}

}  // namespace
}  // namespace photonsim
