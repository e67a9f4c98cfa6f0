// `photonsim plan` ranks summaries: asked for summaries only, every synthesizer
// gives the same candidates it gives with schedules (label, summary, TotalCost,
// construction, error) and keeps no schedule - joint synthesis from its
// outlines where it has them (rdc with k = 1 on uniform flows), without
// building any strategy.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

using testing_support::test_fabric;
using testing_support::test_workload;

void expect_same_summaries(const FabricSpec& fabric, const WorkloadSpec& workload, const SynthesisSpec& synthesis,
                           const std::string& what) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  const std::vector<PlanCandidate> full = registry.plan_all(fabric, workload, synthesis, 1);
  const std::vector<PlanCandidate> summaries =
      registry.plan_all(fabric, workload, synthesis, 1, CandidateDetail::summaries);
  ASSERT_EQ(full.size(), summaries.size()) << what;
  ASSERT_FALSE(full.empty()) << what;
  for (size_t i = 0; i < full.size(); ++i) {
    const std::string where = what + ", " + full[i].label();
    EXPECT_EQ(summaries[i].label(), full[i].label()) << where;
    EXPECT_EQ(summaries[i].ok(), full[i].ok()) << where;
    EXPECT_EQ(summaries[i].error, full[i].error) << where;
    EXPECT_FALSE(summaries[i].schedule.has_value()) << where;
    if (!full[i].ok()) continue;
    ASSERT_TRUE(full[i].schedule.has_value()) << where;
    EXPECT_EQ(*full[i].summary, CandidateSummary::of(*full[i].schedule)) << where;
    EXPECT_EQ(*summaries[i].summary, *full[i].summary) << where;
    EXPECT_EQ(summaries[i].hop_sum, full[i].hop_sum) << where;
    EXPECT_EQ(summaries[i].construction, full[i].construction) << where;
  }
}

TEST(PlanSummaries, JointSynthesisOutlinesGiveWhatItsSchedulesGive) {
  FabricSpec f = test_fabric(12);
  f.reconfig_delay = Time::us(10);
  SynthesisSpec rdc;
  rdc.algorithm = "rdc";
  rdc.topology.type = "none";
  expect_same_summaries(f, test_workload(Collective::alltoall, 4'000'000), rdc, "rdc, k = 1, no topology");
  SynthesisSpec on_ring = rdc;
  on_ring.topology.type = "ring";
  expect_same_summaries(f, test_workload(Collective::alltoall, 4'000'000), on_ring, "rdc, k = 1, ring in place");
  WorkloadSpec zipf = test_workload(Collective::alltoall, 4'000'000);
  zipf.distribution = FlowDistribution::zipf;
  expect_same_summaries(f, zipf, rdc, "rdc, k = 1, Zipf flows (no outlines)");
  expect_same_summaries(test_fabric(12, 2), test_workload(Collective::alltoall, 4'000'000), rdc, "rdc, k = 2");
  SynthesisSpec too_many = rdc;
  too_many.reconfigurations = 40;
  expect_same_summaries(f, test_workload(Collective::alltoall, 4'000'000), too_many, "rdc, d out of range");
}

TEST(PlanSummaries, PatternSynthesisGivesWhatItsSchedulesGive) {
  FabricSpec f = test_fabric(16);
  f.reconfig_delay = Time::us(1);
  SynthesisSpec ring;
  ring.algorithm = "ring";
  ring.topology.type = "ring";
  expect_same_summaries(f, test_workload(Collective::allreduce, 16'000'000), ring, "ring AllReduce");
}

}  // namespace
}  // namespace photonsim
