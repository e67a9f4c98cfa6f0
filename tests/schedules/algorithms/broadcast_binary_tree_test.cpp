// BroadcastBinaryTree: pipelined heap-shaped binary-tree broadcast.
#include "schedules/algorithms/broadcast_binary_tree.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "core/error.h"
#include "schedules/model/block_sizes.h"
#include "tests/schedules/pattern_of.h"
#include "tests/schedules/verification_harness.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

FabricSpec broadcast_binary_tree_fabric(int gpus, int ports = 2) {
  FabricSpec f = testing_support::test_fabric(gpus, ports);
  return f;
}

// A broadcast of `message` bytes from `root`, pipelined in segments of `chunk` bytes.
WorkloadSpec broadcast_binary_tree_workload(int64_t message, int64_t chunk, int root = 0) {
  return testing_support::with_chunk(testing_support::test_workload(Collective::broadcast, message, root), chunk);
}

int broadcast_binary_tree_floor_log2(int n) {
  int k = 0;
  while ((2 << k) <= n) ++k;
  return k;
}

VerificationCase tree(int n, int64_t message, int64_t chunk, int root) {
  return {"binary_tree", n, Collective::broadcast, Bytes(message), Bytes(chunk), root};
}

TEST(BroadcastBinaryTree, VerifierProvesEveryNUpTo130) {
  for (int n = 2; n <= 130; ++n) {
    for (int64_t chunk : {0, 300, 97}) {  // 1, 4 and 11 segments of 1000 bytes
      const Verification v = verify_schedule(synthesize_for_verification(tree(n, 1000, chunk, n / 3)));
      ASSERT_TRUE(v.ok()) << "n = " << n << ", chunk " << chunk << ": " << v.violation->describe();
    }
  }
}

TEST(BroadcastBinaryTree, VerifierProvesLargeSizes) {
  for (int n : {255, 256, 1024}) {
    const Verification v = verify_schedule(synthesize_for_verification(tree(n, 1 << 20, 1 << 17, n - 1)));
    ASSERT_TRUE(v.ok()) << "n = " << n << ": " << v.violation->describe();
  }
}

TEST(BroadcastBinaryTree, DepthPlusSegmentsMinusOneSteps) {
  for (int n : {2, 3, 4, 7, 8, 13, 64, 100}) {
    for (int64_t chunk : {0, 1000, 5000, 250, 300, 1}) {
      const StepPattern p = pattern_of(BroadcastBinaryTree(), broadcast_binary_tree_fabric(n),
                                       broadcast_binary_tree_workload(1000, chunk, 1));
      const int64_t segments = chunk == 0 || chunk >= 1000 ? 1 : (1000 + chunk - 1) / chunk;
      EXPECT_EQ(p.blocks, static_cast<uint32_t>(segments));
      EXPECT_EQ(p.steps.size(), static_cast<size_t>(broadcast_binary_tree_floor_log2(n) + segments - 1))
          << "n = " << n << ", chunk " << chunk;
    }
  }
}

TEST(BroadcastBinaryTree, SegmentsAreChunkSizedAndCoverTheMessage) {
  const StepPattern p =
      pattern_of(BroadcastBinaryTree(), broadcast_binary_tree_fabric(5), broadcast_binary_tree_workload(1000, 300, 0));
  ASSERT_EQ(p.blocks, 4U);
  std::map<uint32_t, int64_t> size;
  for (const auto& step : p.steps) {
    for (const Transfer& t : step) {
      ASSERT_EQ(t.blocks.size(), size_t{1});
      EXPECT_EQ(t.bytes, block_bytes(Bytes(1000), 4, t.blocks[0]));
      EXPECT_LE(t.bytes, Bytes(300));
      size[t.blocks[0]] = t.bytes.count();
    }
  }
  EXPECT_EQ(size, (std::map<uint32_t, int64_t>{{0, 250}, {1, 250}, {2, 250}, {3, 250}}));
}

TEST(BroadcastBinaryTree, HeapTreeFromTheRootPipelinedOneSegmentPerStep) {
  // n = 7 from root 3: relative ranks v = (node - 3) mod 7, children 2v+1, 2v+2.
  // Segment j leaves depth d at step d + j; every node receives it exactly once.
  const int n = 7, root = 3;
  const StepPattern p = pattern_of(BroadcastBinaryTree(), broadcast_binary_tree_fabric(n),
                                   broadcast_binary_tree_workload(3000, 1000, root));
  ASSERT_EQ(p.steps.size(), size_t{2 + 3 - 1});
  std::map<std::pair<Node, uint32_t>, int> received;
  for (size_t t = 0; t < p.steps.size(); ++t) {
    for (const Transfer& x : p.steps[t]) {
      const int v = static_cast<int>((x.src + n - root) % n);
      const int child = static_cast<int>((x.dst + n - root) % n);
      EXPECT_TRUE(child == 2 * v + 1 || child == 2 * v + 2) << x.src << "->" << x.dst;
      const int depth = v == 0 ? 0 : 1;
      EXPECT_EQ(static_cast<int>(t), depth + static_cast<int>(x.blocks[0])) << x.src << "->" << x.dst;
      ++received[{x.dst, x.blocks[0]}];
    }
  }
  EXPECT_EQ(received.size(), static_cast<size_t>((n - 1) * 3));
  for (const auto& [key, count] : received) EXPECT_EQ(count, 1);
}

TEST(BroadcastBinaryTree, OnePortSplitsEachStepIntoLeftThenRightChildren) {
  FabricSpec f = broadcast_binary_tree_fabric(7, 1);
  WorkloadSpec w = broadcast_binary_tree_workload(1000, 0, 0);
  SynthesisSpec s;
  s.algorithm = "binary_tree";
  s.topology.type = "none";
  const Schedule schedule = SynthesizerRegistry::with_builtins().synthesize(f, w, s);
  EXPECT_EQ(schedule.planner(), "every_step");  // the default
  // Two levels of inner nodes, each step split in two.
  ASSERT_EQ(schedule.steps().size(), size_t{4});
  EXPECT_TRUE(verify_schedule(schedule).ok());
}

TEST(BroadcastBinaryTree, FewerThanTwoGpusIsAnError) {
  try {
    pattern_of(BroadcastBinaryTree(), broadcast_binary_tree_fabric(1), broadcast_binary_tree_workload(1000, 0));
    FAIL() << "n = 1 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("n >= 2"), std::string::npos) << e.what();
  }
}

TEST(BroadcastBinaryTree, VerifierCatchesCorruptions) {
  const Schedule good = synthesize_for_verification(tree(10, 1000, 250, 4));
  ASSERT_TRUE(verify_schedule(good).ok());
  {
    ScheduleParts parts = parts_of(good);
    parts.steps[2].transfers.pop_back();  // drop a transfer
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
  }
  {
    ScheduleParts parts = parts_of(good);
    Transfer& t = parts.steps[0].transfers[0];
    t.dst = t.src == 0 ? 1 : 0;  // the root sends to a node that is not its child
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
  }
  {
    ScheduleParts parts = parts_of(good);
    std::swap(parts.steps[0], parts.steps[1]);  // forwarding before receiving
    const Verification v = verify_schedule(Schedule(std::move(parts)));
    ASSERT_FALSE(v.ok());
    EXPECT_NE(v.violation->what.find("does not hold"), std::string::npos) << v.violation->describe();
  }
}

}  // namespace
}  // namespace photonsim
