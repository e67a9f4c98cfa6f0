// docs/model.md's rules for partial reconfiguration (fabric.reconfiguration:
// changed), empty steps and the per-step breakdown, each on a small case
// whose times are worked by hand in its comment (800 Gbps = 10 ps per byte,
// 500 ns per hop unless the test says otherwise).
#include <gtest/gtest.h>

#include <map>

#include "sim/engine/switch/circuit_plan.h"
#include "sim/engine/schedule_execution.h"
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
  return run_schedule(f, workload(Bytes(1000)), s, nullptr, timeline);
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

// The issue's case: step 1 used only a kept circuit while its group
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

// The fabric of issue 49's cases: 8 Gbps (1 B takes 1,000 ps), latency 0,
// reconfig_delay 1 us, the barrier, `changed`.
FabricSpec slow(int gpus, int ports, CircuitKind circuits) {
  FabricSpec f = with(fabric(gpus, ports), SyncMode::barrier, ReconfigurationScope::changed, Time::us(1));
  f.circuits = circuits;
  f.bandwidth = Bandwidth::bits_per_second(8'000'000'000);
  f.latency = Time::zero();
  return f;
}

Time ps(int64_t v) { return Time::ps(v); }

// Rule 6 (bidirectional): a circuit is a port at each end, kept or changed
// whole, so a transfer over a kept circuit never sends into a dark port.
// docs/model.md's worked case: t0 {0-2, 1-2}, t1 {1-2 twice}, t2 {0-1, 1-2},
// from no circuits, one 1 B transfer a step. Step 0 places 0.0-2.0 and
// 1.0-2.1 (GPU.port), lit at 1,000,000, ends 1,001,000. Step 1 keeps 1.0-2.1
// (circuit 0, which its transfer takes) and puts circuit 1 on 1.1-2.0; 0.0,
// 1.1 and 2.0 are commanded at 1,001,000; it ends 1,002,000. Step 2 keeps
// 1.0-2.1 and puts {0, 1} on 0.0-1.1; 0.0, 1.1 and 2.0, still dark, are
// commanded again at 1,002,000 and light at 2,002,000; the transfer runs
// over the lit 1.0-2.1 and ends at 1,003,000. Before the fix GPU 2 kept its
// port 0 (dark) toward GPU 1 and darkened port 1 at 1,002,000, the far end
// of the circuit GPU 1 sent on.
TEST(Reconfiguration, ABidirectionalCircuitIsKeptWhole) {
  const Topology t0("t0", 3, {{0, 2}, {1, 2}, {2, 0}, {2, 1}});
  const Topology t1("t1", 3, {{1, 2}, {1, 2}, {2, 1}, {2, 1}});
  const Topology t2("t2", 3, {{0, 1}, {1, 0}, {1, 2}, {2, 1}});
  const Schedule s = schedule(3, {t0, t1, t2},
                              {Step{0, {transfer(2, 0, 1, {2, 0})}}, Step{1, {transfer(1, 2, 1, {1, 2})}},
                               Step{2, {transfer(1, 2, 1, {1, 2})}}},
                              -1);
  Timeline timeline;
  const RunResult r = run(slow(3, 2, CircuitKind::bidirectional), s, &timeline);
  ASSERT_EQ(r.steps.size(), 3u);
  EXPECT_EQ(r.steps[0].end, ps(1'001'000));
  EXPECT_EQ(r.steps[1].end, ps(1'002'000));
  EXPECT_EQ(r.steps[2].end, ps(1'003'000));
  EXPECT_EQ(r.completion, ps(1'003'000));
  const auto dark = dark_spans(timeline);
  // (GPU, port) -> its dark spans [begin, end].
  const std::map<std::pair<Node, uint32_t>, std::vector<std::pair<int64_t, int64_t>>> expected = {
      {{0, 0}, {{0, 1'000'000}, {1'001'000, 2'002'000}}},
      {{1, 0}, {{0, 1'000'000}}},
      {{1, 1}, {{1'001'000, 2'002'000}}},
      {{2, 0}, {{0, 1'000'000}, {1'001'000, 2'002'000}}},
      {{2, 1}, {{0, 1'000'000}}},  // lit from 1,000,000 on: it receives steps 1 and 2
  };
  ASSERT_EQ(dark.size(), expected.size());
  for (const auto& [port, spans] : expected) {
    ASSERT_EQ(dark.count(port), 1u) << port.first << "/" << port.second;
    const auto& got = dark.at(port);
    ASSERT_EQ(got.size(), spans.size()) << port.first << "/" << port.second;
    for (size_t i = 0; i < spans.size(); ++i) {
      EXPECT_EQ(got[i].begin, ps(spans[i].first)) << port.first << "/" << port.second << " #" << i;
      EXPECT_EQ(got[i].end, ps(spans[i].second)) << port.first << "/" << port.second << " #" << i;
    }
  }
}

// Routing: a pair's parallel circuits are numbered kept ones first (then new
// ones, each by port at the lower GPU). 3 GPUs, 2 bidirectional ports, from
// no circuits: {0-2} (0.0-2.0, lit at 1,000,000; step 0 ends 1,001,000),
// then {0-1, 0-2}: 0-2 stays, 0-1 takes 0.1-1.0 (commanded at 1,001,000, lit
// 2,001,000; its transfer ends 2,002,000), then {0-1 twice}: 0.1-1.0 stays as
// circuit 0, circuit 1 takes 0.0-1.1 (commanded at 2,002,000, lit
// 3,002,000). Transfer 0 takes circuit 0, lit: 2,003,000. Numbered by port,
// circuit 0 would be 0.0, dark until 3,002,000: 3,003,000.
TEST(Reconfiguration, ParallelCircuitsNumberKeptCircuitsFirst) {
  const Topology a("a", 3, {{0, 2}, {2, 0}});
  const Topology b("b", 3, {{0, 1}, {0, 2}, {1, 0}, {2, 0}});
  const Topology c("c", 3, {{0, 1}, {0, 1}, {1, 0}, {1, 0}});
  const Schedule s = schedule(
      3, {a, b, c}, {Step{0, {transfer(0, 2, 1)}}, Step{1, {transfer(0, 1, 1)}}, Step{2, {transfer(0, 1, 1)}}}, -1);
  const RunResult r = run(slow(3, 2, CircuitKind::bidirectional), s);
  EXPECT_EQ(r.steps[0].end, ps(1'001'000));
  EXPECT_EQ(r.steps[1].end, ps(2'002'000));
  EXPECT_EQ(r.steps[2].end, ps(2'003'000));
}

// Routing: a pair's parallel circuits keep their numbers while they stay,
// whether or not the step reconfigures elsewhere. 4 GPUs, 2 bidirectional
// ports, from no circuits, a 1 B transfer 1 -> 2 a step. Step 0 {0-1, 1-2}:
// 0.0-1.0 and 1.1-2.0, lit at 1,000,000, ends 1,001,000. Step 1 {1-2 twice}:
// 1.1-2.0 stays as circuit 0, circuit 1 on 1.0-2.1 (commanded at 1,001,000,
// lit 2,001,000); the transfer takes circuit 0: 1,002,000. Step 2 on the same
// circuits, or on them and a new 0-3: circuit 0 is still 1.1-2.0, lit, and
// the run ends at 1,003,000 (renumbered by port, circuit 0 would be the dark
// 1.0-2.1: 2,002,000).
TEST(Reconfiguration, ParallelCircuitsKeepTheirNumbersWhileTheyStay) {
  const Topology a("a", 4, {{0, 1}, {1, 0}, {1, 2}, {2, 1}});
  const Topology b("b", 4, {{1, 2}, {1, 2}, {2, 1}, {2, 1}});
  const Topology c("c", 4, {{0, 3}, {1, 2}, {1, 2}, {2, 1}, {2, 1}, {3, 0}});
  for (int last : {1, 2}) {
    const Schedule s =
        schedule(4, {a, b, c},
                 {Step{0, {transfer(1, 2, 1)}}, Step{1, {transfer(1, 2, 1)}}, Step{last, {transfer(1, 2, 1)}}}, -1);
    const RunResult r = run(slow(4, 2, CircuitKind::bidirectional), s);
    EXPECT_EQ(r.steps[0].end, ps(1'001'000)) << last;
    EXPECT_EQ(r.steps[1].end, ps(1'002'000)) << last;
    EXPECT_EQ(r.steps[2].end, ps(1'003'000)) << last;
  }
}

// Routing: with directed circuits on k > 1 switches under `changed`, a
// pair's parallel circuits are numbered by switch. 3 GPUs, 2 ports, from no
// circuits: {1->2 (offset 1), 0->2 (offset 2)} puts 1->2 on switch 0 and
// 0->2 on switch 1 (lit at 1,000,000; step 0's 1 -> 2 ends 1,001,000). Then
// {0->2 twice}: 0->2 stays on switch 1, the second takes switch 0 (1->2
// removed there), commanded at 1,001,000, lit at 2,001,000. Transfer 0 takes
// circuit 0, switch 0's: 2,002,000 (kept first would give 1,002,000).
TEST(Reconfiguration, DirectedParallelCircuitsNumberBySwitch) {
  const Topology a("a", 3, {{0, 2}, {1, 2}});
  const Topology b("b", 3, {{0, 2}, {0, 2}});
  const Schedule s = schedule(3, {a, b}, {Step{0, {transfer(1, 2, 1)}}, Step{1, {transfer(0, 2, 1)}}}, -1);
  const RunResult r = run(slow(3, 2, CircuitKind::directed), s);
  EXPECT_EQ(r.steps[0].end, ps(1'001'000));
  EXPECT_EQ(r.steps[1].end, ps(2'002'000));
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
// barrier from the barrier (610, 710,
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

// From no circuits to an empty configuration: under `all` the fabric is
// dark for reconfig_delay (1,000,005 ps with step_overhead 5 ps); under
// `changed` no port changes, so nothing goes dark and the step ends at its
// step_overhead (5 ps), still a reconfiguration of the schedule (counted,
// nominally) that exposed no dark time. Both sync modes agree.
TEST(EmptyStep, FromNoCircuitsToNoneUnderChangedDarkensNothing) {
  const Schedule s = schedule(2, {Topology("empty", 2, {})}, {Step{0, {}}}, -1);
  for (SyncMode sync : {SyncMode::barrier, SyncMode::dataflow}) {
    FabricSpec f = with(fabric(2), sync, ReconfigurationScope::changed, Time::us(1));
    f.step_overhead = ps(5);
    const RunResult changed = run(f, s);
    EXPECT_EQ(changed.completion, ps(5)) << to_string(sync);
    EXPECT_EQ(changed.steps[0].reconfiguration, Time::zero()) << to_string(sync);
    EXPECT_EQ(changed.reconfigurations, 1) << to_string(sync);
    EXPECT_TRUE(s.reconfigures_before(0));
    f.reconfiguration = ReconfigurationScope::all;
    const RunResult all = run(f, s);
    EXPECT_EQ(all.completion, ps(1'000'005)) << to_string(sync);
    EXPECT_EQ(all.steps[0].reconfiguration, Time::us(1)) << to_string(sync);
  }
}

// An empty step's stand-in carries no data, so no barrier holds any for it:
// its barrier_wait is 0. 4-ring; step 0: 1 -> 2 (1000 B, 510 ns) and 3 -> 0
// (100 kB, 1500 ns); step 1 empty; step 2: 1 -> 2 again, which carries
// nothing named, so it waits for every earlier transfer into 1: none, and
// could start at 0. The barrier holds it from 0 to step 2's begin (1500,
// the empty step costing nothing), step 1 holds nothing.
TEST(EmptyStep, HasNoBarrierWait) {
  const Schedule s = schedule(
      4, {ring4()},
      {Step{0, {transfer(1, 2, 1000), transfer(3, 0, 100'000)}}, Step{0, {}}, Step{0, {transfer(1, 2, 1000)}}});
  const FabricSpec f = with(fabric(4), SyncMode::barrier, ReconfigurationScope::changed, Time::us(1));
  const RunResult r = run_schedule(f, workload(Bytes(1000)), s, nullptr, nullptr, true);
  EXPECT_EQ(r.steps[1].begin, ns(1500));
  EXPECT_EQ(r.steps[1].end, ns(1500));
  EXPECT_EQ(r.steps[1].barrier_wait, Time::zero());
  EXPECT_EQ(r.steps[2].barrier_wait, ns(1500));
  EXPECT_EQ(r.barrier_wait, ns(1500));
}

// fabric.bandwidth_scope: gpu gives a GPU's spare transmitter to its
// lowest-numbered circuit, and of two parallel circuits to one peer to
// circuit 0, the one a step's transfer 0 takes. 2 GPUs, 3 directed ports, 24
// Gbps per GPU (8 Gbps a lane), 0 -> 1 twice: circuit 0 gets 2 lanes (16
// Gbps) and circuit 1 one. Transfer 0 (2000 B) and transfer 1 (1000 B) each
// take 1 us; the other way round the step would take 2 us.
TEST(BandwidthScope, TheSpareTransmitterGoesToParallelCircuitZero) {
  const Topology twice("twice", 2, {{0, 1}, {0, 1}, {1, 0}});
  const Schedule s = schedule(2, {twice}, {Step{0, {transfer(0, 1, 2000), transfer(0, 1, 1000)}}});
  FabricSpec f = fabric(2, 3);
  f.bandwidth_scope = BandwidthScope::gpu;
  f.bandwidth = Bandwidth::bits_per_second(24'000'000'000);
  f.latency = Time::zero();
  const RunResult r = run(f, s);
  EXPECT_EQ(r.completion, Time::us(1));
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
