// fabric.failures kinds port, flap and switch (docs/model.md, "Lost
// circuits", L1-L8): packets crossing a circuit while it is down are lost,
// the flow learns after the detection time, rewinds to the first byte not
// accepted and resends once its route is back; a route down for good ends
// the run with "cannot complete". Hand-computed times: 800 Gbps (10 ns per
// 1000 B packet), 5 ns per hop, store-and-forward, 4000 B in 1000 B packets.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "sim/engine/schedule_execution.h"
#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

Failure lost_port(int gpu, int port, int64_t at_ns, std::optional<int64_t> for_ns,
                  FailureKind kind = FailureKind::port) {
  Failure f;
  f.kind = kind;
  f.gpu = gpu;
  f.port = port;
  f.at = Time::ns(at_ns);
  if (for_ns) f.duration = Time::ns(*for_ns);
  return f;
}

FabricSpec lossy_fabric(std::vector<Failure> failures, int ports = 1) {
  FabricSpec f = fabric(4, ports);
  f.latency = Time::ns(5);
  f.packet = Bytes(1000);
  f.failures.entries = std::move(failures);
  f.failures.detection = Time::ns(20);
  f.failures.on_failure = FailurePolicy::wait;
  return f;
}

const Topology& lossy_ring() {
  static const Topology ring("ring", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  return ring;
}

Schedule one_transfer(Transfer t, const Topology& topology) {
  return schedule(4, {topology}, {Step{0, {std::move(t)}}});
}

// The packet engine (which runs the reference under these failures) and the reference itself.
std::vector<RunResult> both_engines(const FabricSpec& f, const Schedule& s) {
  FabricSpec reference = f;
  reference.packet_engine = PacketEngine::reference;
  return {run_schedule(f, workload(Bytes(4000)), s), run_schedule(reference, workload(Bytes(4000)), s)};
}

// The worked case of docs/model.md: packets 0 and 1 land at 15 and 25 ns;
// 2 and 3 cross [20, 35) and [30, 45), meet the failure at 25 ns and are
// lost; the flow learns at 25 + 20 = 45 ns, the circuit is known down until
// 125 ns, so packets 2 and 3 go again at 125 and 135 ns: 150 ns.
TEST(FailureLoss, PortFailingMidTransferLosesDetectsAndResumes) {
  const FabricSpec f = lossy_fabric({lost_port(0, 0, 25, 100)});
  for (const RunResult& r : both_engines(f, one_transfer(transfer(0, 1, 4000), lossy_ring()))) {
    EXPECT_EQ(r.completion, Time::ns(150));
    EXPECT_EQ(r.network.packet_hops, 6u);
    EXPECT_EQ(r.network.packets_lost, 2u);
    EXPECT_EQ(r.network.bytes_lost, 2000);
    EXPECT_EQ(r.network.bytes_resent, 2000);
    EXPECT_EQ(r.network.bytes_delivered, 4000);
    EXPECT_EQ(r.network.rewinds, 1u);
    EXPECT_EQ(r.network.waited, Time::ns(80));
  }
  FabricSpec healthy = f;
  healthy.failures = FailureSpec{};
  EXPECT_EQ(run_schedule(healthy, workload(Bytes(4000)), one_transfer(transfer(0, 1, 4000), lossy_ring())).completion,
            Time::ns(45));
}

// A flap of 10 ns, shorter than the 20 ns detection: the same two packets
// are lost, the flow learns at 45 ns, the circuit is up again, so it resends
// at once: packets 2 and 3 at 45 and 55 ns, the last landing at 70 ns.
TEST(FailureLoss, AFlapShorterThanTheDetectionIsSeenOnlyByItsLosses) {
  const FabricSpec f = lossy_fabric({lost_port(0, 0, 25, 10, FailureKind::flap)});
  for (const RunResult& r : both_engines(f, one_transfer(transfer(0, 1, 4000), lossy_ring()))) {
    EXPECT_EQ(r.completion, Time::ns(70));
    EXPECT_EQ(r.network.packets_lost, 2u);
    EXPECT_EQ(r.network.waited, Time::zero());
  }
}

// Two hops, 0 -> 1 -> 2; GPU 2's port fails at 38 ns for 100 ns, taking the
// second circuit down. Hop 2 carries packet k over [15 + 10k, 30 + 10k):
// packet 0 lands at 30 ns; 1, 2 and 3 are lost. Packet 1 was sent at 25 ns,
// so the flow learns at 38 + 20 = 58 ns; packet 3, still on the wire, is let
// go; the circuit is known down until 138 ns, when packets 1..3 leave GPU 0
// again: on hop 2 over [153, 163), [163, 173), [173, 183) ns: 188 ns.
TEST(FailureLoss, ALossOnTheSecondHopResendsFromTheSource) {
  const FabricSpec f = lossy_fabric({lost_port(2, 0, 38, 100)});
  const Topology line4 = line(4);
  for (const RunResult& r : both_engines(f, one_transfer(transfer(0, 2, 4000, {0, 1, 2}), line4))) {
    EXPECT_EQ(r.completion, Time::ns(188));
    EXPECT_EQ(r.network.packet_hops, 14u);  // 8, then 3 packets x 2 hops
    EXPECT_EQ(r.network.packets_lost, 3u);
    EXPECT_EQ(r.network.bytes_resent, 3000);
    EXPECT_EQ(r.network.packets_dropped, 3u);
  }
}

void expect_cannot_complete(const FabricSpec& f, const Schedule& s, const std::string& message) {
  for (const bool reference : {false, true}) {
    FabricSpec g = f;
    if (reference) g.packet_engine = PacketEngine::reference;
    try {
      run_schedule(g, workload(Bytes(4000)), s);
      ADD_FAILURE() << "the run completed";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).substr(0, message.size()), message) << e.what();
    }
  }
}

// The one switch fails for good at 25 ns: GPU 0 keeps no working port, and
// the run stops when the flow learns of its losses instead of waiting forever.
TEST(FailureLoss, ASwitchDownForGoodLeavesTheGpuWithNoWorkingPort) {
  Failure down;
  down.kind = FailureKind::optical_switch;
  down.optical_switch = 0;
  down.at = Time::ns(25);
  expect_cannot_complete(lossy_fabric({down}), one_transfer(transfer(0, 1, 4000), lossy_ring()),
                         "cannot complete: GPU 0 has no working port");
}

// With two ports GPU 0 keeps one, but under on_failure: wait the transfer
// waits for its own circuit, down for good.
TEST(FailureLoss, UnderWaitATransferWhoseCircuitIsDownForGoodCannotComplete) {
  const Topology one_way("one_way", 4, {{0, 1}});
  expect_cannot_complete(lossy_fabric({lost_port(0, 0, 25, std::nullopt), lost_port(0, 1, 25, std::nullopt)}, 2),
                         one_transfer(transfer(0, 1, 4000), one_way), "cannot complete: GPU 0 has no working port");
  expect_cannot_complete(lossy_fabric({lost_port(0, 0, 25, std::nullopt), lost_port(1, 0, 25, std::nullopt)}, 2),
                         one_transfer(transfer(0, 1, 4000), one_way),
                         "cannot complete: the transfer from GPU 0 to GPU 1 waits for the circuit GPU 0 port 0 -> "
                         "GPU 1, down until the end (fabric.failures[0])");
}

// A flow that starts while its route is known down waits for it (L7): the
// port is down over [0, 100) ns, known from 20 ns; the transfer of step 1
// starts at... here the only step starts at 0, before the failure is known,
// so its first packet is lost and it learns at 20 ns; it then waits until
// 100 ns and sends the four packets at 100 .. 140 ns: 145 ns.
TEST(FailureLoss, AFailureFromTimeZeroIsLearnedAfterTheDetection) {
  const FabricSpec f = lossy_fabric({lost_port(0, 0, 0, 100)});
  for (const RunResult& r : both_engines(f, one_transfer(transfer(0, 1, 4000), lossy_ring()))) {
    EXPECT_EQ(r.completion, Time::ns(145));
    EXPECT_EQ(r.network.packets_lost, 2u);  // sent at 0 and 10 ns; the flow learns at 20 ns
    EXPECT_EQ(r.network.waited, Time::ns(80));
  }
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

using namespace testing_support;

// fabric.failures kind link (docs/model.md, "A degraded link"): port 0 of
// GPU 0 (or of GPU 1, the far end: the circuit is as slow as its slower
// end) runs at 400 Gbps over [15, 35) ns. Packet 0 is sent at 0 and packet
// 1 at 10 ns at the full rate (10 ns each); packet 2 starts at 20 ns, inside
// the span, and takes 20 ns; packet 3 starts at 40 ns, after it: 10 ns,
// landing at 55 ns (healthy: 45).
TEST(FailureLink, APacketStartingOnADegradedLinkTakesItsRate) {
  for (const int end : {0, 1}) {
    Failure slow;
    slow.kind = FailureKind::link;
    slow.gpu = end;
    slow.port = 0;
    slow.bandwidth = Bandwidth::bits_per_second(400'000'000'000);
    slow.at = Time::ns(15);
    slow.duration = Time::ns(20);
    FabricSpec f = lossy_fabric({slow});
    for (const RunResult& r : both_engines(f, one_transfer(transfer(0, 1, 4000), lossy_ring()))) {
      EXPECT_EQ(r.completion, Time::ns(55)) << "GPU " << end;
      EXPECT_EQ(r.network.packet_hops, 4u);
      EXPECT_EQ(r.network.packets_lost, 0u);
    }
  }
}

}  // namespace
}  // namespace photonsim
