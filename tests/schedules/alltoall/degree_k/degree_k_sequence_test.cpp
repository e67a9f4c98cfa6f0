// The all-to-all paper's degree-k strategies (k > 1): Circulant and
// Generalized Kautz bases and their contraction sequences.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/units.h"
#include "schedules/algorithms/alltoall_direct.h"
#include "schedules/verify/block_verifier.h"
#include "schedules/alltoall/degree_k/degree_k_sequence.h"
#include "schedules/alltoall/strategy_schedule.h"
#include "core/spec/flow_sizes.h"
#include "schedules/alltoall/reconfiguration_bound.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

constexpr uint64_t kSeed = 7;

const char* name_of(DegreeKBase base) { return base == DegreeKBase::circulant ? "circulant" : "genkautz"; }

std::string label(DegreeKBase base, int n, int k) {
  return std::string(name_of(base)) + " n=" + std::to_string(n) + " k=" + std::to_string(k);
}

bool same_strategy(const AlltoallStrategy& a, const AlltoallStrategy& b) {
  if (a.construction != b.construction || !(a.topologies == b.topologies) || a.rounds.size() != b.rounds.size()) {
    return false;
  }
  for (size_t r = 0; r < a.rounds.size(); ++r) {
    const StrategyRound& x = a.rounds[r];
    const StrategyRound& y = b.rounds[r];
    if (x.topology != y.topology || x.flows.size() != y.flows.size()) return false;
    for (size_t f = 0; f < x.flows.size(); ++f) {
      if (x.flows[f].bytes != y.flows[f].bytes || x.flows[f].routes.size() != y.flows[f].routes.size()) return false;
      for (size_t p = 0; p < x.flows[f].routes.size(); ++p) {
        if (x.flows[f].routes[p].path != y.flows[f].routes[p].path) return false;
      }
    }
  }
  return true;
}

// Everything a degree-k strategy promises, for the d-th strategy of a family.
void degree_k_sequence_expect_valid(const AlltoallStrategy& s, int n, int k, int d, const std::string& what) {
  const std::string where = what + " d=" + std::to_string(d);
  ASSERT_EQ(s.configurations(), d) << where;
  ASSERT_LE(d, n - 1) << where;
  for (const Topology& t : s.topologies) {
    ASSERT_EQ(t.gpus(), n) << where;
    for (Node u = 0; u < static_cast<Node>(n); ++u) {
      EXPECT_LE(t.out_degree(u), k) << where << " topology " << t.name() << " node " << u;
      EXPECT_LE(t.in_degree(u), k) << where << " topology " << t.name() << " node " << u;
    }
  }
  std::vector<int> delivered(static_cast<size_t>(n) * static_cast<size_t>(n), 0);
  std::vector<bool> used(static_cast<size_t>(d), false);
  int previous = 0;
  for (const StrategyRound& r : s.rounds) {
    ASSERT_GE(r.topology, previous) << where << ": rounds must come topology by topology";
    ASSERT_LT(r.topology, d) << where;
    previous = r.topology;
    used[static_cast<size_t>(r.topology)] = true;
    EXPECT_TRUE(contention_free(r, s.topologies[static_cast<size_t>(r.topology)]))
        << where << " topology " << r.topology;
    for (const StrategyFlow& f : r.flows) {
      ASSERT_EQ(f.routes.size(), 1U) << where;
      EXPECT_EQ(f.bytes, Bytes(1)) << where;
      EXPECT_EQ(f.routes.front().path.front(), f.src) << where;
      EXPECT_EQ(f.routes.front().path.back(), f.dst) << where;
      ++delivered[static_cast<size_t>(f.src) * static_cast<size_t>(n) + f.dst];
    }
  }
  EXPECT_TRUE(std::all_of(used.begin(), used.end(), [](bool u) { return u; }))
      << where << ": a topology without a round";
  for (Node src = 0; src < static_cast<Node>(n); ++src) {
    for (Node dst = 0; dst < static_cast<Node>(n); ++dst) {
      EXPECT_EQ(delivered[static_cast<size_t>(src) * static_cast<size_t>(n) + dst], src == dst ? 0 : 1)
          << where << " pair " << src << " -> " << dst;
    }
  }
  EXPECT_GE(s.hop_sum(), transmission_lower_bound(n, k, d)) << where;
}

void expect_valid_family(DegreeKBase base, int n, int k, bool compare_with_base_alone = true) {
  const std::string what = label(base, n, k);
  const std::vector<AlltoallStrategy> family = degree_k_strategies(n, k, base, kSeed, std::nullopt);
  ASSERT_FALSE(family.empty()) << what;
  for (size_t i = 0; i < family.size(); ++i)
    degree_k_sequence_expect_valid(family[i], n, k, static_cast<int>(i) + 1, what);
  // d = 1 is the base schedule alone, the one `only = 1` returns.
  const std::string base_name = base == DegreeKBase::circulant ? "circulant(" : "generalized_kautz(";
  EXPECT_EQ(family.front().topologies.front().name().rfind(base_name, 0), 0U) << what;
  if (compare_with_base_alone) {
    const std::vector<AlltoallStrategy> alone = degree_k_strategies(n, k, base, kSeed, 1);
    ASSERT_EQ(alone.size(), 1U) << what;
    EXPECT_TRUE(same_strategy(alone.front(), family.front())) << what;
  }
  if (n >= 16) {
    int64_t best = family.front().hop_sum();
    for (const AlltoallStrategy& s : family) best = std::min(best, s.hop_sum());
    EXPECT_LT(best, family.front().hop_sum()) << what << ": no contraction saved hops";
  }
}

TEST(DegreeKCirculant, EveryStrategyIsValidForTwoPorts) {
  for (int n : {8, 12, 16, 32}) expect_valid_family(DegreeKBase::circulant, n, 2);
}

TEST(DegreeKCirculant, EveryStrategyIsValidForSixtyFourGpus) {
  expect_valid_family(DegreeKBase::circulant, 64, 2, false);  // the base search twice is too slow for Debug
}

TEST(DegreeKCirculant, EveryStrategyIsValidForThreePorts) {
  for (int n : {8, 12, 16, 32}) expect_valid_family(DegreeKBase::circulant, n, 3);
}

TEST(DegreeKGenKautz, EveryStrategyIsValidForTwoPorts) {
  for (int n : {8, 12, 16, 32}) expect_valid_family(DegreeKBase::genkautz, n, 2);
}

TEST(DegreeKGenKautz, EveryStrategyIsValidForThreePorts) {
  for (int n : {8, 12, 16, 32}) expect_valid_family(DegreeKBase::genkautz, n, 3);
}

TEST(DegreeKGenKautz, BaseForSixtyFourGpusIsValid) {
  // The whole sequence at n = 64 is too slow for a Debug unit test; the base is what rdc uses most.
  for (int k : {2, 3}) {
    const std::vector<AlltoallStrategy> alone = degree_k_strategies(64, k, DegreeKBase::genkautz, kSeed, 1);
    ASSERT_EQ(alone.size(), 1U);
    degree_k_sequence_expect_valid(alone.front(), 64, k, 1, label(DegreeKBase::genkautz, 64, k));
  }
}

TEST(DegreeKCirculant, EightGpusMatchFigure8) {
  // Fig. 8c: rounds of 1 + 2 + 2 + 3 hops on a 2-generator circulant; that is
  // also transmission_lower_bound(8, 2, 1), so nothing does better.
  const std::vector<AlltoallStrategy> base = degree_k_strategies(8, 2, DegreeKBase::circulant, kSeed, 1);
  ASSERT_EQ(base.size(), 1U);
  EXPECT_LE(base.front().hop_sum(), 8);
  EXPECT_EQ(base.front().rounds.size(), 4U);
}

TEST(DegreeKSequence, DeterministicForASeed) {
  for (DegreeKBase base : {DegreeKBase::circulant, DegreeKBase::genkautz}) {
    for (int k : {2, 3}) {
      const auto first = degree_k_strategies(16, k, base, 11, std::nullopt);
      const auto second = degree_k_strategies(16, k, base, 11, std::nullopt);
      ASSERT_EQ(first.size(), second.size()) << label(base, 16, k);
      for (size_t i = 0; i < first.size(); ++i) EXPECT_TRUE(same_strategy(first[i], second[i])) << label(base, 16, k);
    }
  }
}

TEST(DegreeKSequence, OnlyReturnsThatConfigurationCount) {
  for (DegreeKBase base : {DegreeKBase::circulant, DegreeKBase::genkautz}) {
    const auto family = degree_k_strategies(12, 2, base, kSeed, std::nullopt);
    ASSERT_GE(family.size(), 3U) << name_of(base);
    const auto third = degree_k_strategies(12, 2, base, kSeed, 3);
    ASSERT_EQ(third.size(), 1U) << name_of(base);
    EXPECT_TRUE(same_strategy(third.front(), family[2])) << name_of(base);
    const int beyond = static_cast<int>(family.size()) + 1;
    if (beyond <= 11) {
      EXPECT_TRUE(degree_k_strategies(12, 2, base, kSeed, beyond).empty()) << name_of(base);
    }
    EXPECT_TRUE(degree_k_strategies(12, 2, base, kSeed, 12).empty()) << name_of(base);  // d <= n - 1
    EXPECT_TRUE(degree_k_strategies(12, 2, base, kSeed, 0).empty()) << name_of(base);
  }
}

TEST(DegreeKGenKautz, SkippedWhenKautzIsNotStronglyConnected) {
  // With one port the Imase-Itoh graph x -> -x - 1 is a set of 2-cycles.
  EXPECT_TRUE(degree_k_strategies(8, 1, DegreeKBase::genkautz, kSeed, std::nullopt).empty());
  EXPECT_FALSE(degree_k_strategies(8, 1, DegreeKBase::circulant, kSeed, std::nullopt).empty());
}

TEST(DegreeKSequence, SchedulesDeliverEveryBlock) {
  for (DegreeKBase base : {DegreeKBase::circulant, DegreeKBase::genkautz}) {
    for (int k : {2, 3}) {
      for (int n : {8, 12}) {
        struct {
          FabricSpec fabric;
          WorkloadSpec workload;
        } input;
        input.fabric = testing_support::test_fabric(n, k);
        input.workload = testing_support::test_workload(Collective::alltoall, 1);  // the strategies' Bytes(1) per flow
        const std::vector<Bytes> demand = alltoall_flow_sizes(input.workload, n, 1);
        const std::vector<Bytes> equal_blocks;
        const auto family = degree_k_strategies(n, k, base, kSeed, std::nullopt);
        for (size_t i : {size_t{0}, family.size() / 2, family.size() - 1}) {
          const std::string what = label(base, n, k) + " d=" + std::to_string(i + 1);
          const Schedule schedule = strategy_schedule(
              family[i], StrategyScheduleInput{input.fabric, input.workload, demand, equal_blocks, "rdc"});
          EXPECT_EQ(schedule.steps().size(), family[i].rounds.size()) << what;
          const Verification v = verify_schedule(schedule);
          EXPECT_TRUE(v.ok()) << what << ": " << (v.ok() ? "" : v.violation->describe());
        }
      }
    }
  }
}

}  // namespace
}  // namespace photonsim
