// Swing: peers u +- rho(s), bandwidth-optimal block sets, powers of two.
#include "schedules/algorithms/swing.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

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

// Multi-dimensional Swing: proven on tori of every shape up to 3 dimensions,
// for every collective; with multiport (AllReduce) the 2D planes together.
TEST(Swing, OnToriAndMultiportVerified) {
  const std::vector<std::pair<int, std::string>> tori = {{4, "2x2"}, {8, "2x4"}, {16, "4x4"}, {32, "4x8"},
                                                          {64, "8x8"}, {64, "4x4x4"}, {64, "2x4x8"}, {128, "8x16"}};
  for (const auto& [n, dims] : tori) {
    for (Collective c : reduction_collectives()) {
      EXPECT_EQ(verdict(planned(Swing(), "swing", n, c, {{"dims", dims}})), "ok") << dims;
    }
    EXPECT_EQ(verdict(planned(Swing(), "swing", n, Collective::allreduce, {{"dims", dims}, {"multiport", "true"}})),
              "ok")
        << dims;
  }
  for (int n : {2, 8, 64}) {
    EXPECT_EQ(verdict(planned(Swing(), "swing", n, Collective::allreduce, {{"multiport", "true"}})), "ok") << n;
  }
}

// On the 4x4 torus with multiport each node sends, in every step, to one
// peer per dimension and direction, each plane a quarter of the data: node
// 0 at step 0 to rows +1 and -1 (nodes 4 and 12) and columns +1 and -1
// (nodes 1 and 3); steps alternate dimensions, rho counted per dimension.
TEST(Swing, MultiportUsesEveryPortOfTheTorus) {
  const int64_t m = int64_t{1} << 20;
  const StepPattern p = pattern_of(Swing(), fabric(16), workload(Collective::allreduce, m),
                                   {{"dims", "4x4"}, {"multiport", "true"}});
  ASSERT_EQ(p.steps.size(), size_t{8});
  EXPECT_EQ(p.blocks, 64u);
  for (size_t s = 0; s < 4; ++s) {
    std::map<Node, std::multiset<Node>> peers;
    for (const Transfer& t : p.steps[s]) {
      peers[t.src].insert(t.dst);
      EXPECT_EQ(t.bytes.count(), (m / 4) >> (s + 1)) << "s=" << s;
    }
    ASSERT_EQ(peers.size(), size_t{16});
    for (const auto& [node, to] : peers) {
      EXPECT_EQ(std::set<Node>(to.begin(), to.end()).size(), size_t{4}) << "s=" << s << " node " << node;
    }
  }
  std::multiset<Node> first;
  for (const Transfer& t : p.steps[0]) {
    if (t.src == 0) first.insert(t.dst);
  }
  EXPECT_EQ(first, (std::multiset<Node>{1, 3, 4, 12}));
  // Plane 0 goes rows, columns, rows, columns; rho per dimension: 1, 1, -1, -1.
  const auto order = Swing::dimension_steps({4, 4}, 0);
  ASSERT_EQ(order.size(), size_t{4});
  EXPECT_EQ(order[2].dimension, 0);
  EXPECT_EQ(order[2].within, 1);
  EXPECT_EQ(Swing::torus_peer(0, {4, 4}, order[2], false), 12);  // row 0 + rho(1) = -1 -> row 3
  EXPECT_EQ(Swing::torus_peer(0, {4, 4}, order[2], true), 4);
}

TEST(Swing, BadDimsAndMultiportOutsideAllReduceAreRefused) {
  const std::string rs = error_of(
      [] { pattern_of(Swing(), fabric(16), workload(Collective::reducescatter), {{"dims", "4x4"}, {"multiport", "true"}}); });
  EXPECT_NE(rs.find("multiport"), std::string::npos) << rs;
  EXPECT_NE(rs.find("allreduce only"), std::string::npos) << rs;
  const std::string odd = error_of([] { pattern_of(Swing(), fabric(24), workload(Collective::allreduce), {{"dims", "4x6"}}); });
  EXPECT_NE(odd.find("power of two"), std::string::npos) << odd;
  const std::string product =
      error_of([] { pattern_of(Swing(), fabric(16), workload(Collective::allreduce), {{"dims", "4x8"}}); });
  EXPECT_NE(product.find("4x8 has 32 nodes but fabric.gpus is 16"), std::string::npos) << product;
}

}  // namespace
}  // namespace photonsim
