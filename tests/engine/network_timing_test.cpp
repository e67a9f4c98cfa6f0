// Exact event timings of the packet engine on small cases, against closed forms.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/error.h"
#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

constexpr int64_t kPsPerByte = 10;  // 800 Gbps
const Time kLatency = Time::ns(500);

Time bytes_time(int64_t bytes) { return Time::ps(bytes * kPsPerByte); }

TEST(NetworkTiming, OnePacketOverOneLinkIsSerialisationPlusLatency) {
  const Schedule s = schedule(2, {line(2)}, {Step{0, {transfer(0, 1, 4096)}}});
  const RunResult r = replay(fabric(2), workload(Bytes(4096)), s);
  EXPECT_EQ(r.completion, bytes_time(4096) + kLatency);
  EXPECT_EQ(r.network.packets, 1u);
  EXPECT_EQ(r.network.packet_hops, 1u);
}

TEST(NetworkTiming, StoreAndForwardOverHopsMatchesClosedForm) {
  // m bytes in P packets of p over h hops: h*(L + p/B) + (P-1)*p/B.
  const int h = 4;
  const int64_t p = 1000, packets = 7;
  FabricSpec f = fabric(h + 1);
  f.packet = Bytes(p);
  const Schedule s = schedule(h + 1, {line(h + 1)}, {Step{0, {transfer(0, h, p * packets)}}});
  const RunResult r = replay(f, workload(Bytes(p * packets)), s);
  EXPECT_EQ(r.completion, (kLatency + bytes_time(p)) * h + bytes_time(p) * (packets - 1));
  EXPECT_EQ(r.network.packet_hops, static_cast<uint64_t>(h * packets));
}

TEST(NetworkTiming, CutThroughStreamsAtLineRate) {
  // Header 0: h*L + m/B whatever the packet size.
  const int h = 5;
  FabricSpec f = fabric(h + 1);
  f.router = RouterMode::cut_through;
  f.packet = Bytes(512);
  const int64_t m = 512 * 9 + 100;
  const Schedule s = schedule(h + 1, {line(h + 1)}, {Step{0, {transfer(0, h, m)}}});
  EXPECT_EQ(replay(f, workload(Bytes(m)), s).completion, kLatency * h + bytes_time(m));
}

TEST(NetworkTiming, CutThroughWaitsForTheHeaderAtEachHop) {
  // Header H: h*L + m/B + (h-1)*H/B.
  const int h = 3;
  FabricSpec f = fabric(h + 1);
  f.router = RouterMode::cut_through;
  f.header = Bytes(64);
  const int64_t m = 4096;
  const Schedule s = schedule(h + 1, {line(h + 1)}, {Step{0, {transfer(0, h, m)}}});
  EXPECT_EQ(replay(f, workload(Bytes(m)), s).completion, kLatency * h + bytes_time(m) + bytes_time(64) * (h - 1));
}

TEST(NetworkTiming, PacketEqualChunkGivesChunkLevelStoreAndForward) {
  // The all-to-all paper's T = latency + chunk/B per hop and chunk.
  const int h = 3;
  const int64_t chunk = 4'000'000;
  const Schedule s = schedule(h + 1, {line(h + 1)}, {Step{0, {transfer(0, h, chunk)}}});
  EXPECT_EQ(replay(fabric(h + 1), workload(Bytes(chunk), Bytes(chunk)), s).completion,
            (kLatency + bytes_time(chunk)) * h);
}

TEST(NetworkTiming, TwoFlowsSharingALinkTakeTwiceAsLong) {
  const int64_t m = 100'000;
  FabricSpec f = fabric(3);
  f.packet = Bytes(1000);
  // 0->2 and 1->2 share nothing on a line 0->1->2 except link 1->2; use explicit routes
  // through one shared link: both flows start at node 0 and go to node 1.
  const Schedule one = schedule(2, {line(2)}, {Step{0, {transfer(0, 1, m)}}});
  const Schedule two = schedule(2, {line(2)}, {Step{0, {transfer(0, 1, m), transfer(0, 1, m)}}});
  const Time t1 = replay(fabric(2), workload(Bytes(m)), one).completion - kLatency;
  const Time t2 = replay(fabric(2), workload(Bytes(m)), two).completion - kLatency;
  EXPECT_EQ(t2, t1 * 2);
}

TEST(NetworkTiming, ForwardedAndLocalFlowsShareTheEgress) {
  // 0->2 (through 1) and 1->2 meet on link 1->2: that link carries 2m.
  const int64_t m = 1'000'000;
  FabricSpec f = fabric(3);
  f.router = RouterMode::cut_through;
  f.packet = Bytes(1000);
  const Schedule s = schedule(3, {line(3)}, {Step{0, {transfer(0, 2, m), transfer(1, 2, m)}}});
  const RunResult r = replay(f, workload(Bytes(m)), s);
  EXPECT_EQ(r.completion, kLatency + bytes_time(2 * m));
}

TEST(NetworkTiming, ReconfigurationAddsExactlyAlphaRAfterTheBarrier) {
  const int64_t m = 50'000;
  const Topology forward("forward", 2, {{0, 1}});
  const Topology backward("backward", 2, {{1, 0}});
  const std::vector<Step> steps = {Step{0, {transfer(0, 1, m)}}, Step{1, {transfer(1, 0, m)}}};
  FabricSpec f = fabric(2);
  f.reconfig_delay = Time::us(7);
  const RunResult r = replay(f, workload(Bytes(m)), schedule(2, {forward, backward}, steps));
  const Time step = kLatency + bytes_time(m);
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].end, step);
  EXPECT_EQ(r.steps[1].begin, step);
  EXPECT_EQ(r.steps[1].reconfiguration, Time::us(7));
  EXPECT_EQ(r.completion, step * 2 + Time::us(7));
  EXPECT_EQ(r.reconfigurations, 1);
  EXPECT_EQ(r.reconfiguration_time, Time::us(7));
}

TEST(NetworkTiming, UnconfiguredStartChargesTheFirstConfiguration) {
  const int64_t m = 50'000;
  FabricSpec f = fabric(2);
  f.reconfig_delay = Time::us(3);
  const Schedule s = schedule(2, {line(2)}, {Step{0, {transfer(0, 1, m)}}}, /*initial=*/-1);
  const RunResult r = replay(f, workload(Bytes(m)), s);
  EXPECT_EQ(r.completion, Time::us(3) + kLatency + bytes_time(m));
  EXPECT_EQ(r.reconfigurations, 1);
}

TEST(NetworkTiming, SameCircuitsUnderAnotherNameDoNotReconfigure) {
  const Topology a("a", 2, {{0, 1}});
  const Topology b("b", 2, {{0, 1}});
  FabricSpec f = fabric(2);
  f.reconfig_delay = Time::us(5);
  const RunResult r = replay(f, workload(Bytes(10)),
                             schedule(2, {a, b}, {Step{0, {transfer(0, 1, 10)}}, Step{1, {transfer(0, 1, 10)}}}));
  EXPECT_EQ(r.reconfigurations, 0);
}

TEST(NetworkTiming, StepOverheadIsPaidOncePerStep) {
  FabricSpec f = fabric(2);
  f.step_overhead = Time::ns(1700);
  const std::vector<Step> steps(3, Step{0, {transfer(0, 1, 1000)}});
  const RunResult r = replay(f, workload(Bytes(1000)), schedule(2, {line(2)}, steps));
  EXPECT_EQ(r.completion, (Time::ns(1700) + kLatency + bytes_time(1000)) * 3);
}

TEST(NetworkTiming, SmallerChunkIndexGoesFirst) {
  // Line 0->1->2->3, L = 0, packet = chunk = S. Flow A 0->3 has one chunk, flow B
  // 1->2 two. At time S link 1->2 holds A's chunk 0 (just arrived) and B's own
  // chunk 1: the smaller index goes first, so A reaches 3 at 3S (own-first: 4S).
  FabricSpec f = fabric(4);
  f.latency = Time::zero();
  const int64_t chunk = 1000;
  const Schedule s = schedule(4, {line(4)}, {Step{0, {transfer(0, 3, chunk), transfer(1, 2, 2 * chunk)}}});
  const RunResult r = replay(f, workload(Bytes(2 * chunk), Bytes(chunk)), s);
  EXPECT_EQ(r.completion, bytes_time(3 * chunk));
}

TEST(NetworkTiming, MultipathSplitSendsEachShareOnItsRoute) {
  // Two disjoint 2-hop paths 0-1-3 and 0-2-3; cut-through streams each share.
  const Topology diamond("diamond", 4, {{0, 1}, {1, 3}, {0, 2}, {2, 3}});
  const int64_t m = 1'000'000;
  FabricSpec f = fabric(4, /*ports=*/2);
  f.router = RouterMode::cut_through;
  f.packet = Bytes(1000);
  Transfer split = transfer(0, 3, 2 * m);
  split.routes = {Route{{0, 1, 3}, Bytes(m)}, Route{{0, 2, 3}, Bytes(m)}};
  const RunResult halves = replay(f, workload(Bytes(2 * m)), schedule(4, {diamond}, {Step{0, {split}}}));
  EXPECT_EQ(halves.completion, kLatency * 2 + bytes_time(m));
  const RunResult whole = replay(f, workload(Bytes(2 * m)), schedule(4, {diamond}, {Step{0, {transfer(0, 3, 2 * m)}}}));
  EXPECT_EQ(whole.completion, kLatency * 2 + bytes_time(2 * m));
  EXPECT_EQ(halves.network.bytes_delivered, 2 * m);
}

TEST(NetworkTiming, RoutesMustCarryTheTransferBytes) {
  const Topology diamond("diamond", 4, {{0, 1}, {1, 3}, {0, 2}, {2, 3}});
  Transfer split = transfer(0, 3, 100);
  split.routes = {Route{{0, 1, 3}, Bytes(60)}, Route{{0, 2, 3}, Bytes(30)}};
  EXPECT_THROW(schedule(4, {diamond}, {Step{0, {split}}}), Error);
  split.routes = {Route{{0, 1, 2}, Bytes(100)}};
  EXPECT_THROW(schedule(4, {diamond}, {Step{0, {split}}}), Error);
}

TEST(NetworkTiming, BytesInjectedEqualBytesDelivered) {
  FabricSpec f = fabric(4);
  f.packet = Bytes(333);
  const Schedule s =
      schedule(4, {line(4)}, {Step{0, {transfer(0, 3, 10'000), transfer(1, 3, 7'777), transfer(0, 2, 1)}}});
  const RunResult r = replay(f, workload(Bytes(10'000), Bytes(1024)), s);
  EXPECT_EQ(r.network.bytes_injected, 10'000 + 7'777 + 1);
  EXPECT_EQ(r.network.bytes_delivered, r.network.bytes_injected);
}

TEST(NetworkTiming, ZeroByteTransfersCompleteAtStepStart) {
  FabricSpec f = fabric(2);
  f.step_overhead = Time::ns(10);
  const RunResult r = replay(f, workload(Bytes(1)), schedule(2, {line(2)}, {Step{0, {transfer(0, 1, 0)}}}));
  EXPECT_EQ(r.completion, Time::ns(10));
}

TEST(NetworkTiming, UnroutableTransferIsAnErrorNamingTheNodes) {
  const Schedule s = schedule(3, {line(3)}, {Step{0, {transfer(2, 0, 10)}}});
  try {
    replay(fabric(3), workload(Bytes(10)), s);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no route from node 2 to node 0"), std::string::npos) << e.what();
  }
}

TEST(NetworkTiming, ExplicitPathOverAMissingCircuitIsAnError) {
  const Schedule s = schedule(3, {line(3)}, {Step{0, {transfer(0, 2, 10, {0, 2})}}});
  try {
    replay(fabric(3), workload(Bytes(10)), s);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hop 0->2"), std::string::npos) << e.what();
  }
}

// The fit is checked once, before the engine (check_schedule_fits: the
// ReplayPrediction tests); handed one that does not fit anyway, the engine
// stops at its port assignment as a broken invariant, naming the node.
TEST(NetworkTiming, ConfigurationOverThePortLimitIsRejectedNamingTheNode) {
  const Topology star("star", 4, {{0, 1}, {0, 2}, {0, 3}});
  const Schedule s = schedule(4, {star}, {Step{0, {transfer(0, 1, 10)}}});
  try {
    replay(fabric(4, /*ports=*/2), workload(Bytes(10)), s);
    FAIL() << "expected an error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("node 0"), std::string::npos) << e.what();
  }
}

// fabric.bandwidth_scope: gpu (PCCL's hardware): 800 Gbps per GPU over two
// transmitters. A GPU with one circuit out gives it both (800 Gbps); with two
// circuits out each gets one (400 Gbps, 20 ps per byte).
FabricSpec split_fabric(int gpus) {
  FabricSpec f = fabric(gpus, /*ports=*/2);
  f.bandwidth_scope = BandwidthScope::gpu;
  return f;
}

TEST(NetworkTiming, SplitBandwidthGivesALonePeerTheWholeGpu) {
  const Schedule s = schedule(2, {line(2)}, {Step{0, {transfer(0, 1, 4096)}}});
  EXPECT_EQ(replay(split_fabric(2), workload(Bytes(4096)), s).completion, bytes_time(4096) + kLatency);
}

TEST(NetworkTiming, SplitBandwidthHalvesEachOfTwoCircuitsOut) {
  const Topology fork("fork", 3, {{0, 1}, {0, 2}});
  const Schedule s = schedule(3, {fork}, {Step{0, {transfer(0, 1, 4096)}}});
  EXPECT_EQ(replay(split_fabric(3), workload(Bytes(4096)), s).completion, bytes_time(4096) * 2 + kLatency);
}

TEST(NetworkTiming, SplitBandwidthStoreAndForwardIsPacedByTheSlowerCircuit) {
  // 0 -> 1 at 800 Gbps (GPU 0's one circuit), 1 -> 2 at 400 Gbps (GPU 1 has
  // two out): P packets of p: p/B + 2 L + P * 2p/B.
  const Topology path("path", 4, {{0, 1}, {1, 2}, {1, 3}});
  const int64_t p = 1000, packets = 5;
  FabricSpec f = split_fabric(4);
  f.packet = Bytes(p);
  const Schedule s = schedule(4, {path}, {Step{0, {transfer(0, 2, p * packets)}}});
  EXPECT_EQ(replay(f, workload(Bytes(p * packets)), s).completion,
            bytes_time(p) + kLatency * 2 + bytes_time(2 * p) * packets);
}

}  // namespace
}  // namespace photonsim
