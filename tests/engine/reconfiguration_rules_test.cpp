// docs/model.md's rules for partial reconfiguration (fabric.reconfiguration:
// changed), empty steps and the per-step breakdown, each on a small case
// whose times are worked by hand in its comment (800 Gbps = 10 ps per byte,
// 500 ns per hop unless the test says otherwise).
#include <gtest/gtest.h>

#include <map>

#include "sim/engine/switch/circuit_plan.h"
#include "sim/engine/dependency_run.h"
#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

Time ns(int64_t v) { return Time::ns(v); }

Topology ring3() { return Topology("ring", 3, {{0, 1}, {1, 2}, {2, 0}}); }
Topology back3() { return Topology("back", 3, {{0, 1}, {1, 0}}); }
Topology ring4() { return Topology("ring", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}); }
Topology pairs4() { return Topology("pairs", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}}); }

FabricSpec with(FabricSpec f, SyncMode sync, ReconfigurationScope scope, Time reconfig_delay) {
  f.sync = sync;
  f.reconfiguration = scope;
  f.reconfig_delay = reconfig_delay;
  return f;
}

RunResult run(const FabricSpec& f, const Schedule& s, Timeline* timeline = nullptr) {
  return Replayer(f, workload(Bytes(1000))).replay(s, nullptr, timeline);
}

Time transfer_part(const StepResult& r) { return r.measured() - r.reconfiguration - r.startup; }

std::map<std::pair<Node, uint32_t>, std::vector<PortSpan>> dark_spans(const Timeline& t) {
  std::map<std::pair<Node, uint32_t>, std::vector<PortSpan>> out;
  for (const PortTimeline& p : t.ports) {
    for (const PortSpan& s : p.spans) {
      if (s.activity == PortActivity::dark) out[{p.gpu, p.port}].push_back(s);
    }
  }
  return out;
}

// A ring of 3, then {0->1, 1->0} (ports 1 and 2 change), then the ring again
// (they change back). Step 1 uses only the kept 0 -> 1, so ports 1 and 2 are
// still dark when step 2 commands them again.
Schedule there_and_back(int64_t bytes) {
  return schedule(
      3, {ring3(), back3()},
      {Step{0, {transfer(1, 2, bytes)}}, Step{1, {transfer(0, 1, bytes)}}, Step{0, {transfer(1, 2, bytes)}}});
}

// Rule: a port commanded again while still dark lights reconfig_delay after
// the latest command, with the latest target; the intermediate one never
// lights. Latency 0, 100 B = 1 ns per hop, alpha_r = 1 us. Step 0 ends at
// 1 ns; the barrier commands ports 1 and 2 (lit at 1001 ns); step 1 runs on
// the kept 0 -> 1 from 1 to 2 ns; the barrier at 2 ns commands ports 1 and 2
// again: lit at 1002 ns, step 2 ends at 1003 ns (2002 ns if the second
// command had to wait for the first to light).
TEST(Reconfiguration, APortCommandedWhileDarkLightsDelayAfterTheLatestCommand) {
  FabricSpec f = with(fabric(3), SyncMode::barrier, ReconfigurationScope::changed, Time::us(1));
  f.latency = Time::zero();
  Timeline timeline;
  const RunResult r = run(f, there_and_back(100), &timeline);
  ASSERT_EQ(r.steps.size(), 3u);
  EXPECT_EQ(r.steps[0].end, ns(1));
  EXPECT_EQ(r.steps[1].begin, ns(1));
  EXPECT_EQ(r.steps[1].end, ns(2));
  EXPECT_EQ(r.steps[2].begin, ns(2));
  EXPECT_EQ(r.steps[2].end, ns(1003));
  EXPECT_EQ(r.completion, ns(1003));
  EXPECT_EQ(r.reconfigurations, 2);  // nominal: two configuration changes
  EXPECT_EQ(r.reconfiguration_time, Time::us(2));
  // One dark span per port, from the first command to the light, toward the
  // last target (port 2 was to lead nowhere in step 1, then to 0).
  const auto dark = dark_spans(timeline);
  ASSERT_EQ(dark.size(), 2u);
  for (Node gpu : {Node{1}, Node{2}}) {
    const std::vector<PortSpan>& spans = dark.at({gpu, 0});
    ASSERT_EQ(spans.size(), 1u) << gpu;
    EXPECT_EQ(spans[0].begin, ns(1));
    EXPECT_EQ(spans[0].end, ns(1002));
    EXPECT_EQ(spans[0].step, 2u);
  }
  EXPECT_EQ(dark.at({1, 0})[0].peer, 2u);
  EXPECT_EQ(dark.at({2, 0})[0].peer, 0u);
}

// The case: step 1 used only a kept circuit while its group
// reconfigured; its breakdown said 1,000,000 ps of reconfiguration in a
// 1,000 ps step (transfer -999,000 ps). Per step, reconfiguration_ps is the
// dark time the step exposed: 0 for step 1, the full 1 us for step 2 (the
// reconfiguration its transfer waits for, from its command at the barrier to
// its light).
TEST(Reconfiguration, StepBreakdownIsTheDarkTimeTheStepExposed) {
  FabricSpec f = with(fabric(3), SyncMode::barrier, ReconfigurationScope::changed, Time::us(1));
  f.latency = Time::zero();
  const RunResult r = run(f, there_and_back(100));
  EXPECT_EQ(r.steps[1].measured(), Time::ps(1000));
  EXPECT_EQ(r.steps[1].reconfiguration, Time::zero());
  EXPECT_EQ(transfer_part(r.steps[1]), Time::ps(1000));
  EXPECT_EQ(r.steps[2].reconfiguration, Time::us(1));
  EXPECT_EQ(transfer_part(r.steps[2]), Time::ps(1000));
  // The barrier with every circuit dark (`all`): every step that changes
  // circuits exposes alpha_r whole (1 + 1001 + 1001 ns).
  f.reconfiguration = ReconfigurationScope::all;
  const RunResult all = run(f, there_and_back(100));
  EXPECT_EQ(all.completion, ns(2003));
  for (size_t i : {1, 2}) {
    EXPECT_EQ(all.steps[i].reconfiguration, Time::us(1)) << i;
    EXPECT_EQ(transfer_part(all.steps[i]), Time::ps(1000)) << i;
  }
}

// Dataflow, 1000 B (510 ns a hop), alpha_r = 1 us, no blocks named (a
// transfer waits for every earlier transfer into its sender). Step 0's 1 -> 2
// drains port 1 at 510 ns: the group for step 1 (ports 1 and 2) is commanded
// then; nothing is routed over the intermediate circuits, so step 2's group
// is commanded at once, and both light at 1510. Step 1's 0 -> 1 (kept) runs
// 0..510; step 2's 1 -> 2 is released at 510 (when 0 -> 1 is in) and starts
// at 1510: 2020 ns.
TEST(Reconfiguration, DataflowCommandsAChangeOfAnUnusedCircuitAtOnce) {
  const FabricSpec f = with(fabric(3), SyncMode::dataflow, ReconfigurationScope::changed, Time::us(1));
  const RunResult r = run(f, there_and_back(1000));
  EXPECT_EQ(r.steps[0].end, ns(510));
  EXPECT_EQ(r.steps[1].begin, Time::zero());
  EXPECT_EQ(r.steps[1].end, ns(510));
  EXPECT_EQ(r.steps[1].reconfiguration, Time::zero());
  EXPECT_EQ(r.steps[2].begin, ns(510));
  EXPECT_EQ(r.steps[2].end, ns(2020));
  EXPECT_EQ(r.steps[2].reconfiguration, ns(1000));
  EXPECT_EQ(transfer_part(r.steps[2]), ns(510));
}

// Rule: directed circuits; a GPU's port on a switch is a transmitter (the
// switch's input) and a receiver (its output), separate. Ring 0->1->2->0,
// then {1->2, 2->1}: GPU 1's incoming circuit changes (0->1 becomes 2->1)
// but its outgoing 1 -> 2 stays lit: 1 -> 2 leaves at the barrier (510 ns)
// and lands at 1020; 2 -> 1 waits for port 2 (1510) and lands at 2020.
TEST(Reconfiguration, ADirectedCircuitOutStaysLitWhileTheCircuitInChanges) {
  const Topology turned("turned", 3, {{1, 2}, {2, 1}});
  const Schedule s = schedule(3, {ring3(), turned},
                              {Step{0, {transfer(0, 1, 1000)}}, Step{1, {transfer(1, 2, 1000), transfer(2, 1, 1000)}}});
  const FabricSpec f = with(fabric(3), SyncMode::barrier, ReconfigurationScope::changed, Time::us(1));
  Timeline timeline;
  const RunResult r = run(f, s, &timeline);
  ASSERT_EQ(timeline.transfers.size(), 3u);
  EXPECT_EQ(timeline.transfers[1].injected, ns(510));
  EXPECT_EQ(timeline.transfers[1].delivered, ns(1020));
  EXPECT_EQ(timeline.transfers[2].injected, ns(1510));
  EXPECT_EQ(timeline.transfers[2].delivered, ns(2020));
  EXPECT_EQ(r.steps[1].reconfiguration, ns(1000));
  // Ports 0 (0->1 to nowhere) and 2 (2->0 to 2->1) go dark; GPU 1's never.
  const auto dark = dark_spans(timeline);
  EXPECT_EQ(dark.size(), 2u);
  EXPECT_EQ(dark.count({1, 0}), 0u);
}

// Rule: a bidirectional circuit is one transceiver at each end, both ways;
// when it changes, its ports at both ends go dark, both ways. The 4-ring
// {0-1, 1-2, 2-3, 3-0} on 2 ports becomes {0-1, 1-3, 2-3, 0-2}: 0-1 and 2-3
// keep their ports (0's port 0, 1's port 0, 2's port 1, 3's port 1 by the
// port rule), 1-2 and 3-0 give way to 1-3 and 0-2 on the other four. At the
// barrier (510 ns) 1 -> 0 leaves at once (lands 1020); 0 -> 2 at 1510 (2020).
TEST(Reconfiguration, ABidirectionalCircuitThatChangesDarkensBothEnds) {
  const Topology ring("ring", 4, {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 3}, {3, 2}, {3, 0}, {0, 3}});
  const Topology other("other", 4, {{0, 1}, {1, 0}, {1, 3}, {3, 1}, {2, 3}, {3, 2}, {0, 2}, {2, 0}});
  const Schedule s = schedule(4, {ring, other},
                              {Step{0, {transfer(1, 2, 1000)}}, Step{1, {transfer(1, 0, 1000), transfer(0, 2, 1000)}}});
  FabricSpec f = with(fabric(4, 2), SyncMode::barrier, ReconfigurationScope::changed, Time::us(1));
  f.circuits = CircuitKind::bidirectional;
  Timeline timeline;
  run(f, s, &timeline);
  ASSERT_EQ(timeline.transfers.size(), 3u);
  EXPECT_EQ(timeline.transfers[1].delivered, ns(1020));
  EXPECT_EQ(timeline.transfers[2].injected, ns(1510));
  EXPECT_EQ(timeline.transfers[2].delivered, ns(2020));
  const auto dark = dark_spans(timeline);
  const std::map<std::pair<Node, uint32_t>, Node> expected = {{{0, 1}, 2}, {{1, 1}, 3}, {{2, 0}, 0}, {{3, 0}, 1}};
  ASSERT_EQ(dark.size(), expected.size());
  for (const auto& [port, peer] : expected) {
    ASSERT_EQ(dark.count(port), 1u) << port.first << "/" << port.second;
    EXPECT_EQ(dark.at(port)[0].begin, ns(510));
    EXPECT_EQ(dark.at(port)[0].end, ns(1510));
    EXPECT_EQ(dark.at(port)[0].peer, peer);
  }
}

// Rule: a group (one switch's changed ports) is commanded once every one of
// its ports has drained. Dataflow, 4-ring to {0-1, 2-3} pairs: ports 1 and 3
// change. Port 1 drains at 510 ns (1000 B), port 3 at 1500 (100 kB: 1000 ns
// + 500): the group is commanded at 1500, lights at 2500, and step 1's 1 -> 0
// lands at 3010.
TEST(Reconfiguration, AGroupIsCommandedOnceAllItsPortsHaveDrained) {
  const Schedule s =
      schedule(4, {ring4(), pairs4()},
               {Step{0, {transfer(1, 2, 1000), transfer(3, 0, 100'000)}}, Step{1, {transfer(1, 0, 1000)}}});
  const FabricSpec f = with(fabric(4), SyncMode::dataflow, ReconfigurationScope::changed, Time::us(1));
  const RunResult r = run(f, s);
  EXPECT_EQ(r.steps[0].end, ns(1500));
  EXPECT_EQ(r.steps[1].begin, Time::zero());
  EXPECT_EQ(r.steps[1].end, ns(3010));
  EXPECT_EQ(r.steps[1].reconfiguration, ns(1000));  // 1500 .. 2500
  EXPECT_EQ(transfer_part(r.steps[1]), ns(2010));   // the wait for port 3 to drain, then one hop
}

// Rule (k switches): a switch whose circuits all stay is not reconfigured,
// and its traffic does not wait. 4 GPUs, 2 ports, circulant {+1, +2} (from
// no circuits: +1 on switch 0, +2 on switch 1), then {+1, +3}: +1 stays on
// switch 0, +3 replaces +2 on switch 1. At the barrier (510 ns) 0 -> 1
// (100 kB) leaves at once and lands at 2010; 0 -> 3 waits for switch 1
// (1510) and lands at 2020.
TEST(Reconfiguration, AKeptSwitchCarriesItsTrafficWhileAnotherReconfigures) {
  std::vector<Edge> a, b;
  for (Node u = 0; u < 4; ++u) {
    a.push_back({u, (u + 1) % 4});
    a.push_back({u, (u + 2) % 4});
    b.push_back({u, (u + 1) % 4});
    b.push_back({u, (u + 3) % 4});
  }
  const Schedule s =
      schedule(4, {Topology("a", 4, a), Topology("b", 4, b)},
               {Step{0, {transfer(0, 2, 1000)}}, Step{1, {transfer(0, 1, 100'000), transfer(0, 3, 1000)}}});
  const FabricSpec f = with(fabric(4, 2), SyncMode::barrier, ReconfigurationScope::changed, Time::us(1));
  const CircuitPlan plan(s, f);
  ASSERT_EQ(plan.groups_before(1).size(), 1u);
  const ReconfigurationGroup& g = plan.groups()[plan.groups_before(1)[0]];
  ASSERT_EQ(g.changes.size(), 4u);
  for (const CircuitChange& c : g.changes) {
    EXPECT_EQ(c.slot % 2, 1u);  // switch 1
    EXPECT_EQ(c.to, static_cast<int>((c.from + 3) % 4));
  }
  Timeline timeline;
  const RunResult r = run(f, s, &timeline);
  ASSERT_EQ(timeline.transfers.size(), 3u);
  EXPECT_EQ(timeline.transfers[1].injected, ns(510));
  EXPECT_EQ(timeline.transfers[1].delivered, ns(2010));
  EXPECT_EQ(timeline.transfers[2].injected, ns(1510));
  EXPECT_EQ(timeline.transfers[2].delivered, ns(2020));
  EXPECT_EQ(r.steps[1].end, ns(2020));
  EXPECT_EQ(r.steps[1].reconfiguration, ns(1000));
}

// Rule: under dataflow an empty step waits for no data (begins at 0), waits
// for the ports its reconfiguration changes to light, pays step_overhead and
// ends; it holds those ports until then. 4-ring, then pairs with nothing to
// send, then pairs again; 100 ns overhead, alpha_r = 1 us. Step 0's 1 -> 2
// starts at 100, lands at 610, draining port 1: the group (ports 1, 3) is
// commanded at 610 and lights at 1610; the empty step ends at 1710. Step 2's
// 1 -> 0 (released at 0) waits for the same circuits: it starts at 1710 and
// lands at 2220.
TEST(EmptyStep, UnderDataflowBeginsAtZeroAndEndsItsOverheadAfterItsCircuitsLight) {
  const Schedule s =
      schedule(4, {ring4(), pairs4()}, {Step{0, {transfer(1, 2, 1000)}}, Step{1, {}}, Step{1, {transfer(1, 0, 1000)}}});
  FabricSpec f = with(fabric(4), SyncMode::dataflow, ReconfigurationScope::changed, Time::us(1));
  f.step_overhead = ns(100);
  const RunResult r = run(f, s);
  EXPECT_EQ(r.steps[0].end, ns(610));
  EXPECT_EQ(r.steps[1].begin, Time::zero());
  EXPECT_EQ(r.steps[1].end, ns(1710));
  EXPECT_EQ(r.steps[1].reconfiguration, ns(1000));  // 610 .. 1610
  EXPECT_EQ(r.steps[1].startup, ns(100));
  EXPECT_EQ(transfer_part(r.steps[1]), ns(610));  // waiting for port 1 to drain
  EXPECT_EQ(r.steps[2].begin, Time::zero());
  EXPECT_EQ(r.steps[2].end, ns(2220));
  EXPECT_EQ(r.steps[2].reconfiguration, ns(1000));
  // Under `all` the same: one group, every circuit in place or wanted.
  f.reconfiguration = ReconfigurationScope::all;
  const RunResult all = run(f, s);
  EXPECT_EQ(all.steps[1].end, ns(1710));
  EXPECT_EQ(all.steps[2].end, ns(2220));
}

// The empty step holds its circuits: step 2 changes ports 1 and 3 back, but
// only once the empty step has ended (1710): they light at 2710, and step 2's
// 1 -> 2 starts at 2810 and lands at 3320.
TEST(EmptyStep, HoldsItsCircuitsUntilItEnds) {
  const Schedule s =
      schedule(4, {ring4(), pairs4()}, {Step{0, {transfer(1, 2, 1000)}}, Step{1, {}}, Step{0, {transfer(1, 2, 1000)}}});
  FabricSpec f = with(fabric(4), SyncMode::dataflow, ReconfigurationScope::changed, Time::us(1));
  f.step_overhead = ns(100);
  const RunResult r = run(f, s);
  EXPECT_EQ(r.steps[1].end, ns(1710));
  EXPECT_EQ(r.steps[2].begin, Time::zero());
  EXPECT_EQ(r.steps[2].end, ns(3320));
  EXPECT_EQ(r.steps[2].reconfiguration, ns(1000));  // 1710 .. 2710
}

// An empty step without a reconfiguration costs step_overhead: under the
// barrier from the barrier (Replayer and DependencyRun alike: 610, 710,
// 1320 ns), under dataflow from 0 (it waits for nothing: 0 .. 100 ns; step
// 2's 1 -> 2 leaves after step 0's on the same port: 620 ns).
TEST(EmptyStep, WithoutAReconfigurationCostsItsOverhead) {
  const Schedule s =
      schedule(4, {ring4()}, {Step{0, {transfer(1, 2, 1000)}}, Step{0, {}}, Step{0, {transfer(1, 2, 1000)}}});
  FabricSpec f = fabric(4);
  f.step_overhead = ns(100);
  for (ReconfigurationScope scope : {ReconfigurationScope::all, ReconfigurationScope::changed}) {
    const RunResult r = run(with(f, SyncMode::barrier, scope, Time::us(1)), s);
    EXPECT_EQ(r.steps[1].begin, ns(610)) << to_string(scope);
    EXPECT_EQ(r.steps[1].end, ns(710)) << to_string(scope);
    EXPECT_EQ(r.steps[2].end, ns(1320)) << to_string(scope);
  }
  const RunResult d = run(with(f, SyncMode::dataflow, ReconfigurationScope::changed, Time::us(1)), s);
  EXPECT_EQ(d.steps[1].begin, Time::zero());
  EXPECT_EQ(d.steps[1].end, ns(100));
  EXPECT_EQ(d.steps[2].end, ns(620));
}

// Rule (egress_order: fifo): a GPU's own packets count as queued at their
// transfer's start (its circuits lit and step_overhead paid), not at its
// step's begin. Dataflow on the 3-ring; step 0: A 0 -> 1 (100 kB, port 0 -> 1
// busy 0..1000 ns), E 2 -> 1 by way of 0 (1000 B, at GPU 0 from 510 ns), C
// 2 -> 0 (1000 B, after E on port 2 -> 0: in at 520); step 1: D 2 -> 0 of no
// bytes (released at 0, so step 1 begins at 0) and B 0 -> 1 (1000 B, released
// when C is in: 520). At 1000 ns port 0 -> 1 takes E (queued 510) before B
// (queued 520): E lands at 1510, B at 1520. Counted from step 1's begin (0),
// B would have gone first.
TEST(EgressOrder, FifoCountsOwnPacketsFromTheirTransfersStart) {
  const Schedule s =
      schedule(3, {ring3()},
               {Step{0, {transfer(0, 1, 100'000), transfer(2, 1, 1000, {2, 0, 1}), transfer(2, 0, 1000)}},
                Step{0, {transfer(2, 0, 0), transfer(0, 1, 1000)}}});
  FabricSpec f = with(fabric(3), SyncMode::dataflow, ReconfigurationScope::all, Time::zero());
  f.egress_order = EgressOrder::fifo;
  Timeline timeline;
  const RunResult r = run(f, s, &timeline);
  ASSERT_EQ(timeline.transfers.size(), 5u);
  EXPECT_EQ(timeline.transfers[1].delivered, ns(1510));  // E
  EXPECT_EQ(timeline.transfers[2].delivered, ns(520));   // C
  EXPECT_EQ(timeline.transfers[4].injected, ns(520));    // B
  EXPECT_EQ(timeline.transfers[4].delivered, ns(1520));
  EXPECT_EQ(r.steps[0].end, ns(1510));
  EXPECT_EQ(r.steps[1].begin, Time::zero());
  EXPECT_EQ(r.steps[1].end, ns(1520));
}

}  // namespace
}  // namespace photonsim
