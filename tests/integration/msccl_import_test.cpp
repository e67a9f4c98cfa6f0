// Hand-written MSCCL algorithms (configs/msccl/) imported, verified and
// simulated with exact hand-computed timings: one 1,000-byte chunk over one
// circuit takes 500 ns + 1,000 B / 800 Gbps = 510 ns.
#include <gtest/gtest.h>

#include "schedules/synthesizer_registry.h"
#include "schedules/verify/block_verifier.h"
#include "sim/engine/schedule_execution.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

const Time kChunkOverOneCircuit = Time::ns(510);

SynthesisSpec from_file(const std::string& name, const std::string& planner, const std::string& topology) {
  SynthesisSpec s;
  s.algorithm = "msccl";
  s.algorithm_params["file"] = std::string(PHOTONSIM_SOURCE_DIR) + "/configs/msccl/" + name;
  s.planner = planner;
  s.topology.type = topology;
  return s;
}

RunResult run(const FabricSpec& f, const WorkloadSpec& w, const SynthesisSpec& s) {
  const Schedule schedule = SynthesizerRegistry::with_builtins().synthesize(f, w, s);
  const Verification v = verify_schedule(schedule);
  EXPECT_TRUE(v.ok()) << v.violation->describe();
  return run_schedule(f, w, schedule);
}

TEST(MscclImport, RingAllreduceRunsSixLevelsOnTheRing) {
  FabricSpec f = testing_support::test_fabric(4);
  f.reconfig_delay = Time::us(5);
  const WorkloadSpec w = testing_support::test_workload(Collective::allreduce, 4000);
  const RunResult barrier = run(f, w, from_file("ring_allreduce_4.xml", "static", "ring"));
  EXPECT_EQ(barrier.steps.size(), 6u);
  EXPECT_EQ(barrier.completion, kChunkOverOneCircuit * 6);
  // Dataflow: every level waits for the chunk the previous one delivered.
  f.sync = SyncMode::dataflow;
  EXPECT_EQ(run(f, w, from_file("ring_allreduce_4.xml", "static", "ring")).completion, kChunkOverOneCircuit * 6);
}

TEST(MscclImport, RingAllreduceFromNoCircuitsPaysOneReconfiguration) {
  FabricSpec f = testing_support::test_fabric(4);
  f.reconfig_delay = Time::us(5);
  const WorkloadSpec w = testing_support::test_workload(Collective::allreduce, 4000);
  // every_step asks for each level's circuits: the same ring six times, set up once.
  const RunResult r = run(f, w, from_file("ring_allreduce_4.xml", "every_step", "none"));
  EXPECT_EQ(r.completion, Time::us(5) + kChunkOverOneCircuit * 6);
}

TEST(MscclImport, AllPairsAlltoallIsOneLevelOnTheCompleteGraph) {
  FabricSpec f = testing_support::test_fabric(4, 3);
  f.reconfig_delay = Time::us(5);
  const WorkloadSpec w = testing_support::test_workload(Collective::alltoall, 1000);
  const RunResult r = run(f, w, from_file("allpairs_alltoall_4.xml", "static", "complete"));
  EXPECT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.completion, kChunkOverOneCircuit);
}

}  // namespace
}  // namespace photonsim
