#include "schedules/cost/alpha_beta_congestion_model.h"

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.h"
#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {

namespace {

using testing_support::test_fabric;
using testing_support::test_workload;

const Bandwidth k800G = Bandwidth::bits_per_second(testing_support::k800GbpsInBitsPerSecond);

SynthesisSpec alpha_beta_congestion_model_synthesis(const std::string& algorithm, const std::string& planner,
                                                    const std::string& topology,
                                                    std::optional<std::string> static_topology = std::nullopt) {
  SynthesisSpec s;
  s.algorithm = algorithm;
  s.planner = planner;
  s.topology.type = topology;
  if (static_topology) s.static_topology = TopologySpec{*static_topology, {}};
  return s;
}

Schedule synth(const FabricSpec& f, const WorkloadSpec& w, const SynthesisSpec& s) {
  return SynthesizerRegistry::with_builtins().synthesize(f, w, s);
}

Topology uni_ring(int n) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
  return Topology("ring", n, e);
}

Transfer xfer(Node src, Node dst, int64_t bytes) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.bytes = Bytes(bytes);
  t.blocks = {0};
  return t;
}

// A one-step schedule on `topology` (already in place, so no reconfiguration).
Schedule one_step(const Topology& topology, std::vector<Transfer> transfers) {
  ScheduleParts p;
  p.gpus = topology.gpus();
  p.message = Bytes(4000000);
  p.initial_topology = 0;
  p.topologies = {topology};
  p.steps = {Step{0, std::move(transfers)}};
  return Schedule(std::move(p));
}

TEST(AlphaBetaCongestion, DirectOnUnidirectionalRingStoreAndForward) {
  // T = latency + chunk/B = 0.5us + 40us; total = T * n(n-1)/2.
  const int n = 8;
  const FabricSpec f = test_fabric(n);
  const WorkloadSpec w = test_workload(Collective::alltoall, 4000000);
  const Schedule s = synth(f, w, alpha_beta_congestion_model_synthesis("direct", "", "ring"));
  const Prediction p = predict_alpha_beta_congestion(s, f, w);
  EXPECT_EQ(p.model, "alpha_beta_congestion");
  ASSERT_EQ(p.steps.size(), size_t{7});
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const int64_t h = static_cast<int64_t>(i) + 1;
    EXPECT_EQ(p.steps[i].reconfiguration, Time::zero());
    EXPECT_EQ(p.steps[i].startup, Time::zero());
    EXPECT_EQ(p.steps[i].propagation, Time::ns(500) * h) << "step " << i;
    EXPECT_EQ(p.steps[i].transmission, Time::us(40) * h) << "step " << i;
  }
  EXPECT_EQ(p.total(), Time::ns(40500) * 28);
  // The synthesizer attaches the same prediction.
  EXPECT_EQ(s.prediction().total(), Time::ns(40500) * 28);
  EXPECT_EQ(s.prediction().model, "alpha_beta_congestion");
}

TEST(AlphaBetaCongestion, ClosedFormForSeveralRingSizes) {
  for (int n : {2, 3, 5, 8, 12}) {
    const FabricSpec f = test_fabric(n);
    const WorkloadSpec w = test_workload(Collective::alltoall, 4000000);
    const Schedule s = synth(f, w, alpha_beta_congestion_model_synthesis("direct", "", "ring"));
    EXPECT_EQ(s.prediction().total(), Time::ns(40500) * (n * (n - 1) / 2)) << "n=" << n;
  }
}

TEST(AlphaBetaCongestion, UnconfiguredStartPaysOneReconfiguration) {
  const int n = 8;
  FabricSpec f = test_fabric(n);
  f.reconfig_delay = Time::us(25);
  const WorkloadSpec w = test_workload(Collective::alltoall, 4000000);
  const Schedule s = synth(f, w, alpha_beta_congestion_model_synthesis("direct", "static", "none", "ring"));
  const Prediction& p = s.prediction();
  ASSERT_EQ(p.steps.size(), size_t{7});
  EXPECT_EQ(p.steps[0].reconfiguration, Time::us(25));
  for (size_t i = 1; i < p.steps.size(); ++i) EXPECT_EQ(p.steps[i].reconfiguration, Time::zero());
  EXPECT_EQ(p.total(), Time::ns(40500) * 28 + Time::us(25));
  // Starting on the ring pays nothing.
  EXPECT_EQ(synth(f, w, alpha_beta_congestion_model_synthesis("direct", "static", "ring")).prediction().total(),
            Time::ns(40500) * 28);
}

TEST(AlphaBetaCongestion, StepOverheadOncePerStep) {
  const int n = 8;
  FabricSpec f = test_fabric(n);
  f.step_overhead = Time::ns(10);
  const WorkloadSpec w = test_workload(Collective::alltoall, 4000000);
  const Prediction p = synth(f, w, alpha_beta_congestion_model_synthesis("direct", "", "ring")).prediction();
  for (const StepPrediction& sp : p.steps) EXPECT_EQ(sp.startup, Time::ns(10));
  EXPECT_EQ(p.total(), Time::ns(40500) * 28 + Time::ns(10) * 7);
}

TEST(AlphaBetaCongestion, DirectOnBidirectionalRing) {
  // Round h: every directed circuit carries h flows: h * (latency + m/B).
  const FabricSpec f = test_fabric(8, 2, CircuitKind::bidirectional);
  const WorkloadSpec w = test_workload(Collective::alltoall, 4000000);
  const Prediction p = synth(f, w, alpha_beta_congestion_model_synthesis("direct", "", "ring")).prediction();
  ASSERT_EQ(p.steps.size(), size_t{4});
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(p.steps[i].total(), Time::ns(40500) * (static_cast<int64_t>(i) + 1)) << "step " << i;
  }
  EXPECT_EQ(p.total(), Time::ns(40500) * 10);
}

TEST(AlphaBetaCongestion, RingAllreduce) {
  // 2(n-1) * (latency + (m/n)/B).
  const int n = 8;
  const FabricSpec f = test_fabric(n);
  const WorkloadSpec w = test_workload(Collective::allreduce, 4000000);
  const Prediction p = synth(f, w, alpha_beta_congestion_model_synthesis("ring", "", "ring")).prediction();
  ASSERT_EQ(p.steps.size(), size_t{14});
  for (const StepPrediction& sp : p.steps) {
    EXPECT_EQ(sp.propagation, Time::ns(500));
    EXPECT_EQ(sp.transmission, Time::us(5));
  }
  EXPECT_EQ(p.total(), Time::ns(5500) * 14);
}

TEST(AlphaBetaCongestion, RingAllreduceUnevenBlocksUseTheLargest) {
  // 4000003 B over 8 blocks: three blocks of 500001 B; each step carries one of them.
  const FabricSpec f = test_fabric(8);
  const WorkloadSpec w = test_workload(Collective::allreduce, 4000003);
  const Prediction p = synth(f, w, alpha_beta_congestion_model_synthesis("ring", "", "ring")).prediction();
  ASSERT_EQ(p.steps.size(), size_t{14});
  const Time big = k800G.serialization(Bytes(500001));
  EXPECT_EQ(big, Time::ps(5000010));
  for (const StepPrediction& sp : p.steps) EXPECT_EQ(sp.transmission, big);
  EXPECT_EQ(p.total(), (Time::ns(500) + big) * 14);
}

TEST(AlphaBetaCongestion, ReduceScatterAndAllGatherAreHalf) {
  const FabricSpec f = test_fabric(8);
  for (Collective c : {Collective::reducescatter, Collective::allgather}) {
    const Prediction p =
        synth(f, test_workload(c, 4000000), alpha_beta_congestion_model_synthesis("ring", "", "ring")).prediction();
    EXPECT_EQ(p.steps.size(), size_t{7});
    EXPECT_EQ(p.total(), Time::ns(5500) * 7);
  }
}

TEST(AlphaBetaCongestion, BinomialEveryStepFromUnconfigured) {
  // ceil(log2 n) * (alpha_r + latency + m/B).
  for (int n : {2, 5, 8, 13}) {
    FabricSpec f = test_fabric(n);
    f.reconfig_delay = Time::us(3);
    const WorkloadSpec w = test_workload(Collective::broadcast, 4000000, 1);
    const Prediction p =
        synth(f, w, alpha_beta_congestion_model_synthesis("binomial", "every_step", "none")).prediction();
    int steps = 0;
    while ((1 << steps) < n) ++steps;
    ASSERT_EQ(p.steps.size(), static_cast<size_t>(steps));
    for (const StepPrediction& sp : p.steps) EXPECT_EQ(sp.reconfiguration, Time::us(3));
    EXPECT_EQ(p.total(), (Time::us(3) + Time::ns(500) + Time::us(40)) * steps) << "n=" << n;
  }
}

TEST(AlphaBetaCongestion, CutThroughSingleMultiHopFlow) {
  // hops * latency + m/B + (hops - 1) * header/B.
  FabricSpec f = test_fabric(8);
  f.router = RouterMode::cut_through;
  f.header = Bytes(64);
  const WorkloadSpec w = test_workload(Collective::alltoall, 4000000);
  for (Node dst : {Node{1}, Node{3}, Node{7}}) {
    const Schedule s = one_step(uni_ring(8), {xfer(0, dst, 4000000)});
    const Prediction p = predict_alpha_beta_congestion(s, f, w);
    ASSERT_EQ(p.steps.size(), size_t{1});
    const int64_t hops = dst;
    EXPECT_EQ(p.steps[0].propagation, Time::ns(500) * hops);
    EXPECT_EQ(p.steps[0].transmission, Time::us(40) + Time::ps(640) * (hops - 1));
    EXPECT_EQ(p.total(), Time::ns(500) * hops + Time::us(40) + Time::ps(640) * (hops - 1));
  }
}

TEST(AlphaBetaCongestion, CutThroughHeaderLargerThanPacketUsesPacket) {
  FabricSpec f = test_fabric(8);
  f.router = RouterMode::cut_through;
  f.packet = Bytes(4096);
  f.header = Bytes(8192);
  const Schedule s = one_step(uni_ring(8), {xfer(0, 3, 4000000)});
  const Prediction p = predict_alpha_beta_congestion(s, f, test_workload(Collective::alltoall, 4000000));
  EXPECT_EQ(p.steps[0].transmission, Time::us(40) + Time::ps(40960) * 2);
}

TEST(AlphaBetaCongestion, StoreAndForwardPacketsPipeline) {
  // Store-and-forward in 4 KiB packets: fill is (hops - 1) packet times.
  FabricSpec f = test_fabric(8);
  f.packet = Bytes(4096);
  const Schedule s = one_step(uni_ring(8), {xfer(0, 3, 4000000)});
  const Prediction p = predict_alpha_beta_congestion(s, f, test_workload(Collective::alltoall, 4000000));
  EXPECT_EQ(p.steps[0].propagation, Time::ns(1500));
  EXPECT_EQ(p.steps[0].transmission, Time::us(40) + Time::ps(40960) * 2);
}

TEST(AlphaBetaCongestion, ChunksAreTheForwardingUnitWithoutPackets) {
  FabricSpec f = test_fabric(8);
  WorkloadSpec w = test_workload(Collective::alltoall, 4000000);
  w.chunk = Bytes(1000000);
  const Schedule s = one_step(uni_ring(8), {xfer(0, 4, 4000000)});
  const Prediction p = predict_alpha_beta_congestion(s, f, w);
  // 4 hops, chunk 10us: 40us + 3 * 10us.
  EXPECT_EQ(p.steps[0].transmission, Time::us(70));
}

TEST(AlphaBetaCongestion, CongestionDominatesWhenCircuitsAreShared) {
  FabricSpec f = test_fabric(8);
  f.packet = Bytes(4096);
  // Both flows cross circuit 1->2: it is busy 80us (+ one latency = 80.5us); the
  // 3-hop flow alone needs only 3 * 0.5us + 40us + 2 * 40.96ns. Congestion wins,
  // and its breakdown is one latency of propagation plus the busy time.
  const Schedule s = one_step(uni_ring(8), {xfer(0, 3, 4000000), xfer(1, 2, 4000000)});
  const Prediction p = predict_alpha_beta_congestion(s, f, test_workload(Collective::alltoall, 4000000));
  EXPECT_EQ(p.steps[0].transmission, Time::us(80));
  EXPECT_EQ(p.steps[0].propagation, Time::ns(500));
  EXPECT_EQ(p.total(), Time::ns(80500));
}

TEST(AlphaBetaCongestion, SlowestTransferWinsWhenItExceedsCongestion) {
  // Same two flows, but the 1-hop one is tiny: the busiest circuit (1->2) is busy
  // 10us + 10ns (+ 0.5us latency), below the 1 MB flow's own 3 * (0.5us + 10us).
  FabricSpec f = test_fabric(8);
  const Schedule s = one_step(uni_ring(8), {xfer(0, 3, 1000000), xfer(1, 2, 1000)});
  const Prediction p = predict_alpha_beta_congestion(s, f, test_workload(Collective::alltoall, 1000000));
  // Store-and-forward, one packet: 3 hops * (0.5us + 10us).
  EXPECT_EQ(p.steps[0].propagation, Time::ns(1500));
  EXPECT_EQ(p.steps[0].transmission, Time::us(30));
}

TEST(AlphaBetaCongestion, DirectWithSeveralChunksPerFlow) {
  // Round h: every circuit carries h flows of c = 4 chunks: congestion h * 40us
  // plus one latency beats the slowest flow (h * 0.5us + 40us + (h - 1) * 10us).
  const int n = 8;
  const FabricSpec f = test_fabric(n);
  WorkloadSpec w = test_workload(Collective::alltoall, 4000000);
  w.chunk = Bytes(1000000);
  const Schedule s = synth(f, w, alpha_beta_congestion_model_synthesis("direct", "", "ring"));
  const Prediction& p = s.prediction();
  ASSERT_EQ(p.steps.size(), size_t{7});
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const int64_t h = static_cast<int64_t>(i) + 1;
    EXPECT_EQ(p.steps[i].total(), Time::us(40) * h + Time::ns(500)) << "round " << h;
  }
  for (size_t i = 1; i < p.steps.size(); ++i) {
    EXPECT_EQ(p.steps[i].propagation, Time::ns(500));
    EXPECT_EQ(p.steps[i].transmission, Time::us(40) * (static_cast<int64_t>(i) + 1));
  }
  EXPECT_EQ(p.total(), Time::us(40) * 28 + Time::ns(500) * 7);
}

TEST(AlphaBetaCongestion, ZeroByteTransfersCostNothing) {
  const FabricSpec f = test_fabric(8);
  const Schedule s = one_step(uni_ring(8), {xfer(0, 5, 0)});
  const Prediction p = predict_alpha_beta_congestion(s, f, test_workload(Collective::alltoall, 0));
  ASSERT_EQ(p.steps.size(), size_t{1});
  EXPECT_EQ(p.steps[0].total(), Time::zero());
}

TEST(AlphaBetaCongestion, ParallelCircuitsShareTheLoad) {
  const FabricSpec f = test_fabric(2, 2);
  const WorkloadSpec w = test_workload(Collective::alltoall, 4000000);
  const Topology doubled("doubled", 2, {{0, 1}, {0, 1}, {1, 0}});
  const Topology single("single", 2, {{0, 1}, {1, 0}});
  const std::vector<Transfer> two{xfer(0, 1, 4000000), xfer(0, 1, 4000000)};
  EXPECT_EQ(predict_alpha_beta_congestion(one_step(doubled, two), f, w).steps[0].transmission, Time::us(40));
  EXPECT_EQ(predict_alpha_beta_congestion(one_step(single, two), f, w).steps[0].transmission, Time::us(80));
}

TEST(AlphaBetaCongestion, ExplicitPathIsFollowed) {
  const FabricSpec f = test_fabric(4, 2);
  const Topology t("t", 4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {3, 0}});
  Transfer x = xfer(0, 3, 4000000);
  x.path = {0, 1, 2, 3};  // long way round instead of the direct circuit
  const Prediction p = predict_alpha_beta_congestion(one_step(t, {x}), f, test_workload(Collective::alltoall, 1));
  EXPECT_EQ(p.steps[0].propagation, Time::ns(1500));
  EXPECT_EQ(p.steps[0].transmission, Time::us(120));
}

TEST(AlphaBetaCongestion, UnroutableStepThrowsNamingStep) {
  const FabricSpec f = test_fabric(4);
  const Topology split("split", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  try {
    predict_alpha_beta_congestion(one_step(split, {xfer(0, 2, 10)}), f, test_workload(Collective::alltoall, 10));
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("step 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("0->2"), std::string::npos) << msg;
  }
}

// Routes stream through the loads one at a time, yet an unroutable transfer
// is still reported before an earlier transfer's overflow, as when every
// transfer was routed first.
TEST(AlphaBetaCongestion, UnroutableTransferIsReportedBeforeAnOverflow) {
  const FabricSpec f = test_fabric(4);
  const Topology split("split", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  const int64_t huge = int64_t{1} << 60;  // bytes whose serialisation passes the largest Time
  const WorkloadSpec w = test_workload(Collective::alltoall, 10);
  const auto error = [&](std::vector<Transfer> transfers) {
    try {
      predict_alpha_beta_congestion(one_step(split, std::move(transfers)), f, w);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error({xfer(0, 1, huge)}).find("exceeds the simulated time range"), std::string::npos);
  const std::string both = error({xfer(0, 1, huge), xfer(0, 2, 10)});
  EXPECT_NE(both.find("unroutable transfer 0->2"), std::string::npos) << both;
}

// fabric.bandwidth_scope: gpu: the step's circuits at their split rates.
// A fork 0 -> 1, 0 -> 2 on 2 ports gives each circuit one transmitter, 400 Gbps.
TEST(AlphaBetaCongestion, SplitBandwidthSerialisesEachCircuitAtItsShare) {
  FabricSpec f = test_fabric(3, 2);
  f.bandwidth_scope = BandwidthScope::gpu;
  const Topology fork("fork", 3, {{0, 1}, {0, 2}});
  Transfer t;
  t.src = 0;
  t.dst = 1;
  t.bytes = Bytes(4096);
  const StepPrediction p =
      predict_alpha_beta_congestion_step(Step{0, {t}}, fork, 0, f, test_workload(Collective::alltoall, 4096));
  EXPECT_EQ(p.transmission, Time::ps(4096 * 20));
  EXPECT_EQ(p.propagation, f.latency);
}

TEST(AlphaBetaCongestion, SplitBandwidthIsRefusedWhereAModelAssumesOneRate) {
  FabricSpec f = test_fabric(8, 1);
  f.bandwidth_scope = BandwidthScope::gpu;
  const auto expect_refused = [&](Collective collective, const SynthesisSpec& s, const std::string& what) {
    try {
      synth(f, test_workload(collective, 64 * 1024), s);
      FAIL() << what << " ran under bandwidth_scope gpu";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("bandwidth_scope"), std::string::npos) << e.what();
    }
  };
  expect_refused(Collective::alltoall, alpha_beta_congestion_model_synthesis("rdc", "joint", "none"),
                 "rdc's closed-form search");
  expect_refused(Collective::allreduce, alpha_beta_congestion_model_synthesis("recursive_doubling", "harvest", "ring"),
                 "Harvest's cost");
}

}  // namespace
}  // namespace photonsim
