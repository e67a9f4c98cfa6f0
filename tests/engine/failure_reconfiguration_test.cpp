// fabric.failures, kind reconfiguration (docs/model.md "Failures"): every
// switch command issued for step K's reconfiguration is dark extra_delay
// longer than the reconfiguration model says, so the circuits it changes
// light that much later; a step past the schedule's, or one that keeps its
// circuits, is refused naming the entry. 4 GPUs, one port, 800 Gbps = 10 ps
// per byte, 500 ns per hop, reconfig_delay 1 us, extra_delay 10 us; one
// 1000 B transfer a step (510 ns). Steps: 0 -> 1 on the ring (in place,
// free), 1 -> 0 on {0->1, 1->0, 2->3, 3->2} (a reconfiguration: GPUs 1 and
// 3 re-aim their port, 0 and 2 keep theirs), 2 -> 3 on the same (none).
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "sim/engine/schedule_execution.h"
#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

Time slow_ns(int64_t v) { return Time::ns(v); }

constexpr int64_t kSlowExtraNs = 10'000;

Schedule slow_reconfiguration_schedule() {
  const Topology ring("ring", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  const Topology pairs("pairs", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  return schedule(4, {ring, pairs},
                  {Step{0, {transfer(0, 1, 1000)}}, Step{1, {transfer(1, 0, 1000)}}, Step{1, {transfer(2, 3, 1000)}}});
}

FabricSpec slow_fabric(SyncMode sync, ReconfigurationScope scope, int step = 1) {
  FabricSpec f = fabric(4);
  f.sync = sync;
  f.reconfiguration = scope;
  f.reconfig_delay = Time::us(1);
  f.packet = Bytes(100);
  Failure slow;
  slow.kind = FailureKind::reconfiguration;
  slow.step = step;
  slow.extra_delay = slow_ns(kSlowExtraNs);
  f.failures.entries = {slow};
  return f;
}

// The three engines that move packets: trains, packet by packet, one packet per chunk.
std::vector<FabricSpec> slow_fidelities(const FabricSpec& f) {
  FabricSpec reference = f;
  reference.packet_engine = PacketEngine::reference;
  FabricSpec chunk = f;
  chunk.packet = Bytes(0);
  return {f, reference, chunk};
}

RunResult slow_run(const FabricSpec& f) {
  return run_schedule(f, workload(Bytes(1000)), slow_reconfiguration_schedule(), nullptr, nullptr);
}

FabricSpec healthy(FabricSpec f) {
  f.failures = FailureSpec{};
  return f;
}

void expect_one_slow_command(const RunResult& r) {
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].entry, 0u);
  EXPECT_EQ(r.failures[0].kind, FailureKind::reconfiguration);
  EXPECT_EQ(r.failures[0].commands, 1u);
  EXPECT_EQ(r.failures[0].extra_dark, slow_ns(kSlowExtraNs));
}

// The barrier, reconfiguration all: step 0 ends at 510 ns; the barrier
// commands every port then, lit 1 us + 10 us later at 11,510 ns (healthy:
// 1,510); step 1 begins at the barrier (510 ns), its transfer starts 10 us
// later than healthy and ends at 12,020 ns; step 2 keeps its circuits:
// 12,020 .. 12,530 ns. Its exposed reconfiguration is 11 us.
TEST(FailureReconfiguration, UnderTheBarrierTheStepStartsExtraDelayLater) {
  const FabricSpec slow = slow_fabric(SyncMode::barrier, ReconfigurationScope::all);
  const RunResult before = slow_run(healthy(slow));
  EXPECT_EQ(before.completion, slow_ns(2'530));
  EXPECT_TRUE(before.failures.empty());
  for (const FabricSpec& f : slow_fidelities(slow)) {
    const RunResult r = slow_run(f);
    ASSERT_EQ(r.steps.size(), 3u);
    EXPECT_EQ(r.steps[0].end, slow_ns(510));
    EXPECT_EQ(r.steps[1].begin, slow_ns(510));
    EXPECT_EQ(r.steps[1].end, slow_ns(12'020));
    EXPECT_EQ(r.steps[1].reconfiguration, slow_ns(11'000));
    EXPECT_EQ(r.steps[2].begin, slow_ns(12'020));
    EXPECT_EQ(r.steps[2].end, slow_ns(12'530));
    EXPECT_EQ(r.completion, slow_ns(2'530 + kSlowExtraNs));
    // Nominal, as always: one reconfiguration of reconfig_delay.
    EXPECT_EQ(r.reconfigurations, 1);
    EXPECT_EQ(r.reconfiguration_time, Time::us(1));
    expect_one_slow_command(r);
  }
}

// reconfiguration: changed: only GPUs 1 and 3 re-aim (one group, one
// command), dark 510 .. 11,510 ns; step 1's 1 -> 0 crosses GPU 1's port:
// the same times as under all. The timeline shows the two ports dark 11 us.
TEST(FailureReconfiguration, UnderChangedOnlyTheChangedPortsStayDarkLonger) {
  const FabricSpec slow = slow_fabric(SyncMode::barrier, ReconfigurationScope::changed);
  EXPECT_EQ(slow_run(healthy(slow)).completion, slow_ns(2'530));
  for (const FabricSpec& f : slow_fidelities(slow)) {
    Timeline timeline;
    const RunResult r = run_schedule(f, workload(Bytes(1000)), slow_reconfiguration_schedule(), nullptr, &timeline);
    EXPECT_EQ(r.steps[1].end, slow_ns(12'020));
    EXPECT_EQ(r.completion, slow_ns(12'530));
    expect_one_slow_command(r);
    int dark = 0;
    for (const PortTimeline& p : timeline.ports) {
      for (const PortSpan& s : p.spans) {
        if (s.activity != PortActivity::dark) continue;
        ++dark;
        EXPECT_TRUE(p.gpu == 1 || p.gpu == 3) << p.gpu;
        EXPECT_EQ(s.begin, slow_ns(510));
        EXPECT_EQ(s.end, slow_ns(11'510));
      }
    }
    EXPECT_EQ(dark, 2);
  }
}

// Dataflow (no blocks named: a transfer waits for every earlier transfer
// into its sender). Under all the group holds every port and is commanded
// once GPU 0's port has carried step 0 (510 ns): lit at 11,510 ns; step 1's
// 1 -> 0 (released at 510 ns) runs 11,510 .. 12,020 ns and so does step 2's
// 2 -> 3 (released at 0, its circuit lit for step 2 by the same group):
// 12,020 ns (healthy 2,020). Under changed GPUs 1 and 3 carried nothing
// before, so their group is commanded at 0 and lights at 11,000 ns; 1 -> 0
// runs 11,000 .. 11,510 ns, 2 -> 3 on the kept circuit 0 .. 510 ns: 11,510
// ns (healthy 1,510).
TEST(FailureReconfiguration, UnderDataflowTheChangedCircuitsLightExtraDelayLater) {
  const FabricSpec all = slow_fabric(SyncMode::dataflow, ReconfigurationScope::all);
  EXPECT_EQ(slow_run(healthy(all)).completion, slow_ns(2'020));
  for (const FabricSpec& f : slow_fidelities(all)) {
    const RunResult r = slow_run(f);
    EXPECT_EQ(r.steps[1].end, slow_ns(12'020));
    EXPECT_EQ(r.steps[2].end, slow_ns(12'020));
    EXPECT_EQ(r.completion, slow_ns(12'020));
    expect_one_slow_command(r);
  }
  const FabricSpec changed = slow_fabric(SyncMode::dataflow, ReconfigurationScope::changed);
  EXPECT_EQ(slow_run(healthy(changed)).completion, slow_ns(1'510));
  for (const FabricSpec& f : slow_fidelities(changed)) {
    const RunResult r = slow_run(f);
    EXPECT_EQ(r.steps[1].end, slow_ns(11'510));
    EXPECT_EQ(r.steps[2].end, slow_ns(510));
    EXPECT_EQ(r.completion, slow_ns(11'510));
    expect_one_slow_command(r);
  }
}

// fabric.reconfig_model sequential (reconfig_delay per switch touched, here
// the one switch, + per_port 1 ns per port changed): the extra delay comes on
// top of the model's dark time. Under all the command re-aims 4 ports (1,004
// ns), under changed 2 (1,002 ns): 510 + 1,004 + 10,000 + 510 + 510 =
// 12,534 ns and 12,532 ns.
TEST(FailureReconfiguration, AddsToTheSequentialModelsDarkTime) {
  for (const auto& [scope, end] : {std::pair{ReconfigurationScope::all, int64_t{12'534}},
                                   std::pair{ReconfigurationScope::changed, int64_t{12'532}}}) {
    FabricSpec f = slow_fabric(SyncMode::barrier, scope);
    f.reconfig_model = "sequential";
    f.reconfig_params = {{"per_port", "1ns"}};
    const RunResult r = slow_run(f);
    EXPECT_EQ(r.completion, slow_ns(end)) << to_string(scope);
    expect_one_slow_command(r);
  }
}

std::string slow_refusal(const FabricSpec& f) {
  try {
    slow_run(f);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A step past the schedule's, or one whose circuits are those in place
// (step 0 on the free initial ring, step 2 on step 1's), is refused before
// anything runs.
TEST(FailureReconfiguration, AStepWithoutAReconfigurationIsRefusedNamingTheEntry) {
  EXPECT_EQ(slow_refusal(slow_fabric(SyncMode::barrier, ReconfigurationScope::all, 3)),
            "fabric.failures[0] (reconfiguration, step 3): the schedule has 3 steps (0..2), so there is no step 3 "
            "to slow the reconfiguration of");
  for (int step : {0, 2}) {
    EXPECT_EQ(slow_refusal(slow_fabric(SyncMode::dataflow, ReconfigurationScope::changed, step)),
              "fabric.failures[0] (reconfiguration, step " + std::to_string(step) + "): step " + std::to_string(step) +
                  " keeps its circuits (its configuration is the one in place), so no reconfiguration precedes it to "
                  "slow; the steps with a reconfiguration before them: 1");
  }
}

// extra_delay 0 changes no time (the entry is still reported, its command counted).
TEST(FailureReconfiguration, NoExtraDelayChangesNothing) {
  FabricSpec f = slow_fabric(SyncMode::barrier, ReconfigurationScope::all);
  f.failures.entries[0].extra_delay = Time::zero();
  const RunResult r = slow_run(f);
  EXPECT_EQ(r.completion, slow_ns(2'530));
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].commands, 1u);
  EXPECT_EQ(r.failures[0].extra_dark, Time::zero());
}

}  // namespace
}  // namespace photonsim
