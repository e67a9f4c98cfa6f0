// Lost circuits (docs/model.md, "Lost circuits: loss, detection and resume",
// rules L1..L8): hand-computed cases against the independent model
// (tests/engine/reference_failures.h) alone, and the engine against that
// model on random failure timelines, step by step and in its loss counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <exception>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "sim/engine/schedule_execution.h"
#include "tests/engine/random_schedule.h"
#include "tests/engine/reference_engine.h"
#include "tests/engine/reference_failures.h"

namespace photonsim {
namespace {

constexpr uint64_t kFailureLossCases = 5000;
constexpr uint64_t kFailureLossHealthyCases = 3000;

// The worked case's fabric: 800 Gbps (10 ns per 1000 B packet), 5 ns a hop,
// store-and-forward, 1000 B packets, one chunk, no reconfiguration cost.
FabricSpec failure_loss_fabric(int gpus, int ports) {
  FabricSpec f;
  f.gpus = gpus;
  f.ports = ports;
  f.bandwidth = Bandwidth::bits_per_second(800'000'000'000);
  f.latency = Time::ns(5);
  f.router = RouterMode::store_and_forward;
  f.packet = Bytes(1000);
  f.reconfig_delay = Time::zero();
  f.step_overhead = Time::zero();
  f.failures.on_failure = FailurePolicy::wait;
  return f;
}

WorkloadSpec failure_loss_workload() {
  WorkloadSpec w;
  w.collective = Collective::alltoall;
  w.message = Bytes(1000);
  w.chunk = Bytes(0);
  return w;
}

Topology failure_loss_ring(int n) {
  std::vector<Edge> edges;
  for (int v = 0; v < n; ++v) edges.push_back({static_cast<Node>(v), static_cast<Node>((v + 1) % n)});
  return Topology("ring", n, edges);
}

Transfer failure_loss_transfer(std::vector<Node> path, int64_t bytes) {
  Transfer t;
  t.src = path.front();
  t.dst = path.back();
  t.path = std::move(path);
  t.bytes = Bytes(bytes);
  return t;
}

// One step per entry of `steps`, each on topologies[its index]; the fabric
// starts on topology 0.
Schedule failure_loss_schedule(int gpus, std::vector<Topology> topologies,
                               std::vector<std::pair<int, std::vector<Transfer>>> steps) {
  ScheduleParts p;
  p.gpus = gpus;
  p.message = Bytes(1000);
  p.topologies = std::move(topologies);
  p.initial_topology = 0;
  for (auto& [topology, transfers] : steps) {
    Step step;
    step.topology = topology;
    step.transfers = std::move(transfers);
    p.steps.push_back(std::move(step));
  }
  return Schedule(std::move(p));
}

Failure failure_loss_entry(FailureKind kind, int gpu_or_switch, int port, Time at, std::optional<Time> duration) {
  Failure f;
  f.kind = kind;
  if (kind == FailureKind::optical_switch) {
    f.optical_switch = gpu_or_switch;
  } else {
    f.gpu = gpu_or_switch;
    f.port = port;
  }
  f.at = at;
  f.duration = duration;
  return f;
}

// The model on one 0 -> ... transfer over the 4-GPU ring.
reference::FailureReplay failure_loss_on_ring(std::vector<Node> path, int64_t bytes, int ports,
                                              std::vector<Failure> entries, Time detection) {
  FabricSpec f = failure_loss_fabric(4, ports);
  f.failures.entries = std::move(entries);
  f.failures.detection = detection;
  const Schedule schedule =
      failure_loss_schedule(4, {failure_loss_ring(4)}, {{0, {failure_loss_transfer(path, bytes)}}});
  return reference::ReferenceFailures(f, failure_loss_workload()).replay(schedule);
}

TEST(FailureLossModel, HealthyWorkedCaseEndsAt45ns) {
  const reference::FailureReplay r = failure_loss_on_ring({0, 1}, 4000, 1, {}, Time::ns(20));
  ASSERT_FALSE(r.cannot_complete);
  ASSERT_EQ(r.steps.size(), 1U);
  EXPECT_EQ(r.steps[0].end, Time::ns(45));
  EXPECT_EQ(r.totals.packet_hops, 4U);
  EXPECT_EQ(r.totals.lost_packets, 0U);
  EXPECT_EQ(r.totals.rewinds, 0U);
}

// The doc's worked case: packets 2 and 3 cross [20, 35) and [30, 45) and meet
// the failure at 25 ns; learnt at 45 ns; known down [45, 125): resent at 125
// and 135 ns, landing at 150 ns.
TEST(FailureLossModel, PortFailingMidTransferLosesDetectsAndResumesAsTheDocWorksIt) {
  const reference::FailureReplay r = failure_loss_on_ring(
      {0, 1}, 4000, 1, {failure_loss_entry(FailureKind::port, 0, 0, Time::ns(25), Time::ns(100))}, Time::ns(20));
  ASSERT_FALSE(r.cannot_complete) << *r.cannot_complete;
  ASSERT_EQ(r.steps.size(), 1U);
  EXPECT_EQ(r.steps[0].begin, Time::zero());
  EXPECT_EQ(r.steps[0].end, Time::ns(150));
  EXPECT_EQ(r.totals.packet_hops, 6U);
  EXPECT_EQ(r.totals.lost_packets, 2U);
  EXPECT_EQ(r.totals.lost_bytes, 2000);
  EXPECT_EQ(r.totals.resent_bytes, 2000);
  EXPECT_EQ(r.totals.dropped_packets, 2U);
  EXPECT_EQ(r.totals.dropped_bytes, 2000);
  EXPECT_EQ(r.totals.rewinds, 1U);
  EXPECT_EQ(r.totals.waited, Time::ns(80));  // 45 .. 125 ns
}

// A flap [22, 24) ns, shorter than the 20 ns detection: packets 1 ([10, 25))
// and 2 ([20, 35)) are lost, packet 3 ([30, 45)) arrives after a loss and is
// dropped (L4), the flow learns at 22 + 20 = 42 ns and, the flap never known
// down, resends packets 1..3 at once: 42, 52, 62 ns, the last landing at 77.
TEST(FailureLossModel, FlapShorterThanTheDetectionIsNeverWaitedForOnlyItsLosses) {
  const reference::FailureReplay r = failure_loss_on_ring(
      {0, 1}, 4000, 1, {failure_loss_entry(FailureKind::flap, 0, 0, Time::ns(22), Time::ns(2))}, Time::ns(20));
  ASSERT_FALSE(r.cannot_complete) << *r.cannot_complete;
  ASSERT_EQ(r.steps.size(), 1U);
  EXPECT_EQ(r.steps[0].end, Time::ns(77));
  EXPECT_EQ(r.totals.packet_hops, 7U);
  EXPECT_EQ(r.totals.lost_packets, 2U);
  EXPECT_EQ(r.totals.lost_bytes, 2000);
  EXPECT_EQ(r.totals.dropped_packets, 3U);  // 1 and 2 lost, 3 out of order
  EXPECT_EQ(r.totals.dropped_bytes, 3000);
  EXPECT_EQ(r.totals.resent_bytes, 3000);
  EXPECT_EQ(r.totals.rewinds, 1U);
  EXPECT_EQ(r.totals.waited, Time::zero());
}

// A flap wholly between two packets' spans loses nothing.
TEST(FailureLossModel, FlapNoPacketCrossesLosesNothing) {
  // Packets cross [0, 15), [10, 25), [20, 35), [30, 45): nothing after 45 ns.
  const reference::FailureReplay r = failure_loss_on_ring(
      {0, 1}, 4000, 1, {failure_loss_entry(FailureKind::flap, 1, 0, Time::ns(45), Time::ns(10))}, Time::zero());
  ASSERT_FALSE(r.cannot_complete);
  EXPECT_EQ(r.steps[0].end, Time::ns(45));
  EXPECT_EQ(r.totals.lost_packets, 0U);
  EXPECT_EQ(r.totals.rewinds, 0U);
}

// Two parallel circuits 0 -> 1 on ports 0 and 1 (GPU 0's circuits out in edge
// order); transfer 1 takes circuit 1, on switch 1, down [5, 105) ns, detection
// 20 ns. Transfer 0 on switch 0 ends at 25 ns; transfer 1 loses both its
// packets, learns at 25 ns, waits until 105 ns and lands its last at 130.
TEST(FailureLossModel, SwitchFailureTakesDownOnlyTheCircuitsThroughIt) {
  FabricSpec f = failure_loss_fabric(2, 2);
  f.failures.entries = {failure_loss_entry(FailureKind::optical_switch, 1, 0, Time::ns(5), Time::ns(100))};
  f.failures.detection = Time::ns(20);
  const Schedule schedule =
      failure_loss_schedule(2, {Topology("parallel", 2, {{0, 1}, {0, 1}})},
                            {{0, {failure_loss_transfer({0, 1}, 2000), failure_loss_transfer({0, 1}, 2000)}}});
  const reference::FailureReplay r = reference::ReferenceFailures(f, failure_loss_workload()).replay(schedule);
  ASSERT_FALSE(r.cannot_complete) << *r.cannot_complete;
  ASSERT_EQ(r.steps.size(), 1U);
  EXPECT_EQ(r.steps[0].end, Time::ns(130));
  EXPECT_EQ(r.totals.packet_hops, 6U);
  EXPECT_EQ(r.totals.lost_packets, 2U);
  EXPECT_EQ(r.totals.lost_bytes, 2000);
  EXPECT_EQ(r.totals.resent_bytes, 2000);
  EXPECT_EQ(r.totals.rewinds, 1U);
  EXPECT_EQ(r.totals.waited, Time::ns(80));

  // The same failure on switch 0 hits transfer 0 alike.
  f.failures.entries[0].optical_switch = 0;
  const reference::FailureReplay r0 = reference::ReferenceFailures(f, failure_loss_workload()).replay(schedule);
  ASSERT_FALSE(r0.cannot_complete);
  EXPECT_EQ(r0.steps[0].end, Time::ns(130));
  EXPECT_EQ(r0.totals.lost_packets, 2U);
}

// A port entry on the receiving end (b, p) takes the circuit down too (L1):
// route 0 -> 1 -> 2, GPU 2's port 0 down [30, 40) with no detection delay.
// Packet 0 crosses 1 -> 2 over [15, 30) and lands at 30 ns; packet 1 crosses
// it over [25, 40) and is lost, learnt at 30 ns. Landings at t come before
// rewinds at t: packet 0 is accepted first, so the flow rewinds to byte 1000
// (not 0), waits until 40 ns and lands packet 1 at 70 ns.
TEST(FailureLossModel, LandingsAtAnInstantComeBeforeItsRewinds) {
  const reference::FailureReplay r = failure_loss_on_ring(
      {0, 1, 2}, 2000, 1, {failure_loss_entry(FailureKind::port, 2, 0, Time::ns(30), Time::ns(10))}, Time::zero());
  ASSERT_FALSE(r.cannot_complete) << *r.cannot_complete;
  EXPECT_EQ(r.steps[0].end, Time::ns(70));
  EXPECT_EQ(r.totals.packet_hops, 6U);
  EXPECT_EQ(r.totals.lost_packets, 1U);
  EXPECT_EQ(r.totals.resent_bytes, 1000);
  EXPECT_EQ(r.totals.dropped_packets, 1U);
  EXPECT_EQ(r.totals.rewinds, 1U);
  EXPECT_EQ(r.totals.waited, Time::ns(10));
}

// A forwarded packet sent onto a circuit already known down is learnt at
// once (L5): GPU 2's port 0 down [0, 30), known from 5 ns; the flow starts at
// 0 (nothing known down yet), packet 0 reaches GPU 1 at 15 ns and is sent
// onto 1 -> 2: lost, learnt at 15; packet 1, still on 0 -> 1, is let go where
// it lands (25 ns). The flow waits until 30 ns and resends both: 30 .. 70 ns.
TEST(FailureLossModel, SendingOntoACircuitKnownDownIsLearntAtOnce) {
  const reference::FailureReplay r = failure_loss_on_ring(
      {0, 1, 2}, 2000, 1, {failure_loss_entry(FailureKind::port, 2, 0, Time::zero(), Time::ns(30))}, Time::ns(5));
  ASSERT_FALSE(r.cannot_complete) << *r.cannot_complete;
  EXPECT_EQ(r.steps[0].end, Time::ns(70));
  EXPECT_EQ(r.totals.packet_hops, 7U);
  EXPECT_EQ(r.totals.lost_packets, 1U);
  EXPECT_EQ(r.totals.lost_bytes, 1000);
  EXPECT_EQ(r.totals.dropped_packets, 2U);
  EXPECT_EQ(r.totals.resent_bytes, 2000);
  EXPECT_EQ(r.totals.rewinds, 1U);
  EXPECT_EQ(r.totals.waited, Time::ns(15));
}

// A flow whose route is known down when it starts waits (L7) and loses
// nothing; the wait moves the next step's barrier.
TEST(FailureLossModel, FlowStartingOnAKnownDownRouteWaitsAndMovesTheNextStep) {
  FabricSpec f = failure_loss_fabric(4, 1);
  f.failures.entries = {failure_loss_entry(FailureKind::port, 1, 0, Time::zero(), Time::ns(100))};
  f.failures.detection = Time::zero();
  const Schedule schedule =
      failure_loss_schedule(4, {failure_loss_ring(4)},
                            {{0, {failure_loss_transfer({0, 1}, 1000)}}, {0, {failure_loss_transfer({2, 3}, 1000)}}});
  const reference::FailureReplay r = reference::ReferenceFailures(f, failure_loss_workload()).replay(schedule);
  ASSERT_FALSE(r.cannot_complete) << *r.cannot_complete;
  ASSERT_EQ(r.steps.size(), 2U);
  EXPECT_EQ(r.steps[0].end, Time::ns(115));  // sent at 100 ns
  EXPECT_EQ(r.steps[1].begin, Time::ns(115));
  EXPECT_EQ(r.steps[1].end, Time::ns(130));
  EXPECT_EQ(r.totals.lost_packets, 0U);
  EXPECT_EQ(r.totals.rewinds, 0U);
  EXPECT_EQ(r.totals.waited, Time::ns(100));
}

// A loss on the second hop resends from the source: route 0 -> 1 -> 2, GPU
// 2's port 0 down [38, 138) ns. Hop 2 carries packet k over
// [15 + 10k, 30 + 10k): packet 0 lands at 30 ns, 1..3 are lost; packet 1 was
// sent at 25 ns, so the flow learns at 38 + 20 = 58 ns (packet 3, still on
// the wire, is let go where it lands); known down until 138 ns, then packets
// 1..3 leave GPU 0 again and cross hop 2 over [153, 163), [163, 173),
// [173, 183): 188 ns.
TEST(FailureLossModel, ALossOnTheSecondHopIsResentFromTheSource) {
  const reference::FailureReplay r = failure_loss_on_ring(
      {0, 1, 2}, 4000, 1, {failure_loss_entry(FailureKind::port, 2, 0, Time::ns(38), Time::ns(100))}, Time::ns(20));
  ASSERT_FALSE(r.cannot_complete) << *r.cannot_complete;
  EXPECT_EQ(r.steps[0].end, Time::ns(188));
  EXPECT_EQ(r.totals.packet_hops, 14U);  // 8, then 3 packets x 2 hops
  EXPECT_EQ(r.totals.lost_packets, 3U);
  EXPECT_EQ(r.totals.resent_bytes, 3000);
  EXPECT_EQ(r.totals.dropped_packets, 3U);
  EXPECT_EQ(r.totals.waited, Time::ns(80));
}

// Down [0, 100) ns from the start, known from 20 ns: the flow starts before
// it is known, loses the packets sent at 0 and 10 ns, learns at 20 ns (before
// its port chooses again then, so packets 2 and 3 are never cut), waits
// until 100 ns and sends all four: 145 ns.
TEST(FailureLossModel, AFailureFromTimeZeroIsLearntOnlyAfterTheDetection) {
  const reference::FailureReplay r = failure_loss_on_ring(
      {0, 1}, 4000, 1, {failure_loss_entry(FailureKind::port, 0, 0, Time::zero(), Time::ns(100))}, Time::ns(20));
  ASSERT_FALSE(r.cannot_complete) << *r.cannot_complete;
  EXPECT_EQ(r.steps[0].end, Time::ns(145));
  EXPECT_EQ(r.totals.lost_packets, 2U);
  EXPECT_EQ(r.totals.resent_bytes, 2000);
  EXPECT_EQ(r.totals.waited, Time::ns(80));
}

// A circuit down to the end that a flow would wait for stops the run (L8);
// with one port the end whose port died has no working port.
TEST(FailureLossModel, FailureForeverCannotComplete) {
  const reference::FailureReplay r = failure_loss_on_ring(
      {0, 1}, 4000, 1, {failure_loss_entry(FailureKind::port, 0, 0, Time::ns(25), std::nullopt)}, Time::ns(20));
  ASSERT_TRUE(r.cannot_complete);
  EXPECT_EQ(*r.cannot_complete, "cannot complete: GPU 0 has no working port");
  EXPECT_TRUE(r.steps.empty());
  EXPECT_EQ(r.totals.lost_packets, 2U);  // what happened before it stopped
  EXPECT_EQ(r.totals.rewinds, 1U);

  // GPU 1's port 0 down from the start, known at 20 ns: the receiving end.
  const reference::FailureReplay at_start = failure_loss_on_ring(
      {0, 1}, 4000, 1, {failure_loss_entry(FailureKind::port, 1, 0, Time::zero(), std::nullopt)}, Time::ns(20));
  ASSERT_TRUE(at_start.cannot_complete);
  EXPECT_EQ(*at_start.cannot_complete, "cannot complete: GPU 1 has no working port");
}

// With a second port still working at each end, the message names the
// transfer, the circuit and the entry.
TEST(FailureLossModel, FailureForeverNamesTheTransferTheCircuitAndTheEntry) {
  const reference::FailureReplay r =
      failure_loss_on_ring({0, 1, 2}, 1000, 2,
                           {failure_loss_entry(FailureKind::flap, 3, 1, Time::ns(1), Time::ns(1)),
                            failure_loss_entry(FailureKind::port, 2, 0, Time::zero(), Time::ns(10)),
                            failure_loss_entry(FailureKind::port, 1, 0, Time::ns(10), std::nullopt)},
                           Time::zero());
  ASSERT_TRUE(r.cannot_complete);
  EXPECT_EQ(*r.cannot_complete,
            "cannot complete: the transfer from GPU 0 to GPU 2 waits for the circuit GPU 1 port 0 -> GPU 2, down until "
            "the end (fabric.failures[2]), and on_failure: wait never routes around it");

  // One circuit 0 -> 1 on 2 ports: both of GPU 0's ports down for good leave
  // it no working port; its port 0 and GPU 1's port 0 leave each a port.
  FabricSpec f = failure_loss_fabric(4, 2);
  f.failures.detection = Time::ns(20);
  const Schedule one_way =
      failure_loss_schedule(4, {Topology("one_way", 4, {{0, 1}})}, {{0, {failure_loss_transfer({0, 1}, 4000)}}});
  f.failures.entries = {failure_loss_entry(FailureKind::port, 0, 0, Time::ns(25), std::nullopt),
                        failure_loss_entry(FailureKind::port, 0, 1, Time::ns(25), std::nullopt)};
  EXPECT_EQ(reference::ReferenceFailures(f, failure_loss_workload()).replay(one_way).cannot_complete,
            "cannot complete: GPU 0 has no working port");
  f.failures.entries[1] = failure_loss_entry(FailureKind::port, 1, 0, Time::ns(25), std::nullopt);
  EXPECT_EQ(reference::ReferenceFailures(f, failure_loss_workload()).replay(one_way).cannot_complete,
            "cannot complete: the transfer from GPU 0 to GPU 1 waits for the circuit GPU 0 port 0 -> GPU 1, down "
            "until the end (fabric.failures[0]), and on_failure: wait never routes around it");
}

// Bidirectional circuits: each direction sits on its sender's out-index
// port and arrives at the same port of its receiver (rule 6 under `all`, L1).
// 3 GPUs, 2 ports, circuits {0, 1} and {0, 2}: 0 -> 1 on port 0, 0 -> 2 on
// port 1 (0's second edge out), 1 -> 0 and 2 -> 0 on port 0 (each one's
// first). GPU 0's port 1 down for good takes 0 -> 2 only.
TEST(FailureLossModel, BidirectionalDirectionsSitOnTheirSendersPorts) {
  FabricSpec f = failure_loss_fabric(3, 2);
  f.circuits = CircuitKind::bidirectional;
  f.failures.entries = {failure_loss_entry(FailureKind::port, 0, 1, Time::zero(), std::nullopt)};
  f.failures.detection = Time::zero();
  const Topology both("both", 3, {{0, 1}, {1, 0}, {0, 2}, {2, 0}});
  const reference::FailureReplay back =
      reference::ReferenceFailures(f, failure_loss_workload())
          .replay(failure_loss_schedule(3, {both}, {{0, {failure_loss_transfer({2, 0}, 1000)}}}));
  ASSERT_FALSE(back.cannot_complete) << *back.cannot_complete;
  EXPECT_EQ(back.steps[0].end, Time::ns(15));
  const reference::FailureReplay out =
      reference::ReferenceFailures(f, failure_loss_workload())
          .replay(failure_loss_schedule(3, {both}, {{0, {failure_loss_transfer({0, 2}, 1000)}}}));
  EXPECT_EQ(out.cannot_complete,
            "cannot complete: the transfer from GPU 0 to GPU 2 waits for the circuit GPU 0 port 1 -> GPU 2, down until "
            "the end (fabric.failures[0]), and on_failure: wait never routes around it");
}

// A circuit down to the end that no flow uses stops nothing, nor does one
// that fails after the run.
TEST(FailureLossModel, ACircuitDownForeverThatNoFlowWaitsForStopsNothing) {
  const reference::FailureReplay r =
      failure_loss_on_ring({0, 1}, 4000, 1,
                           {failure_loss_entry(FailureKind::port, 2, 0, Time::zero(), std::nullopt),
                            failure_loss_entry(FailureKind::optical_switch, 0, 0, Time::us(1), std::nullopt)},
                           Time::ns(20));
  ASSERT_FALSE(r.cannot_complete) << *r.cannot_complete;
  EXPECT_EQ(r.steps[0].end, Time::ns(45));
  EXPECT_EQ(r.totals.lost_packets, 0U);
}

// Without failures the model is the barrier reference, to the picosecond.
TEST(FailureLossModel, WithoutFailuresIsTheBarrierReference) {
  for (uint64_t seed = 1; seed <= kFailureLossHealthyCases; ++seed) {
    const random_schedules::Scenario s = random_schedules::random_scenario(seed);
    const Schedule schedule{ScheduleParts(s.parts)};
    const std::vector<reference::StepTimes> expected =
        reference::ReferenceEngine(s.fabric, s.workload).replay(schedule);
    const reference::FailureReplay r = reference::ReferenceFailures(s.fabric, s.workload).replay(schedule);
    ASSERT_FALSE(r.cannot_complete);
    ASSERT_EQ(r.steps.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(r.steps[i].begin, expected[i].begin) << "seed " << seed << ", step " << i << "\n" << s.describe();
      ASSERT_EQ(r.steps[i].end, expected[i].end) << "seed " << seed << ", step " << i << "\n" << s.describe();
    }
    ASSERT_EQ(r.totals.lost_packets, 0U);
    ASSERT_EQ(r.totals.dropped_packets, 0U);
  }
}

// --- The engine against the model on random failure timelines. ---

std::string failure_loss_describe(const FailureSpec& spec) {
  std::ostringstream s;
  s << "  detection " << spec.detection.picoseconds() << " ps, on_failure wait\n";
  for (size_t i = 0; i < spec.entries.size(); ++i) {
    const Failure& f = spec.entries[i];
    s << "  fabric.failures[" << i << "]: " << to_string(f.kind);
    if (f.kind == FailureKind::optical_switch) {
      s << " " << f.optical_switch;
    } else {
      s << " gpu " << f.gpu << " port " << f.port;
    }
    s << " at " << f.at.picoseconds() << " ps for ";
    if (f.duration) {
      s << f.duration->picoseconds() << " ps";
    } else {
      s << "ever";
    }
    s << "\n";
  }
  return s.str();
}

// Whether the loader would take `f` beside `entries`: no two port/flap
// entries on one (gpu, port) that overlap, no two entries for one switch.
bool failure_loss_fits(const std::vector<Failure>& entries, const Failure& f) {
  for (const Failure& e : entries) {
    if (f.kind == FailureKind::optical_switch) {
      if (e.kind == FailureKind::optical_switch && e.optical_switch == f.optical_switch) return false;
    } else if (e.kind != FailureKind::optical_switch && e.gpu == f.gpu && e.port == f.port) {
      if (e.at < f.end() && f.at < e.end()) return false;
    }
  }
  return true;
}

uint64_t failure_loss_below(Rng& rng, int64_t bound) {
  return rng.uniform(static_cast<uint64_t>(std::max<int64_t>(bound, 1)));
}

// 1..4 port, flap or switch entries, their times drawn around the healthy
// run's length `healthy` (often on a coarse grid, so they meet packets'
// spans at their ends), and a random detection.
FailureSpec failure_loss_random_failures(Rng& rng, const FabricSpec& fabric, Time healthy) {
  FailureSpec spec;
  spec.on_failure = FailurePolicy::wait;
  const int64_t span = std::max<int64_t>(healthy.picoseconds(), 1000);
  spec.detection = random_schedules::pick<Time>(
      rng, {Time::zero(), Time::ns(1), Time::ps(span / 20), Time::ps(span / 4), Time::ps(span)});
  const int64_t grid = random_schedules::pick<int64_t>(
      rng, {1, 1000,
            std::max<int64_t>(
                1, reference::ReferenceFailures::serialisation(std::max<int64_t>(fabric.packet.count(), 100), fabric)
                       .picoseconds())});
  const int count = 1 + static_cast<int>(rng.uniform(4));
  for (int k = 0; k < count; ++k) {
    Failure f;
    const uint64_t kind = rng.uniform(10);
    f.kind = kind < 4 ? FailureKind::port : kind < 7 ? FailureKind::flap : FailureKind::optical_switch;
    f.gpu = static_cast<int>(rng.uniform(static_cast<uint64_t>(fabric.gpus)));
    f.port = static_cast<int>(rng.uniform(static_cast<uint64_t>(fabric.ports)));
    f.optical_switch = static_cast<int>(rng.uniform(static_cast<uint64_t>(fabric.ports)));
    int64_t at = static_cast<int64_t>(failure_loss_below(rng, span + span / 5 + 1));
    if (rng.uniform(2) == 0) at -= at % grid;
    // A switch entry at 0 is a failure known when planning, not the run's.
    if (f.kind == FailureKind::optical_switch && at == 0) at = grid;
    f.at = Time::ps(at);
    const uint64_t length = rng.uniform(f.kind == FailureKind::flap ? 3 : 4);
    int64_t duration = 0;
    if (length == 0) {
      duration = 1 + static_cast<int64_t>(failure_loss_below(rng, spec.detection.picoseconds() + 1));
    } else if (length == 1) {
      duration = 1 + static_cast<int64_t>(failure_loss_below(rng, span / 2));
      if (rng.uniform(2) == 0) duration = std::max<int64_t>(grid, duration - duration % grid);
    } else if (length == 2) {
      duration = span / 2 + 1 + static_cast<int64_t>(failure_loss_below(rng, 2 * span));
    }
    // length 3 (port and switch only, one draw in four): down to the end.
    if (length < 3 || rng.uniform(3) != 0) {
      f.duration = Time::ps(duration > 0 ? duration : 1 + static_cast<int64_t>(failure_loss_below(rng, span)));
    }
    if (failure_loss_fits(spec.entries, f)) spec.entries.push_back(f);
  }
  return spec;
}

// One random scenario of the property test: its fabric with its failures.
struct FailureLossScenario {
  random_schedules::Scenario scenario;
  Schedule schedule;
  std::string description;
};

FailureLossScenario failure_loss_scenario(uint64_t seed) {
  random_schedules::Scenario s = random_schedules::random_scenario(seed);
  s.fabric.sync = SyncMode::barrier;
  s.fabric.reconfiguration = ReconfigurationScope::all;
  Schedule schedule{ScheduleParts(s.parts)};
  const reference::FailureReplay healthy = reference::ReferenceFailures(s.fabric, s.workload).replay(schedule);
  const Time healthy_end = healthy.steps.empty() ? Time::zero() : healthy.steps.back().end;
  Rng rng(seed * 0x9e3779b97f4a7c15ULL + 55);
  s.fabric.failures = failure_loss_random_failures(rng, s.fabric, healthy_end);
  std::string description = s.describe() + failure_loss_describe(s.fabric.failures);
  return {std::move(s), std::move(schedule), std::move(description)};
}

// The model's own invariants on the property test's timelines: it completes
// or stops (never hangs nor breaks); a completed run resends exactly the
// bytes it dropped (every byte cut is accepted once or dropped); a loss
// always rewinds and a rewind always follows a loss.
TEST(FailureLossModel, RandomTimelinesCompleteOrStopAndResendWhatTheyDrop) {
  uint64_t lost = 0;
  uint64_t rewinds = 0;
  uint64_t stopped = 0;
  for (uint64_t seed = 1; seed <= kFailureLossCases; ++seed) {
    const FailureLossScenario c = failure_loss_scenario(seed);
    const reference::FailureReplay r =
        reference::ReferenceFailures(c.scenario.fabric, c.scenario.workload).replay(c.schedule);
    const reference::FailureTotals& t = r.totals;
    if (r.cannot_complete) {
      ++stopped;
      ASSERT_EQ(r.cannot_complete->rfind("cannot complete: ", 0), 0U) << *r.cannot_complete;
      continue;
    }
    ASSERT_EQ(r.steps.size(), c.schedule.steps().size()) << "seed " << seed << "\n" << c.description;
    ASSERT_EQ(t.dropped_bytes, t.resent_bytes) << "seed " << seed << "\n" << c.description;
    ASSERT_GE(t.dropped_packets, t.lost_packets) << "seed " << seed << "\n" << c.description;
    ASSERT_EQ(t.lost_packets > 0, t.rewinds > 0) << "seed " << seed << "\n" << c.description;
    ASSERT_LE(t.rewinds, t.lost_packets) << "seed " << seed << "\n" << c.description;
    lost += t.lost_packets;
    rewinds += t.rewinds;
  }
  EXPECT_GT(lost, kFailureLossCases);
  EXPECT_GT(rewinds, kFailureLossCases / 4);
  EXPECT_GT(stopped, 10U);
  std::cout << lost << " packets lost, " << rewinds << " rewinds, " << stopped << " runs that cannot complete in "
            << kFailureLossCases << " timelines\n";
}

TEST(FailureLoss, EngineAgreesWithTheReferenceModelOnRandomFailureTimelines) {
  uint64_t lost = 0;
  uint64_t rewinds = 0;
  uint64_t stopped = 0;
  for (uint64_t seed = 1; seed <= kFailureLossCases; ++seed) {
    const FailureLossScenario c = failure_loss_scenario(seed);
    const random_schedules::Scenario& s = c.scenario;
    const Schedule& schedule = c.schedule;
    const std::string& scenario = c.description;

    const reference::FailureReplay expected = reference::ReferenceFailures(s.fabric, s.workload).replay(schedule);
    std::optional<RunResult> engine;
    std::optional<std::string> refused;
    try {
      engine = run_schedule(s.fabric, s.workload, schedule);
    } catch (const Error& e) {
      refused = e.what();
    } catch (const std::exception& e) {
      FAIL() << "seed " << seed << ": the engine threw " << e.what() << "\n" << scenario;
    }
    if (expected.cannot_complete) {
      ++stopped;
      ASSERT_TRUE(refused) << "seed " << seed << ": the model stops (" << *expected.cannot_complete
                           << ") but the engine completes\n"
                           << scenario;
      ASSERT_EQ(refused->rfind("cannot complete:", 0), 0U)
          << "seed " << seed << ": the engine refused with " << *refused
          << "\n  the model: " << *expected.cannot_complete << "\n"
          << scenario;
      continue;
    }
    ASSERT_FALSE(refused) << "seed " << seed << ": the engine refused: " << *refused << "\n" << scenario;
    ASSERT_EQ(engine->steps.size(), expected.steps.size()) << "seed " << seed << "\n" << scenario;
    for (size_t i = 0; i < expected.steps.size(); ++i) {
      ASSERT_EQ(engine->steps[i].begin, expected.steps[i].begin)
          << "seed " << seed << ", step " << i << " begins differently\n"
          << scenario;
      ASSERT_EQ(engine->steps[i].end, expected.steps[i].end)
          << "seed " << seed << ", step " << i << " ends differently\n"
          << scenario;
    }
    const NetworkStats& n = engine->network;
    const reference::FailureTotals& t = expected.totals;
    ASSERT_EQ(n.packet_hops, t.packet_hops) << "seed " << seed << "\n" << scenario;
    ASSERT_EQ(n.packets_lost, t.lost_packets) << "seed " << seed << "\n" << scenario;
    ASSERT_EQ(n.bytes_lost, t.lost_bytes) << "seed " << seed << "\n" << scenario;
    ASSERT_EQ(n.packets_dropped, t.dropped_packets) << "seed " << seed << "\n" << scenario;
    ASSERT_EQ(n.bytes_dropped, t.dropped_bytes) << "seed " << seed << "\n" << scenario;
    ASSERT_EQ(n.bytes_resent, t.resent_bytes) << "seed " << seed << "\n" << scenario;
    ASSERT_EQ(n.rewinds, t.rewinds) << "seed " << seed << "\n" << scenario;
    ASSERT_EQ(n.waited, t.waited) << "seed " << seed << "\n" << scenario;
    lost += t.lost_packets;
    rewinds += t.rewinds;
  }
  // The timelines do lose packets, rewind and stop runs.
  std::cout << lost << " packets lost, " << rewinds << " rewinds, " << stopped << " runs that cannot complete in "
            << kFailureLossCases << " timelines\n";
}

}  // namespace
}  // namespace photonsim
