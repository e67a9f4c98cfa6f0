// Swing: peers u +- rho(s), bandwidth-optimal block sets, powers of two.
#include "schedules/algorithms/swing.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/schedules/pattern_of.h"
#include "tests/schedules/reduction_checks.h"

namespace photonsim {
namespace {

using namespace reduction_checks;

TEST(Swing, VerifiedForPowersOfTwo) {
  for (Collective c : reduction_collectives()) {
    EXPECT_EQ(failures(Swing(), "swing", powers_of_two(2, 128), c), "");
  }
  EXPECT_EQ(failures(Swing(), "swing", {256}, Collective::allreduce), "");
  EXPECT_EQ(failures(Swing(), "swing", {1024}, Collective::allgather), "");
  const auto registry = SynthesizerRegistry::with_builtins();
  EXPECT_EQ(verdict(synthesize(registry, "swing", 32, Collective::allreduce)), "ok");
}

TEST(Swing, RhoIsTheJacobsthalSequence) {
  const int expected[] = {1, -1, 3, -5, 11, -21, 43, -85, 171, -341};
  for (int s = 0; s < 10; ++s) EXPECT_EQ(Swing::rho(s), expected[s]) << "s=" << s;
}

// Step s: even u pairs with u + rho(s), odd u with u - rho(s); the data halves
// every step (m / 2^(s+1)); log2 n steps per half, the all-gather mirrored.
TEST(Swing, PeersStepsAndVolumes) {
  for (int n = 2; n <= 1024; n *= 2) {
    const int64_t m = int64_t{1} << 20;
    const StepPattern p = pattern_of(Swing(), fabric(n), workload(Collective::allreduce, m));
    const int L = ceil_log2(n);
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(2 * L)) << "n=" << n;
    for (int s = 0; s < L; ++s) {
      const auto& rs = p.steps[static_cast<size_t>(s)];
      const auto& ag = p.steps[static_cast<size_t>(2 * L - 1 - s)];
      for (int u = 0; u < n; ++u) {
        const int offset = u % 2 == 0 ? Swing::rho(s) : -Swing::rho(s);
        const auto peer = static_cast<Node>(((u + offset) % n + n) % n);
        EXPECT_EQ(rs[static_cast<size_t>(u)].dst, peer) << "n=" << n << " s=" << s << " u=" << u;
        EXPECT_EQ(rs[static_cast<size_t>(u)].bytes.count(), m >> (s + 1));
        EXPECT_EQ(ag[static_cast<size_t>(u)].dst, peer);
        EXPECT_EQ(ag[static_cast<size_t>(u)].bytes.count(), m >> (s + 1));
      }
    }
  }
}

// What u sends in step s is what its peer still reaches in the later steps:
// node 0's step-0 send set on 8 nodes is what node 1 reaches through the
// peers of steps 1 and 2.
TEST(Swing, StepZeroSendsWhatThePeerReaches) {
  const int n = 8;
  const StepPattern p = pattern_of(Swing(), fabric(n), workload(Collective::reducescatter));
  std::set<uint32_t> reach = {1};
  for (int s = 1; s < 3; ++s) {
    std::set<uint32_t> next = reach;
    for (uint32_t v : reach) next.insert(static_cast<uint32_t>(Swing::peer(static_cast<int>(v), s, n)));
    reach = next;
  }
  const auto& sent = p.steps[0][0].blocks;
  EXPECT_EQ(std::set<uint32_t>(sent.begin(), sent.end()), reach);
  EXPECT_EQ(reach.size(), size_t{4});
}

TEST(Swing, OtherNNameThePowersOfTwo) {
  const auto registry = SynthesizerRegistry::with_builtins();
  for (int n : {3, 6, 12, 130}) {
    const std::string msg = error_of([&] { synthesize(registry, "swing", n, Collective::allreduce); });
    EXPECT_NE(msg.find("algorithm 'swing': needs n to be a power of two"), std::string::npos) << msg;
    EXPECT_NE(msg.find("n = " + std::to_string(n)), std::string::npos) << msg;
  }
}

TEST(Swing, VerifierCatchesASwappedDestination) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const Schedule good = synthesize(registry, "swing", 16, Collective::reducescatter);
  ASSERT_EQ(verdict(good), "ok");
  const Schedule swapped =
      edited(good, [](ScheduleParts& p) { std::swap(p.steps[1].transfers[0].dst, p.steps[1].transfers[5].dst); });
  EXPECT_NE(verdict(swapped), "ok");
}

}  // namespace
}  // namespace photonsim
