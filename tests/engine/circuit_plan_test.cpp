// CircuitPlan: which switch (port) each circuit takes under
// reconfiguration: changed with directed circuits on k > 1 ports, by the
// docs/model.md's rules ("Which port each circuit takes", rule 6), worked by hand.
#include "sim/engine/switch/circuit_plan.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

FabricSpec switches(int gpus, int ports) {
  FabricSpec f = fabric(gpus, ports);
  f.reconfiguration = ReconfigurationScope::changed;
  return f;
}

// The circuits in place after each step: slot (u * ports + switch) -> v.
std::map<uint32_t, int> placed(const CircuitPlan& plan, size_t through_step) {
  std::map<uint32_t, int> at;
  for (const CircuitChange& c : plan.initial()) at[c.slot] = c.to;
  for (const ReconfigurationGroup& g : plan.groups()) {
    if (g.step > through_step) break;
    for (const CircuitChange& c : g.changes) {
      if (c.to >= 0) {
        at[c.slot] = c.to;
      } else {
        at.erase(c.slot);
      }
    }
  }
  return at;
}

Schedule steps_on(int gpus, std::vector<Topology> topologies) {
  std::vector<Step> steps;
  for (size_t i = 0; i < topologies.size(); ++i) steps.push_back(Step{static_cast<int>(i), {}});
  return schedule(gpus, std::move(topologies), std::move(steps), -1);
}

// From no circuits: a configuration made of at most k offset classes
// ((v - u) mod n) that are each a (partial) permutation puts class j, in
// increasing offset, on switch j. Circulant {+1, +3} on 4 GPUs: +1 on switch
// 0, +3 on switch 1.
TEST(CircuitPlan, FromNoCircuitsEachOffsetClassTakesASwitch) {
  std::vector<Edge> e;
  for (Node u = 0; u < 4; ++u) {
    e.push_back({u, (u + 3) % 4});
    e.push_back({u, (u + 1) % 4});
  }
  const CircuitPlan plan(steps_on(4, {Topology("c", 4, e)}), switches(4, 2));
  const auto at = placed(plan, 0);
  ASSERT_EQ(at.size(), 8u);
  for (uint32_t u = 0; u < 4; ++u) {
    EXPECT_EQ(at.at(u * 2 + 0), static_cast<int>((u + 1) % 4)) << u;
    EXPECT_EQ(at.at(u * 2 + 1), static_cast<int>((u + 3) % 4)) << u;
  }
}

// Else XOR classes (u ^ v), in increasing XOR: the 8-GPU hypercube on 3
// switches (its 6 offset classes are too many) puts u ^ 1 on switch 0, u ^ 2
// on 1, u ^ 4 on 2.
TEST(CircuitPlan, FromNoCircuitsAHypercubeTakesOneDimensionPerSwitch) {
  std::vector<Edge> e;
  for (Node u = 0; u < 8; ++u) {
    for (Node bit : {1u, 2u, 4u}) e.push_back({u, u ^ bit});
  }
  const CircuitPlan plan(steps_on(8, {Topology("cube", 8, e)}), switches(8, 3));
  const auto at = placed(plan, 0);
  ASSERT_EQ(at.size(), 24u);
  for (uint32_t u = 0; u < 8; ++u) {
    for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(at.at(u * 3 + i), static_cast<int>(u ^ (1u << i))) << u << " " << i;
  }
}

// Circuits in place keep their switch; a new circuit goes first to a switch
// already reconfigured. 3 GPUs, 2 switches: {0->1, 0->2} puts 0 -> 1 on
// switch 0, 0 -> 2 on switch 1 (offsets 1 and 2). Then {0->1, 2->0}: 0 -> 1
// stays on switch 0; 0 -> 2 leaves switch 1, so switch 1 is reconfigured,
// and 2 -> 0 (both ends free on either switch) goes there. Switch 0 is left
// alone: one group, on switch 1.
TEST(CircuitPlan, ANewCircuitGoesFirstToASwitchAlreadyReconfigured) {
  const CircuitPlan plan(steps_on(3, {Topology("a", 3, {{0, 1}, {0, 2}}), Topology("b", 3, {{0, 1}, {2, 0}})}),
                         switches(3, 2));
  EXPECT_EQ(placed(plan, 0), (std::map<uint32_t, int>{{0, 1}, {1, 2}}));
  ASSERT_EQ(plan.groups_before(1).size(), 1u);
  const ReconfigurationGroup& g = plan.groups()[plan.groups_before(1)[0]];
  ASSERT_EQ(g.changes.size(), 2u);
  EXPECT_EQ(g.changes[0].slot, 1u);  // GPU 0's port on switch 1: 0 -> 2 goes
  EXPECT_EQ(g.changes[0].to, -1);
  EXPECT_EQ(g.changes[1].slot, 5u);  // GPU 2's port on switch 1: 2 -> 0 comes
  EXPECT_EQ(g.changes[1].to, 0);
  EXPECT_EQ(placed(plan, 1), (std::map<uint32_t, int>{{0, 1}, {5, 0}}));
}

// When no switch has both ends free, an alternating path makes room. 3 GPUs,
// 2 switches: {0->1, 0->2} (switch 0: 0 -> 1, switch 1: 0 -> 2), then
// {0->1, 1->2} (0 -> 1 stays; 1 -> 2 takes switch 1, reconfigured as 0 -> 2
// leaves), then {0->1, 1->2, 0->2}: both stay, and 0 -> 2 finds GPU 0's
// transmitter free only on switch 1 (a) and GPU 2's receiver free only on
// switch 0 (b). The path from GPU 2: the circuit on switch 1 into 2 is
// 1 -> 2; no circuit leaves 1 on switch 0, so the path ends. 1 -> 2 moves to
// switch 0 and 0 -> 2 takes switch 1: both switches are reconfigured (the
// fewest possible: one of 0 -> 1 and 1 -> 2 must move).
TEST(CircuitPlan, AnAlternatingPathMakesRoomWhenNoSwitchHasBothEndsFree) {
  const CircuitPlan plan(steps_on(3, {Topology("a", 3, {{0, 1}, {0, 2}}), Topology("b", 3, {{0, 1}, {1, 2}}),
                                      Topology("c", 3, {{0, 1}, {1, 2}, {0, 2}})}),
                         switches(3, 2));
  EXPECT_EQ(placed(plan, 1), (std::map<uint32_t, int>{{0, 1}, {3, 2}}));
  EXPECT_EQ(placed(plan, 2), (std::map<uint32_t, int>{{0, 1}, {1, 2}, {2, 2}}));
  ASSERT_EQ(plan.groups_before(2).size(), 2u);
  const ReconfigurationGroup& on0 = plan.groups()[plan.groups_before(2)[0]];
  const ReconfigurationGroup& on1 = plan.groups()[plan.groups_before(2)[1]];
  ASSERT_EQ(on0.changes.size(), 1u);
  EXPECT_EQ(on0.changes[0].slot, 2u);  // 1 -> 2 arrives on switch 0
  ASSERT_EQ(on1.changes.size(), 2u);
  EXPECT_EQ(on1.changes[0].slot, 1u);  // 0 -> 2 on switch 1
  EXPECT_EQ(on1.changes[1].slot, 3u);  // 1 -> 2 leaves switch 1
  EXPECT_EQ(on1.changes[1].to, -1);
}

// The initial circuits cost nothing, so they are placed as if step 0's
// configuration (placed first, from no circuits) were in place: step 0 is
// the circulant {+1, +2} (+1 on switch 0, +2 on switch 1), the initial
// topology the bidirectional ring {+1, -1}: +1 keeps switch 0, -1 (= +3)
// takes switch 1, so step 0 reconfigures switch 1 only.
TEST(CircuitPlan, InitialCircuitsArePlacedToKeepStepZerosSwitches) {
  std::vector<Edge> ring, circulant;
  for (Node u = 0; u < 4; ++u) {
    ring.push_back({u, (u + 1) % 4});
    ring.push_back({u, (u + 3) % 4});
    circulant.push_back({u, (u + 1) % 4});
    circulant.push_back({u, (u + 2) % 4});
  }
  const Schedule s =
      schedule(4, {Topology("ring", 4, ring), Topology("c", 4, circulant)}, {Step{1, {transfer(0, 1, 1000)}}}, 0);
  const CircuitPlan plan(s, switches(4, 2));
  std::map<uint32_t, int> initial;
  for (const CircuitChange& c : plan.initial()) initial[c.slot] = c.to;
  for (uint32_t u = 0; u < 4; ++u) {
    EXPECT_EQ(initial.at(u * 2 + 0), static_cast<int>((u + 1) % 4)) << u;
    EXPECT_EQ(initial.at(u * 2 + 1), static_cast<int>((u + 3) % 4)) << u;
  }
  ASSERT_EQ(plan.groups_before(0).size(), 1u);
  for (const CircuitChange& c : plan.groups()[plan.groups_before(0)[0]].changes) EXPECT_EQ(c.slot % 2, 1u);
}

}  // namespace
}  // namespace photonsim
