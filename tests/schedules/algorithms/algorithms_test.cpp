// Collective algorithms: AlltoallDirect, AllreduceRing, BroadcastBinomial.
#include <gtest/gtest.h>

#include "tests/schedules/pattern_of.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "schedules/algorithms/allreduce_ring.h"
#include "schedules/algorithms/alltoall_direct.h"
#include "schedules/algorithms/broadcast_binomial.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

using testing_support::test_workload;

FabricSpec algorithms_fabric(int gpus) {
  FabricSpec f = testing_support::test_fabric(gpus);
  return f;
}

int algorithms_ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

// ---- direct all-to-all -------------------------------------------------------

TEST(AlltoallDirect, StepsArePermutationsCoveringEveryPairOnce) {
  for (int n : {2, 3, 4, 7, 8, 16}) {
    const StepPattern p = pattern_of(AlltoallDirect(), algorithms_fabric(n), test_workload(Collective::alltoall, 1000));
    EXPECT_TRUE(p.independent_steps);
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(n - 1)) << "n=" << n;
    std::set<std::pair<Node, Node>> pairs;
    for (size_t r = 0; r < p.steps.size(); ++r) {
      const auto& step = p.steps[r];
      ASSERT_EQ(step.size(), static_cast<size_t>(n));
      std::set<Node> srcs, dsts;
      for (const Transfer& t : step) {
        srcs.insert(t.src);
        dsts.insert(t.dst);
        EXPECT_NE(t.src, t.dst);
        // Round r+1 sends i -> i + r + 1.
        EXPECT_EQ(t.dst, (t.src + static_cast<Node>(r) + 1) % static_cast<Node>(n));
        EXPECT_EQ(t.bytes, Bytes(1000));
        EXPECT_EQ(t.blocks, (std::vector<uint32_t>{t.src * static_cast<uint32_t>(n) + t.dst}));
        EXPECT_EQ(t.op, TransferOp::copy);
        EXPECT_TRUE(t.path.empty());
        EXPECT_TRUE(pairs.insert({t.src, t.dst}).second) << t.src << "->" << t.dst << " twice";
      }
      EXPECT_EQ(srcs.size(), static_cast<size_t>(n));
      EXPECT_EQ(dsts.size(), static_cast<size_t>(n));
    }
    EXPECT_EQ(pairs.size(), static_cast<size_t>(n * (n - 1)));
  }
}

// ---- ring allreduce / reducescatter / allgather ---------------------------------

TEST(AllreduceRing, StepCountAndShape) {
  const int n = 8;
  const StepPattern p =
      pattern_of(AllreduceRing(), algorithms_fabric(n), test_workload(Collective::allreduce, 4000000));
  EXPECT_FALSE(p.independent_steps);
  ASSERT_EQ(p.steps.size(), static_cast<size_t>(2 * (n - 1)));
  for (size_t s = 0; s < p.steps.size(); ++s) {
    ASSERT_EQ(p.steps[s].size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const Transfer& t = p.steps[s][static_cast<size_t>(i)];
      EXPECT_EQ(t.src, static_cast<Node>(i));
      EXPECT_EQ(t.dst, static_cast<Node>((i + 1) % n));
      EXPECT_EQ(t.op, s < static_cast<size_t>(n - 1) ? TransferOp::reduce : TransferOp::copy);
      EXPECT_EQ(t.bytes, Bytes(500000));
    }
  }
}

TEST(AllreduceRing, BlockIndexFormulas) {
  const int n = 6;
  const StepPattern p = pattern_of(AllreduceRing(), algorithms_fabric(n), test_workload(Collective::allreduce, 600));
  ASSERT_EQ(p.steps.size(), size_t{10});
  for (int s = 0; s < n - 1; ++s) {
    for (int i = 0; i < n; ++i) {
      // reduce-scatter: node i reduces block (i - s - 1) mod n into i+1.
      EXPECT_EQ(p.steps[static_cast<size_t>(s)][static_cast<size_t>(i)].blocks,
                (std::vector<uint32_t>{static_cast<uint32_t>(((i - s - 1) % n + n) % n)}));
      // all-gather: node i copies block (i - s) mod n.
      EXPECT_EQ(p.steps[static_cast<size_t>(n - 1 + s)][static_cast<size_t>(i)].blocks,
                (std::vector<uint32_t>{static_cast<uint32_t>(((i - s) % n + n) % n)}));
    }
  }
}

TEST(AllreduceRing, BlockSizesSumToMessageAndDifferByAtMostOne) {
  for (int n : {3, 5, 8}) {
    for (int64_t m : {int64_t{1}, int64_t{7}, int64_t{100}, int64_t{4000003}}) {
      const StepPattern p =
          pattern_of(AllreduceRing(), algorithms_fabric(n), test_workload(Collective::reducescatter, m));
      // Every block appears once per step; collect its size.
      std::vector<int64_t> size(static_cast<size_t>(n), -1);
      for (const auto& step : p.steps) {
        for (const Transfer& t : step) {
          const int64_t b = t.bytes.count();
          int64_t& seen = size[t.blocks.at(0)];
          if (seen >= 0) {
            EXPECT_EQ(seen, b) << "block size changed";
          }
          seen = b;
        }
      }
      int64_t sum = 0, lo = INT64_MAX, hi = 0;
      for (int64_t b : size) {
        ASSERT_GE(b, 0);
        sum += b;
        lo = std::min(lo, b);
        hi = std::max(hi, b);
      }
      EXPECT_EQ(sum, m) << "n=" << n;
      EXPECT_LE(hi - lo, 1);
    }
  }
}

// Simulates the data each node holds: contributions[node][block] = set of
// original owners whose data is folded into the node's copy of the block.
TEST(AllreduceRing, ReduceScatterThenAllGatherProducesFullResultEverywhere) {
  for (int n : {2, 3, 4, 5, 8, 13}) {
    const StepPattern p = pattern_of(AllreduceRing(), algorithms_fabric(n), test_workload(Collective::allreduce, 1000));
    std::vector<std::vector<std::set<int>>> have(static_cast<size_t>(n),
                                                 std::vector<std::set<int>>(static_cast<size_t>(n)));
    for (int v = 0; v < n; ++v) {
      for (int b = 0; b < n; ++b) have[static_cast<size_t>(v)][static_cast<size_t>(b)] = {v};
    }
    for (size_t s = 0; s < p.steps.size(); ++s) {
      auto next = have;  // transfers within a step read the state before the step
      for (const Transfer& t : p.steps[s]) {
        const uint32_t b = t.blocks.at(0);
        const auto& sent = have[t.src][b];
        auto& recv = next[t.dst][b];
        if (t.op == TransferOp::reduce) {
          for (int x : sent) {
            EXPECT_FALSE(recv.count(x)) << "step " << s << ": contribution " << x << " reduced twice into block " << b;
            recv.insert(x);
          }
        } else {
          EXPECT_EQ(sent.size(), static_cast<size_t>(n))
              << "step " << s << ": node " << t.src << " copies incomplete block " << b;
          recv = sent;
        }
      }
      have = std::move(next);
      if (s + 1 == static_cast<size_t>(n - 1)) {
        // After reduce-scatter node i holds the reduced block i (the owner convention).
        for (int i = 0; i < n; ++i) {
          EXPECT_EQ(have[static_cast<size_t>(i)][static_cast<size_t>(i)].size(), static_cast<size_t>(n))
              << "n=" << n << " node " << i;
        }
      }
    }
    for (int v = 0; v < n; ++v) {
      for (int b = 0; b < n; ++b) {
        EXPECT_EQ(have[static_cast<size_t>(v)][static_cast<size_t>(b)].size(), static_cast<size_t>(n))
            << "n=" << n << " node " << v << " block " << b;
      }
    }
  }
}

TEST(AllreduceRing, ReduceScatterIsTheFirstHalf) {
  const int n = 5;
  const StepPattern full =
      pattern_of(AllreduceRing(), algorithms_fabric(n), test_workload(Collective::allreduce, 1000));
  const StepPattern rs =
      pattern_of(AllreduceRing(), algorithms_fabric(n), test_workload(Collective::reducescatter, 1000));
  ASSERT_EQ(rs.steps.size(), static_cast<size_t>(n - 1));
  for (size_t s = 0; s < rs.steps.size(); ++s) {
    ASSERT_EQ(rs.steps[s].size(), full.steps[s].size());
    for (size_t i = 0; i < rs.steps[s].size(); ++i) {
      EXPECT_EQ(rs.steps[s][i].op, TransferOp::reduce);
      EXPECT_EQ(rs.steps[s][i].blocks, full.steps[s][i].blocks);
      EXPECT_EQ(rs.steps[s][i].src, full.steps[s][i].src);
      EXPECT_EQ(rs.steps[s][i].dst, full.steps[s][i].dst);
    }
  }
}

TEST(AllreduceRing, AllGatherAloneStartsFromOwnBlock) {
  const int n = 5;
  const StepPattern ag = pattern_of(AllreduceRing(), algorithms_fabric(n), test_workload(Collective::allgather, 1000));
  ASSERT_EQ(ag.steps.size(), static_cast<size_t>(n - 1));
  // Node i owns block i; possession simulation: nobody sends what it lacks,
  // and at the end everyone has every block.
  std::vector<std::set<uint32_t>> have(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) have[static_cast<size_t>(i)] = {static_cast<uint32_t>(i)};
  for (size_t s = 0; s < ag.steps.size(); ++s) {
    auto next = have;
    for (const Transfer& t : ag.steps[s]) {
      EXPECT_EQ(t.op, TransferOp::copy);
      const uint32_t b = t.blocks.at(0);
      EXPECT_EQ(b, static_cast<uint32_t>((static_cast<int>(t.src) - static_cast<int>(s) + n) % n));
      EXPECT_TRUE(have[t.src].count(b)) << "step " << s << " node " << t.src << " lacks block " << b;
      EXPECT_FALSE(have[t.dst].count(b)) << "step " << s << " resends block " << b << " to " << t.dst;
      next[t.dst].insert(b);
    }
    have = std::move(next);
  }
  for (int i = 0; i < n; ++i) EXPECT_EQ(have[static_cast<size_t>(i)].size(), static_cast<size_t>(n));
}

// ---- binomial broadcast --------------------------------------------------------

TEST(BroadcastBinomial, EveryNonRootReceivesOnceFromAHolder) {
  for (int n = 2; n <= 17; ++n) {
    for (int root : {0, 1, n / 2, n - 1}) {
      const StepPattern p =
          pattern_of(BroadcastBinomial(), algorithms_fabric(n), test_workload(Collective::broadcast, 4096, root));
      ASSERT_EQ(p.steps.size(), static_cast<size_t>(algorithms_ceil_log2(n))) << "n=" << n;
      std::vector<bool> has(static_cast<size_t>(n), false);
      std::vector<int> received(static_cast<size_t>(n), 0);
      has[static_cast<size_t>(root)] = true;
      for (size_t s = 0; s < p.steps.size(); ++s) {
        auto next = has;
        EXPECT_FALSE(p.steps[s].empty());
        std::set<Node> senders;
        for (const Transfer& t : p.steps[s]) {
          ASSERT_LT(t.src, static_cast<Node>(n));
          ASSERT_LT(t.dst, static_cast<Node>(n));
          EXPECT_TRUE(has[t.src]) << "n=" << n << " root=" << root << " step " << s << ": " << t.src
                                  << " sends before receiving";
          EXPECT_TRUE(senders.insert(t.src).second) << "node sends twice in one step";
          EXPECT_EQ(t.bytes, Bytes(4096));
          EXPECT_EQ(t.blocks, (std::vector<uint32_t>{0}));
          ++received[t.dst];
          next[t.dst] = true;
        }
        has = std::move(next);
      }
      for (int v = 0; v < n; ++v) {
        EXPECT_EQ(received[static_cast<size_t>(v)], v == root ? 0 : 1)
            << "n=" << n << " root=" << root << " node " << v;
      }
    }
  }
}

TEST(BroadcastBinomial, StepKDoublesTheHolders) {
  const StepPattern p =
      pattern_of(BroadcastBinomial(), algorithms_fabric(8), test_workload(Collective::broadcast, 10, 3));
  ASSERT_EQ(p.steps.size(), size_t{3});
  EXPECT_EQ(p.steps[0].size(), size_t{1});
  EXPECT_EQ(p.steps[1].size(), size_t{2});
  EXPECT_EQ(p.steps[2].size(), size_t{4});
  // Relative rank i sends to i + 2^k.
  EXPECT_EQ(p.steps[0][0].src, Node{3});
  EXPECT_EQ(p.steps[0][0].dst, Node{4});
  EXPECT_EQ(p.steps[2][3].src, Node{6});
  EXPECT_EQ(p.steps[2][3].dst, Node{2});
}

}  // namespace
}  // namespace photonsim
