// A switch failed at 0 under PCCL (issue 55 item 3, docs/model.md "Failures
// known when planning"): the plan avoids it. 4 GPUs on 2 switches, RHD
// reduce-scatter of 4 MB per GPU (round 0: u <-> u xor 2, 2 MB; round 1:
// u <-> u xor 1, 1 MB), 800 Gbps (10 ps a byte), 500 ns a hop,
// store-and-forward, one packet per transfer, reconfig_delay 1 us, from a
// directed ring. Healthy, PCCL takes the hypercube (both rounds' circuits, 2
// ports a GPU) once: 1 us + (20 us + 0.5 us) + (10 us + 0.5 us) = 32 us, 1
// reconfiguration. With switch 0 failed at 0 it plans on 1 port: only the
// ring and each round's own circuits fit; keeping the ring would put two
// 2 MB transfers on each circuit (>= 40 us), so it reconfigures to each
// round's own circuits: 1 + 20 + 0.5 = 21.5 us, then 1 + 10 + 0.5 = 11.5 us:
// 33 us, 2 reconfigurations, every circuit on switch 1 (slot % 2 == 1), and
// the run takes exactly that.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "core/spec/planning_failures.h"
#include "schedules/synthesizer_registry.h"
#include "sim/engine/schedule_execution.h"
#include "sim/engine/switch/circuit_plan.h"

namespace photonsim {
namespace {

struct SwitchFailureCase {
  FabricSpec fabric;
  WorkloadSpec workload;
  SynthesisSpec synthesis;
};

SwitchFailureCase pccl_switch_case(std::vector<int> failed) {
  SwitchFailureCase c;
  c.fabric.gpus = 4;
  c.fabric.ports = 2;
  c.fabric.bandwidth = Bandwidth::bits_per_second(800'000'000'000);
  c.fabric.latency = Time::ns(500);
  c.fabric.reconfig_delay = Time::us(1);
  c.fabric.router = RouterMode::store_and_forward;
  c.fabric.packet = Bytes(0);
  for (int s : failed) {
    Failure f;
    f.kind = FailureKind::optical_switch;
    f.optical_switch = s;
    c.fabric.failures.entries.push_back(f);
  }
  c.fabric.failures.on_failure = FailurePolicy::wait;
  c.workload.collective = Collective::reducescatter;
  c.workload.message = Bytes(4'000'000);
  c.workload.chunk = Bytes(0);
  c.synthesis.algorithm = "rhd";
  c.synthesis.planner = "pccl";
  c.synthesis.topology = TopologySpec{"ring", {}};
  return c;
}

Schedule synthesized(const SwitchFailureCase& c) {
  return SynthesizerRegistry::with_builtins().synthesize(c.fabric, c.workload, c.synthesis);
}

TEST(PlanningFailuresPccl, HealthyPcclTakesTheHypercubeOnBothSwitches) {
  const Schedule s = synthesized(pccl_switch_case({}));
  EXPECT_EQ(s.reconfigurations(), 1);
  EXPECT_EQ(s.prediction().total(), Time::us(32));
  EXPECT_EQ(run_schedule(pccl_switch_case({}).fabric, pccl_switch_case({}).workload, s).completion, Time::us(32));
}

TEST(PlanningFailuresPccl, ASwitchFailedAtZeroIsAvoidedAndTheRunTakesTheHandComputedTime) {
  const SwitchFailureCase c = pccl_switch_case({0});
  const Schedule s = synthesized(c);
  ASSERT_EQ(s.steps().size(), 2u);
  EXPECT_EQ(s.reconfigurations(), 2);
  for (const Topology& t : s.topologies()) t.check_ports(planning_fabric(c.fabric));  // 1 port a GPU
  EXPECT_EQ(s.prediction().steps[0].total(), Time::ns(21'500));
  EXPECT_EQ(s.prediction().steps[1].total(), Time::ns(11'500));
  EXPECT_EQ(s.prediction().total(), Time::us(33));

  const CircuitPlan plan(s, c.fabric);
  size_t circuits = 0;
  for (const CircuitChange& change : plan.initial()) {
    EXPECT_EQ(change.slot % 2, 1u) << "initial circuit on switch " << change.slot % 2;
    ++circuits;
  }
  for (const ReconfigurationGroup& g : plan.groups()) {
    for (const CircuitChange& change : g.changes) {
      EXPECT_EQ(change.slot % 2, 1u) << "step " << g.step << "'s circuit on switch " << change.slot % 2;
      ++circuits;
    }
  }
  for (size_t step = 0; step < s.steps().size(); ++step) {
    for (uint32_t slot : plan.slots_of_step(step)) EXPECT_EQ(slot % 2, 1u) << "step " << step;
  }
  EXPECT_EQ(circuits, 4u + 4u + 4u);  // the ring, round 0's and round 1's circuits

  const RunResult r = run_schedule(c.fabric, c.workload, s);
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].end, Time::ns(21'500));
  EXPECT_EQ(r.completion, Time::us(33));
  EXPECT_EQ(r.completion, s.prediction().total());
}

// Switch 1 failed instead: the same plan and time, every circuit on switch 0.
TEST(PlanningFailuresPccl, TheOtherSwitchFailedGivesTheSameTimeOnSwitchZero) {
  const SwitchFailureCase c = pccl_switch_case({1});
  const Schedule s = synthesized(c);
  const CircuitPlan plan(s, c.fabric);
  for (size_t step = 0; step < s.steps().size(); ++step) {
    for (uint32_t slot : plan.slots_of_step(step)) EXPECT_EQ(slot % 2, 0u);
  }
  EXPECT_EQ(run_schedule(c.fabric, c.workload, s).completion, Time::us(33));
}

// A switch failing later (at 1 us) is the run's, not the plan's: PCCL plans the hypercube.
TEST(PlanningFailuresPccl, ASwitchFailingLaterIsNotKnownWhenPlanning) {
  SwitchFailureCase c = pccl_switch_case({0});
  c.fabric.failures.entries[0].at = Time::us(1);
  EXPECT_EQ(synthesized(c).prediction().total(), Time::us(32));
}

TEST(PlanningFailuresPccl, EverySwitchFailedAtZeroCannotBePlanned) {
  const SwitchFailureCase c = pccl_switch_case({0, 1});
  for (const char* planner : {"pccl", "auto"}) {
    SwitchFailureCase one = c;
    one.synthesis.planner = planner;
    try {
      synthesized(one);
      FAIL() << planner << " planned on no switch";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("fabric.failures[1] (switch 1, at 0): cannot complete: GPU 0 has no "
                                            "working port: ",
                                            0),
                0u)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace photonsim
