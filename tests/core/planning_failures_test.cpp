// PlanningFailures and planning_fabric (core/spec/planning_failures.h): the
// failures known when planning and the fabric every planner then sees.
#include "core/spec/planning_failures.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"

namespace photonsim {
namespace {

FabricSpec planning_test_fabric(int ports) {
  FabricSpec f;
  f.gpus = 4;
  f.ports = ports;
  f.bandwidth = Bandwidth::bits_per_second(800'000'000'000);
  return f;
}

Failure switch_failure(int optical_switch, Time at = Time::zero(), std::optional<Time> duration = std::nullopt) {
  Failure f;
  f.kind = FailureKind::optical_switch;
  f.optical_switch = optical_switch;
  f.at = at;
  f.duration = duration;
  return f;
}

TEST(PlanningFailures, AHealthyFabricIsItsOwnPlanningFabric) {
  FabricSpec f = planning_test_fabric(4);
  Failure slow;
  slow.kind = FailureKind::reconfiguration;
  slow.step = 1;
  f.failures.entries = {slow};
  const PlanningFailures known = PlanningFailures::of(f);
  EXPECT_FALSE(known.any());
  EXPECT_EQ(known.surviving, (std::vector<int>{0, 1, 2, 3}));
  const FabricSpec planned = planning_fabric(f);
  EXPECT_EQ(planned.ports, 4);
  EXPECT_EQ(planned.configured_ports, 0);
  EXPECT_EQ(planned.failures.entries.size(), 1u);
  EXPECT_EQ(ports_limit(planned), "fabric.ports is 4");
}

// Only `switch` entries at 0 are known when planning, whatever their `for`;
// one at 50 us is the run's.
TEST(PlanningFailures, SwitchesFailedAtZeroAreLeftOut) {
  FabricSpec f = planning_test_fabric(4);
  f.failures.entries = {switch_failure(3, Time::us(50)), switch_failure(2),
                        switch_failure(0, Time::zero(), Time::us(10))};
  const PlanningFailures known = PlanningFailures::of(f);
  ASSERT_EQ(known.switches.size(), 2u);
  EXPECT_EQ(known.switches[0].entry, 1u);
  EXPECT_EQ(known.switches[0].optical_switch, 2);
  EXPECT_EQ(known.switches[1].entry, 2u);
  EXPECT_EQ(known.surviving, (std::vector<int>{1, 3}));
  EXPECT_EQ(PlanningFailures::entry_name(f, 1), "fabric.failures[1] (switch 2, at 0)");
  EXPECT_EQ(PlanningFailures::entry_name(f, 0), "fabric.failures[0] (switch 3, at 50us)");

  const FabricSpec planned = planning_fabric(f);
  EXPECT_EQ(planned.ports, 2);
  EXPECT_EQ(planned.configured_ports, 4);
  EXPECT_EQ(planned.bandwidth, f.bandwidth);       // bandwidth_scope circuit: every circuit's rate
  ASSERT_EQ(planned.failures.entries.size(), 1u);  // the one at 50 us stays
  EXPECT_EQ(planned.failures.entries[0].at, Time::us(50));
  EXPECT_EQ(ports_limit(planned), "fabric.ports less the switches failed at 0 is 2 (of 4)");
  // The entries planned around are gone: planning again changes nothing.
  const FabricSpec again = planning_fabric(planned);
  EXPECT_EQ(again.ports, 2);
  EXPECT_EQ(again.configured_ports, 4);
}

// bandwidth_scope gpu: fabric.bandwidth / ports per transmitter, for those left.
TEST(PlanningFailures, GpuBandwidthIsTheSurvivingTransmittersShare) {
  FabricSpec f = planning_test_fabric(4);
  f.bandwidth_scope = BandwidthScope::gpu;
  f.bandwidth = Bandwidth::bits_per_second(4'000);
  f.failures.entries = {switch_failure(1)};
  EXPECT_EQ(planning_fabric(f).bandwidth, Bandwidth::bits_per_second(3'000));
}

TEST(PlanningFailures, MziEntriesAreKnownWhenPlanning) {
  FabricSpec f = planning_test_fabric(1);
  Failure mzi;
  mzi.kind = FailureKind::mzi;
  mzi.server = 1;
  mzi.row = 4;
  mzi.col = 7;
  f.failures.entries = {mzi};
  const PlanningFailures known = PlanningFailures::of(f);
  EXPECT_TRUE(known.any());
  EXPECT_EQ(known.mzis, (std::vector<size_t>{0}));
  EXPECT_EQ(PlanningFailures::entry_name(f, 0), "fabric.failures[0] (mzi, server 1, row 4, col 7)");
  EXPECT_EQ(planning_fabric(f).ports, 1);  // the physical layer routes around it, the ports stay
}

TEST(PlanningFailures, EverySwitchFailedAtZeroLeavesNoWorkingPort) {
  FabricSpec f = planning_test_fabric(2);
  f.failures.entries = {switch_failure(1), switch_failure(0)};
  try {
    planning_fabric(f);
    FAIL() << "planned on no switch";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "fabric.failures[1] (switch 0, at 0): cannot complete: GPU 0 has no working port: fabric.failures[0] "
              "and fabric.failures[1] take every one of the fabric's 2 optical switches down for good from the "
              "run's start, and port p of every GPU is on switch p, so no circuit can be placed (leave one out, or "
              "give it a `for` or an `at` after 0)");
  }
}

// Every switch down at 0, some only for a while: those down for good are
// left out, the others kept (the run waits for them); all of them for a
// while: the plan has every switch.
TEST(PlanningFailures, WhenNoSwitchWouldBeLeftOnlyThoseDownForGoodAreLeftOut) {
  FabricSpec f = planning_test_fabric(2);
  f.failures.entries = {switch_failure(0), switch_failure(1, Time::zero(), Time::ms(1))};
  PlanningFailures known = PlanningFailures::of(f);
  ASSERT_EQ(known.switches.size(), 1u);
  EXPECT_EQ(known.switches[0].optical_switch, 0);
  ASSERT_EQ(known.kept.size(), 1u);
  EXPECT_EQ(known.kept[0].entry, 1u);
  EXPECT_EQ(known.surviving, (std::vector<int>{1}));
  EXPECT_EQ(planning_fabric(f).ports, 1);

  f.failures.entries[0].duration = Time::us(5);
  known = PlanningFailures::of(f);
  EXPECT_TRUE(known.switches.empty());
  EXPECT_EQ(known.kept.size(), 2u);
  EXPECT_TRUE(known.any());
  EXPECT_EQ(known.surviving, (std::vector<int>{0, 1}));
  EXPECT_EQ(planning_fabric(f).ports, 2);

  FabricSpec one = planning_test_fabric(1);
  one.failures.entries = {switch_failure(0)};
  try {
    planning_fabric(one);
    FAIL() << "planned on no switch";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("fabric.failures[0] takes the fabric's only optical switch down for good "
                                         "from the run's start, and port p of every GPU is on switch p, so no "
                                         "circuit can be placed (leave it out, or give it a `for` or an `at` after "
                                         "0)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace photonsim
