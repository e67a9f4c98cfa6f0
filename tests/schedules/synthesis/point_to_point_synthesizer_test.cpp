// A task graph's p2p node comes from the registry's point-to-point
// synthesizer: one transfer on one circuit, predicted by hand here.
#include "schedules/synthesis/point_to_point_synthesizer.h"

#include <gtest/gtest.h>

#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

TEST(PointToPointSynthesizer, OneTransferOnOneCircuitPredictedAsOneHop) {
  FabricSpec fabric = testing_support::test_fabric(16);  // 800 Gbps, 500 ns
  fabric.step_overhead = Time::us(1);
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize_point_to_point(fabric, Bytes(4000));
  EXPECT_EQ(s.gpus(), 2);
  EXPECT_EQ(s.algorithm(), "p2p");
  ASSERT_EQ(s.steps().size(), 1u);
  ASSERT_EQ(s.steps()[0].transfers.size(), 1u);
  EXPECT_EQ(s.steps()[0].transfers[0].src, 0);
  EXPECT_EQ(s.steps()[0].transfers[0].dst, 1);
  EXPECT_EQ(s.steps()[0].transfers[0].bytes, Bytes(4000));
  // 1 us overhead + 500 ns latency + 4000 B x 10 ps; no reconfiguration.
  ASSERT_EQ(s.prediction().steps.size(), 1u);
  EXPECT_EQ(s.prediction().steps[0].reconfiguration, Time::zero());
  EXPECT_EQ(s.prediction().total(), Time::ns(1540));
}

TEST(PointToPointSynthesizer, ItsOneCandidateIsItsSchedule) {
  const FabricSpec fabric = testing_support::test_fabric(2);
  WorkloadSpec workload;
  workload.message = Bytes(1000);
  const SynthesisSpec synthesis;
  const std::vector<PlanCandidate> c =
      PointToPointSynthesizer().candidates(SynthesisRequest{fabric, workload, synthesis}, CandidateDetail::summaries);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(c[0].ok());
  EXPECT_EQ(c[0].planner, "direct");
  EXPECT_FALSE(c[0].schedule.has_value());
}

}  // namespace
}  // namespace photonsim
