// RoundPacker keeping its flows' paths implicit packs exactly as it does
// with explicit paths, and hands the rounds out moved or copied alike.
#include "schedules/alltoall/round_packer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "topology/all_shortest_paths.h"

namespace photonsim {
namespace {

// A Hamiltonian cycle in a shuffled order: one circuit out of every GPU.
Topology shuffled_cycle(int n, Rng& rng) {
  std::vector<Node> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = static_cast<Node>(i);
  for (int i = n - 1; i > 0; --i) std::swap(order[static_cast<size_t>(i)], order[rng.uniform(i + 1)]);
  std::vector<Edge> edges;
  for (int i = 0; i < n; ++i) edges.push_back({order[static_cast<size_t>(i)], order[static_cast<size_t>((i + 1) % n)]});
  std::sort(edges.begin(), edges.end());
  return Topology("cycle", n, edges);
}

std::string round_packer_describe(const std::vector<StrategyRound>& rounds) {
  std::string out;
  for (const StrategyRound& r : rounds) {
    out += "|" + std::to_string(r.topology) + ":" + std::to_string(r.hops());
    for (const StrategyFlow& f : r.flows) {
      out += " " + std::to_string(f.src) + ">" + std::to_string(f.dst) + "/" + std::to_string(f.bytes.count()) + "/" +
             std::to_string(f.hops());
    }
  }
  return out;
}

TEST(RoundPacker, ImplicitWalksPackAsExplicitPaths) {
  Rng rng(3);
  for (int n : {2, 5, 12}) {
    const Topology cycle = shuffled_cycle(n, rng);
    const AllShortestPaths shortest(cycle);
    RoundPacker explicit_packer(cycle);
    RoundPacker implicit_packer(cycle, RoundPacker::FlowPaths::implicit_walks);
    for (Node s = 0; s < static_cast<Node>(n); ++s) {
      for (Node t = 0; t < static_cast<Node>(n); ++t) {
        if (s == t) continue;
        const Bytes bytes(1 + static_cast<int64_t>(rng.uniform(100)));
        const std::vector<std::vector<Node>> paths = shortest.paths(s, t, 16).paths;
        EXPECT_EQ(explicit_packer.place(bytes, paths), implicit_packer.place(bytes, paths));
      }
    }
    explicit_packer.merge_rounds();
    implicit_packer.merge_rounds();
    EXPECT_EQ(explicit_packer.hop_sum(), implicit_packer.hop_sum());
    const std::vector<StrategyRound> explicit_rounds = explicit_packer.rounds(0);
    const std::vector<StrategyRound> implicit_rounds = implicit_packer.rounds(0);
    EXPECT_EQ(round_packer_describe(explicit_rounds), round_packer_describe(implicit_rounds)) << "n=" << n;
    for (const StrategyRound& r : implicit_rounds) {
      EXPECT_TRUE(contention_free(r, cycle));
      for (const StrategyFlow& f : r.flows) EXPECT_TRUE(f.routes.empty());
    }
    for (const StrategyRound& r : explicit_rounds) {
      for (const StrategyFlow& f : r.flows) EXPECT_EQ(f.routes.size(), 1U);
    }
  }
}

TEST(RoundPacker, MovedRoundsAreTheCopiedOnes) {
  Rng rng(5);
  const Topology cycle = shuffled_cycle(9, rng);
  const AllShortestPaths shortest(cycle);
  RoundPacker packer(cycle);
  for (Node s = 0; s < 9; ++s) {
    for (Node t = 0; t < 9; ++t) {
      if (s != t) packer.place(Bytes(10 + s), shortest.paths(s, t, 16).paths);
    }
  }
  packer.merge_rounds();
  const std::vector<StrategyRound> copied = packer.rounds(1);
  const std::vector<StrategyRound> moved = std::move(packer).rounds(1);
  EXPECT_EQ(round_packer_describe(copied), round_packer_describe(moved));
  ASSERT_EQ(copied.size(), moved.size());
  for (size_t r = 0; r < copied.size(); ++r) {
    for (size_t f = 0; f < copied[r].flows.size(); ++f) {
      EXPECT_EQ(copied[r].flows[f].routes.front().path, moved[r].flows[f].routes.front().path);
    }
  }
}

TEST(RoundPacker, ImplicitWalksNeedOneCircuitOutOfEveryGpu) {
  const Topology two_out("two out", 3, {{0, 1}, {0, 2}, {1, 2}, {2, 0}});
  EXPECT_THROW(RoundPacker(two_out, RoundPacker::FlowPaths::implicit_walks), Error);
  EXPECT_NO_THROW(RoundPacker(two_out, RoundPacker::FlowPaths::explicit_routes));
}

}  // namespace
}  // namespace photonsim
