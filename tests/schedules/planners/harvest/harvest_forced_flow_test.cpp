// Harvest's theta without LP against the general code it replaces:
// HarvestCycles' hops against BFS, harvest_forced_flow against
// max_concurrent_flow bit for bit.
#include "schedules/cost/harvest/harvest_forced_flow.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "core/rng.h"
#include "schedules/cost/harvest/harvest_cycles.h"
#include "topology/flow/max_concurrent_flow.h"
#include "topology/topology_properties.h"

namespace photonsim {
namespace {

// One circuit out of every GPU: u -> successor[u].
Topology one_out(const std::vector<Node>& successor) {
  std::vector<Edge> edges;
  for (Node u = 0; u < successor.size(); ++u) edges.push_back({u, successor[u]});
  return Topology("one-out", static_cast<int>(successor.size()), edges);
}

std::vector<Node> random_permutation_without_fixed_points(int n, Rng& rng) {
  for (;;) {
    std::vector<Node> p(static_cast<size_t>(n));
    std::iota(p.begin(), p.end(), 0);
    for (size_t i = p.size(); i > 1; --i) std::swap(p[i - 1], p[rng.uniform(i)]);
    bool fixed = false;
    for (Node u = 0; u < p.size(); ++u) fixed = fixed || p[u] == u;
    if (!fixed) return p;
  }
}

// Any successor but u itself: in-degrees vary (trees into cycles).
std::vector<Node> random_function(int n, Rng& rng) {
  std::vector<Node> f(static_cast<size_t>(n));
  for (Node u = 0; u < f.size(); ++u) {
    f[u] = static_cast<Node>((u + 1 + rng.uniform(static_cast<uint64_t>(n - 1))) % static_cast<uint64_t>(n));
  }
  return f;
}

// Each src sends to one or two GPUs on its walk (now and then anywhere, to
// meet unroutable pairs); bytes all equal or random.
std::vector<Transfer> random_step(const std::vector<Node>& successor, bool equal_bytes, Rng& rng) {
  const auto n = static_cast<uint64_t>(successor.size());
  std::vector<Transfer> step;
  for (Node s = 0; s < successor.size(); ++s) {
    const int count = 1 + static_cast<int>(rng.uniform(2));
    for (int k = 0; k < count; ++k) {
      Transfer t;
      t.src = s;
      if (rng.uniform(20) == 0) {
        t.dst = static_cast<Node>((s + 1 + rng.uniform(n - 1)) % n);
      } else {
        t.dst = s;
        const uint64_t hops = 1 + rng.uniform(n);
        for (uint64_t h = 0; h < hops; ++h) t.dst = successor[t.dst];
      }
      if (t.dst == s) continue;
      t.bytes = Bytes(equal_bytes ? 4096 : 1000 + static_cast<int64_t>(rng.uniform(3000)));
      step.push_back(t);
    }
  }
  return step;
}

// What HarvestFlowCache made of max_concurrent_flow before the fast path.
HarvestFlowCache::Flow flow_by_lp(const Topology& g, const HarvestStepDemand& demand) {
  const ConcurrentFlow solved = max_concurrent_flow(g, demand.matrix());
  HarvestFlowCache::Flow flow;
  flow.inverse_theta = 1.0 / solved.theta;
  for (const HarvestStepDemand::Entry& e : demand.entries()) {
    const std::vector<FlowPath>& all = solved.paths[e.src][e.dst];
    double total = 0.0;
    for (const FlowPath& p : all) total += p.amount;
    HarvestFlowCache::PairPaths pair{e.src, e.dst, {}};
    for (const FlowPath& p : all) {
      if (p.amount <= 1e-9 * total) continue;
      flow.longest_hops = std::max(flow.longest_hops, static_cast<int>(p.links.size()));
      pair.paths.push_back(p);
    }
    flow.pairs.push_back(std::move(pair));
  }
  return flow;
}

void expect_same_flow(const HarvestFlowCache::Flow& want, const HarvestFlowCache::Flow& got, const std::string& where) {
  EXPECT_EQ(want.inverse_theta, got.inverse_theta) << where;  // bit for bit
  EXPECT_EQ(want.longest_hops, got.longest_hops) << where;
  ASSERT_EQ(want.pairs.size(), got.pairs.size()) << where;
  for (size_t k = 0; k < want.pairs.size(); ++k) {
    const HarvestFlowCache::PairPaths &a = want.pairs[k], &b = got.pairs[k];
    EXPECT_EQ(a.src, b.src) << where;
    EXPECT_EQ(a.dst, b.dst) << where;
    ASSERT_EQ(a.paths.size(), b.paths.size()) << where;
    for (size_t j = 0; j < a.paths.size(); ++j) {
      EXPECT_EQ(a.paths[j].nodes, b.paths[j].nodes) << where;
      EXPECT_EQ(a.paths[j].links, b.paths[j].links) << where;
      EXPECT_EQ(a.paths[j].amount, b.paths[j].amount) << where;
    }
  }
}

TEST(HarvestCycles, HopsEqualBreadthFirstSearchOnPermutations) {
  Rng rng(7);
  for (int n : {2, 3, 8, 17, 64}) {
    for (int trial = 0; trial < 5; ++trial) {
      const Topology g = one_out(random_permutation_without_fixed_points(n, rng));
      const std::optional<HarvestCycles> cycles = HarvestCycles::of(g);
      ASSERT_TRUE(cycles.has_value());
      const std::vector<std::vector<int>> dist = hop_distances(g);
      for (Node s = 0; s < static_cast<Node>(n); ++s) {
        for (Node t = 0; t < static_cast<Node>(n); ++t) EXPECT_EQ(cycles->hops(s, t), dist[s][t]) << n;
      }
    }
  }
}

TEST(HarvestCycles, RefusesTopologiesThatAreNotPermutations) {
  EXPECT_FALSE(HarvestCycles::of(one_out({1, 2, 1})).has_value());  // GPU 1 has two circuits in
  const Topology two_out("two-out", 3, {{0, 1}, {0, 2}, {1, 2}, {2, 0}});
  EXPECT_FALSE(HarvestCycles::of(two_out).has_value());
}

TEST(HarvestForcedFlow, EqualsMaxConcurrentFlowBitForBit) {
  Rng rng(20250101);
  int compared = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + static_cast<int>(rng.uniform(30));
    const bool permutation = rng.uniform(2) == 0;
    const std::vector<Node> successor =
        permutation ? random_permutation_without_fixed_points(n, rng) : random_function(n, rng);
    const Topology g = one_out(successor);
    const std::optional<HarvestCycles> cycles = HarvestCycles::of(g);
    const HarvestStepDemand demand(n, random_step(successor, rng.uniform(2) == 0, rng));
    if (demand.moves_no_bytes()) continue;
    const std::string where = "trial " + std::to_string(trial) + " n=" + std::to_string(n);
    const std::optional<HarvestFlowCache::Flow> fast =
        harvest_forced_flow(g, cycles ? &*cycles : nullptr, demand, true);
    if (!fast) {  // some pair has no route: max_concurrent_flow names it
      EXPECT_ANY_THROW(max_concurrent_flow(g, demand.matrix())) << where;
      continue;
    }
    expect_same_flow(flow_by_lp(g, demand), *fast, where);
    const std::optional<HarvestFlowCache::Flow> bare =
        harvest_forced_flow(g, cycles ? &*cycles : nullptr, demand, false);
    ASSERT_TRUE(bare.has_value());
    EXPECT_EQ(bare->inverse_theta, fast->inverse_theta) << where;
    EXPECT_EQ(bare->longest_hops, fast->longest_hops) << where;
    EXPECT_TRUE(bare->pairs.empty()) << where;
    ++compared;
  }
  EXPECT_GE(compared, 60);
}

TEST(HarvestForcedFlow, UnevenBlocksOnShiftedRingsEqualMaxConcurrentFlow) {
  // Swing/rhd blocks of m / n bytes when n does not divide m: units 3906 and
  // 3907 per pair, so many circuits tie on units and their double sums
  // decide theta (dense and sparse runs of the busiest circuits).
  for (int n : {16, 64, 96}) {
    for (int shift : {1, 3, 4, 7}) {
      for (int distance : {1, 5, n / 2, n - 3}) {
        std::vector<Node> successor;
        for (Node u = 0; u < static_cast<Node>(n); ++u) successor.push_back((u + static_cast<Node>(shift)) % n);
        const Topology g = one_out(successor);
        const std::optional<HarvestCycles> cycles = HarvestCycles::of(g);
        ASSERT_TRUE(cycles.has_value());
        std::vector<Transfer> step;
        for (Node u = 0; u < static_cast<Node>(n); ++u) {
          Transfer t;
          t.src = u;
          t.dst = (u + static_cast<Node>(distance)) % n;
          t.bytes = Bytes(u % 3 == 0 ? 3907 : 3906);
          step.push_back(t);
        }
        const HarvestStepDemand demand(n, step);
        const std::string where =
            "n=" + std::to_string(n) + " shift=" + std::to_string(shift) + " distance=" + std::to_string(distance);
        const std::optional<HarvestFlowCache::Flow> fast = harvest_forced_flow(g, &*cycles, demand, true);
        if (!fast) {
          EXPECT_ANY_THROW(max_concurrent_flow(g, demand.matrix())) << where;
          continue;
        }
        expect_same_flow(flow_by_lp(g, demand), *fast, where);
      }
    }
  }
}

TEST(HarvestForcedFlow, CacheCostsMatchItsFlows) {
  // A shifted ring (one cycle) and a union of two cycles, equal-byte shifts.
  HarvestFlowCache cache;
  for (int shift : {1, 2, 3}) {
    std::vector<Node> successor;
    for (Node u = 0; u < 12; ++u) successor.push_back((u + static_cast<Node>(shift)) % 12);
    const Topology g = one_out(successor);
    std::vector<Transfer> step;
    for (Node u = 0; u < 12; ++u) {
      Transfer t;
      t.src = u;
      t.dst = (u + 6) % 12;
      t.bytes = Bytes(1 << 20);
      step.push_back(t);
    }
    const HarvestStepDemand demand(12, step);
    const HarvestFlowCache::Cost cost = cache.cost(g, demand);
    const HarvestFlowCache::Flow flow = cache.flow(g, demand);
    EXPECT_EQ(cost.inverse_theta, flow.inverse_theta);
    EXPECT_EQ(cost.longest_hops, flow.longest_hops);
    expect_same_flow(flow_by_lp(g, demand), flow, "shift " + std::to_string(shift));
  }
  EXPECT_EQ(cache.lp_solves(), 3u);
}

}  // namespace
}  // namespace photonsim
