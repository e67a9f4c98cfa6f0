// Bucket: ring reduce-scatter along each torus dimension, all-gather mirrored.
#include "schedules/algorithms/bucket.h"

#include <gtest/gtest.h>

#include "tests/schedules/pattern_of.h"
#include "tests/schedules/reduction_checks.h"

namespace photonsim {
namespace {

using namespace reduction_checks;

// Default shapes: n = a x b with a the largest divisor <= sqrt(n) (1 x n for a prime).
TEST(Bucket, AllReduceVerifiedForEveryNUpTo130) {
  EXPECT_EQ(failures(Bucket(), "bucket", every_n(2, 130), Collective::allreduce), "");
}
TEST(Bucket, ReduceScatterVerifiedForEveryNUpTo130) {
  EXPECT_EQ(failures(Bucket(), "bucket", every_n(2, 130), Collective::reducescatter), "");
}
TEST(Bucket, AllGatherVerifiedForEveryNUpTo130) {
  EXPECT_EQ(failures(Bucket(), "bucket", every_n(2, 130), Collective::allgather), "");
}

TEST(Bucket, VerifiedForExplicit2DAnd3DShapes) {
  const std::pair<int, const char*> shapes[] = {{16, "4x4"},   {12, "3x4"},   {12, "4x3"},  {24, "2x3x4"},
                                                {64, "4x4x4"}, {30, "5x3x2"}, {8, "2x2x2"}, {7, "1x7"}};
  for (const auto& [n, dims] : shapes) {
    for (Collective c : reduction_collectives()) {
      EXPECT_EQ(failures(Bucket(), "bucket", {n}, c, {{"dims", dims}}), "") << dims;
    }
  }
  EXPECT_EQ(failures(Bucket(), "bucket", {256}, Collective::reducescatter, {{"dims", "4x8x8"}}), "");
  EXPECT_EQ(failures(Bucket(), "bucket", {1024}, Collective::allgather, {{"dims", "8x8x16"}}), "");
  const auto registry = SynthesizerRegistry::with_builtins();
  EXPECT_EQ(verdict(synthesize(registry, "bucket", 24, Collective::allreduce, {{"dims", "2x3x4"}})), "ok");
}

TEST(Bucket, DefaultShapeIsTheBalancedFactorisation) {
  auto shape = [](int n) {
    const ComponentParams params("bucket", {}, {"dims"}, "algorithm");
    const FabricSpec f = fabric(n);
    const WorkloadSpec w = workload(Collective::allreduce);
    return Bucket::dimensions(AlgorithmInput{f, w, params});
  };
  EXPECT_EQ(shape(16), (std::vector<int>{4, 4}));
  EXPECT_EQ(shape(12), (std::vector<int>{3, 4}));
  EXPECT_EQ(shape(128), (std::vector<int>{8, 16}));
  EXPECT_EQ(shape(13), (std::vector<int>{1, 13}));
}

// Steps: sum (d_k - 1) per half; phase k moves m / (d_0 ... d_k) per node.
TEST(Bucket, StepsAndVolumes) {
  const int64_t m = 2 * 3 * 4 * 1000;
  const StepPattern p = pattern_of(Bucket(), fabric(24), workload(Collective::allreduce, m), {{"dims", "2x3x4"}});
  ASSERT_EQ(p.steps.size(), size_t{2 * (1 + 2 + 3)});
  const int64_t expected[] = {m / 2,  m / 6,  m / 6,  m / 24, m / 24, m / 24,  // reduce-scatter
                              m / 24, m / 24, m / 24, m / 6,  m / 6,  m / 2};  // all-gather
  for (size_t s = 0; s < p.steps.size(); ++s) {
    ASSERT_EQ(p.steps[s].size(), size_t{24});
    for (const Transfer& t : p.steps[s]) {
      EXPECT_EQ(t.bytes.count(), expected[s]) << "step " << s;
      EXPECT_EQ(t.op, s < 6 ? TransferOp::reduce : TransferOp::copy);
    }
  }
}

// Every transfer is one hop on the torus generator's topology of the same shape.
TEST(Bucket, EveryTransferIsOneTorusHop) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const std::pair<int, const char*> shapes[] = {{16, "4x4"}, {24, "2x3x4"}, {12, "3x4"}, {18, "3x3x2"}};
  for (const auto& [n, dims] : shapes) {
    SynthesisSpec s = synthesis("bucket", {{"dims", dims}}, "static", "torus");
    s.topology.params = {{"dims", dims}};
    const Schedule schedule = registry.synthesize(fabric(n, 6), workload(Collective::allreduce), s);
    ASSERT_EQ(verdict(schedule), "ok");
    ASSERT_EQ(schedule.reconfigurations(), 0);
    const Topology& torus = schedule.topologies().at(static_cast<size_t>(schedule.steps()[0].topology));
    for (const Step& step : schedule.steps()) {
      for (const Transfer& t : step.transfers) {
        EXPECT_GE(torus.multiplicity(t.src, t.dst), 1) << dims << ": " << t.src << "->" << t.dst;
      }
    }
  }
}

TEST(Bucket, DimsMustMultiplyToN) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const std::string msg = error_of([&] {
    synthesize(registry, "bucket", 12, Collective::allreduce, {{"dims", "4x4"}});
  });
  EXPECT_NE(msg.find("algorithm 'bucket' parameter 'dims'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("product of the torus dims"), std::string::npos) << msg;
  const std::string one_d = error_of([&] {
    synthesize(registry, "bucket", 12, Collective::allreduce, {{"dims", "12"}});
  });
  EXPECT_NE(one_d.find("2 or 3 dimensions"), std::string::npos) << one_d;
}

TEST(Bucket, VerifierCatchesASwappedDestination) {
  const auto registry = SynthesizerRegistry::with_builtins();
  const Schedule good = synthesize(registry, "bucket", 16, Collective::reducescatter);
  ASSERT_EQ(verdict(good), "ok");
  // In the last step every node hands a block to its final owner: 0 -> 1 carries
  // block 1 and 4 -> 5 block 5; crossing them leaves node 1 without block 1.
  // (Swapping early destinations between rings can still be a valid schedule:
  // later phases merge the rings anyway.)
  const Schedule swapped = edited(
      good, [](ScheduleParts& p) { std::swap(p.steps.back().transfers[0].dst, p.steps.back().transfers[4].dst); });
  EXPECT_NE(verdict(swapped).find("node 1 ends with block 1"), std::string::npos) << verdict(swapped);
}

}  // namespace
}  // namespace photonsim
