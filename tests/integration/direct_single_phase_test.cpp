// direct all-to-all with rounds: one, ReTri's "static shortest-path
// source-destination All-to-All" baseline: every flow in a single step on
// the static bidirectional ring, each the shorter way.
#include <gtest/gtest.h>

#include "schedules/synthesizer_registry.h"
#include "schedules/verify/block_verifier.h"
#include "sim/engine/schedule_execution.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

Schedule single_phase(const FabricSpec& fabric, const WorkloadSpec& workload) {
  SynthesisSpec synthesis;
  synthesis.algorithm = "direct";
  synthesis.algorithm_params = {{"rounds", "one"}};
  synthesis.planner = "static";
  synthesis.topology.type = "ring";
  return SynthesizerRegistry::with_builtins().synthesize(fabric, workload, synthesis);
}

TEST(DirectSinglePhase, EveryFlowInOneStepOnItsShortestPathAndVerified) {
  for (int n : {3, 4, 7, 8, 16}) {
    const FabricSpec f = testing_support::test_fabric(n, 2, CircuitKind::bidirectional);
    const Schedule s = single_phase(f, testing_support::test_workload(Collective::alltoall, 1000));
    ASSERT_EQ(s.steps().size(), 1u) << n;  // the static planner does not regroup it by hop count
    EXPECT_EQ(s.steps()[0].transfers.size(), static_cast<size_t>(n * (n - 1))) << n;
    const Verification v = verify_schedule(s);
    EXPECT_TRUE(v.ok()) << n << ": " << (v.violation ? v.violation->describe() : "");
  }
}

// Three GPUs on the bidirectional ring are each other's neighbours both
// ways: the six flows take the six directed circuits, one each, so the step
// is step_overhead + latency + m / B: 200 ns + 500 ns + 1000 B x 10 ps/B.
TEST(DirectSinglePhase, ThreeGpusTakeOneHopEachAtOnce) {
  FabricSpec f = testing_support::test_fabric(3, 2, CircuitKind::bidirectional);
  f.step_overhead = Time::ns(200);
  const WorkloadSpec w = testing_support::test_workload(Collective::alltoall, 1000);
  const Schedule s = single_phase(f, w);
  const RunResult r = run_schedule(f, w, s);
  EXPECT_EQ(r.completion, Time::ns(200) + Time::ns(500) + Time::ns(10));
  EXPECT_EQ(s.prediction().total(), r.completion);
}

}  // namespace
}  // namespace photonsim
