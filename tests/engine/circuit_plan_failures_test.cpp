// CircuitPlan with failures known when planning (a `switch` entry at 0):
// the placement runs on the surviving switches, port k of a GPU being
// surviving switch k, so no circuit, group or step slot is on a failed one.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "sim/engine/switch/circuit_plan.h"
#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

FabricSpec failed_switch_fabric(int gpus, int ports, std::vector<int> failed) {
  FabricSpec f = fabric(gpus, ports);
  for (int s : failed) {
    Failure x;
    x.kind = FailureKind::optical_switch;
    x.optical_switch = s;
    f.failures.entries.push_back(x);
  }
  f.failures.on_failure = FailurePolicy::wait;
  return f;
}

Topology directed_ring(int n, int stride) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) e.push_back({static_cast<Node>(u), static_cast<Node>((u + stride) % n)});
  return Topology("ring+" + std::to_string(stride), n, e);
}

// Every slot the plan names, from the initial circuits to the last step's.
std::vector<uint32_t> every_slot(const CircuitPlan& plan, size_t steps) {
  std::vector<uint32_t> out;
  for (const CircuitChange& c : plan.initial()) out.push_back(c.slot);
  for (const ReconfigurationGroup& g : plan.groups())
    for (const CircuitChange& c : g.changes) out.push_back(c.slot);
  for (size_t s = 0; s < steps; ++s)
    for (uint32_t slot : plan.slots_of_step(s)) out.push_back(slot);
  return out;
}

Schedule two_rings(int n) {
  return schedule(n, {directed_ring(n, 1), directed_ring(n, 3)},
                  {Step{0, {transfer(0, 1, 100)}}, Step{1, {transfer(0, 3, 100)}}, Step{0, {transfer(1, 2, 100)}}});
}

// 3 switches, switch 1 failed: the circuits take switches 0 and 2 only,
// under `all` and under `changed` (each a switch's group).
TEST(CircuitPlanFailures, NoCircuitCrossesASwitchFailedAtZero) {
  for (ReconfigurationScope scope : {ReconfigurationScope::all, ReconfigurationScope::changed}) {
    FabricSpec f = failed_switch_fabric(4, 3, {1});
    f.reconfiguration = scope;
    const Schedule s = two_rings(4);
    const CircuitPlan plan(s, f);
    EXPECT_EQ(plan.ports_per_gpu(), 3u);
    EXPECT_EQ(plan.slots(), 12u);
    const std::vector<uint32_t> slots = every_slot(plan, s.steps().size());
    ASSERT_FALSE(slots.empty());
    for (uint32_t slot : slots) EXPECT_NE(slot % 3, 1u) << "slot " << slot << " under " << to_string(scope);
    // One surviving switch a ring: under `all` the first surviving one (0) holds each GPU's only circuit.
    if (scope == ReconfigurationScope::all) {
      for (uint32_t slot : plan.slots_of_step(0)) EXPECT_EQ(slot % 3, 0u);
    }
  }
}

// Switch 0 failed on 2 ports: everything runs on switch 1, as a one-port
// fabric would on switch 0, slot u * 2 + 1 for slot u.
TEST(CircuitPlanFailures, TheSurvivingSwitchTakesWhatPortZeroWould) {
  const Schedule s = two_rings(4);
  const CircuitPlan one(s, fabric(4, 1));
  const CircuitPlan failed(s, failed_switch_fabric(4, 2, {0}));
  ASSERT_EQ(one.initial().size(), failed.initial().size());
  for (size_t i = 0; i < one.initial().size(); ++i) {
    EXPECT_EQ(failed.initial()[i].slot, one.initial()[i].slot * 2 + 1);
    EXPECT_EQ(failed.initial()[i].from, one.initial()[i].from);
    EXPECT_EQ(failed.initial()[i].to, one.initial()[i].to);
  }
  ASSERT_EQ(one.groups().size(), failed.groups().size());
  for (size_t g = 0; g < one.groups().size(); ++g) {
    ASSERT_EQ(one.groups()[g].changes.size(), failed.groups()[g].changes.size());
    for (size_t c = 0; c < one.groups()[g].changes.size(); ++c)
      EXPECT_EQ(failed.groups()[g].changes[c].slot, one.groups()[g].changes[c].slot * 2 + 1);
  }
}

// Bidirectional circuits: both ends on the surviving switch.
TEST(CircuitPlanFailures, BidirectionalCircuitsKeepToTheSurvivingSwitches) {
  FabricSpec f = failed_switch_fabric(4, 3, {0});
  f.circuits = CircuitKind::bidirectional;
  f.reconfiguration = ReconfigurationScope::changed;
  const Topology ring("bring", 4, {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 3}, {3, 2}, {3, 0}, {0, 3}});
  const Schedule s = schedule(4, {ring}, {Step{0, {transfer(0, 1, 100)}}});
  const CircuitPlan plan(s, f);
  for (uint32_t slot : every_slot(plan, 1)) EXPECT_NE(slot % 3, 0u) << slot;
}

// A schedule needing more ports than survive (not planned around the
// failure, replayed) is refused naming the entry.
TEST(CircuitPlanFailures, ASchedulePlannedOnEverySwitchIsRefused) {
  const Topology both("both", 4, {{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}, {2, 0}, {3, 0}, {3, 1}});
  const Schedule s = schedule(4, {both}, {Step{0, {transfer(0, 1, 100)}}});
  try {
    const CircuitPlan plan(s, failed_switch_fabric(4, 2, {1}));
    FAIL() << "placed 2 circuits a GPU on 1 switch";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "fabric.failures[0] (switch 1, at 0): the schedule does not fit the switches that survive the "
              "failures known when planning (it was not planned around them): topology 'both': node 0 needs 2 "
              "ports (out 2, in 2) but fabric.ports less the switches failed at 0 is 1 (of 2)");
  }
}

TEST(CircuitPlanFailures, NoSwitchLeftIsNoWorkingPort) {
  try {
    const CircuitPlan plan(two_rings(4), failed_switch_fabric(4, 1, {0}));
    FAIL() << "placed circuits on no switch";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("fabric.failures[0] (switch 0, at 0): cannot complete: GPU 0 has no "
                                         "working port"),
              std::string::npos)
        << e.what();
  }
}

// A run on the surviving switch takes what the one-port fabric's takes, to the picosecond.
TEST(CircuitPlanFailures, ARunOnTheSurvivingSwitchIsTheOnePortRun) {
  const Schedule s = two_rings(4);
  FabricSpec one = fabric(4, 1);
  one.reconfig_delay = Time::us(1);
  FabricSpec failed = failed_switch_fabric(4, 2, {0});
  failed.reconfig_delay = Time::us(1);
  const RunResult a = run_schedule(one, workload(Bytes(100)), s);
  const RunResult b = run_schedule(failed, workload(Bytes(100)), s);
  EXPECT_EQ(a.completion, b.completion);
  // Step 0: 100 B (1 ns) + 500 ns; step 1: 1 us dark, then 3 hops... on ring+3 0 -> 3 is one hop: 501 ns.
  EXPECT_EQ(a.completion, Time::ns(501 + 1000 + 501 + 1000 + 501));
}

}  // namespace
}  // namespace photonsim
