// The fidelity backends behind one interface (sim/engine/backend/), on a
// schedule worked by hand: 4000 B from GPU 0 to GPU 2 over the directed ring
// 0 -> 1 -> 2 -> 0, 800 Gbps (10 ps per byte), 500 ns per hop,
// store-and-forward, 1000 B packets.
#include "sim/engine/backend/execution_backend.h"

#include <gtest/gtest.h>

#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

using testing_support::test_fabric;

Schedule two_hop_schedule() {
  ScheduleParts parts;
  parts.algorithm = "hand";
  parts.planner = "static";
  parts.gpus = 3;
  parts.message = Bytes(4000);
  parts.topologies = {Topology("ring", 3, {{0, 1}, {1, 2}, {2, 0}})};
  parts.initial_topology = 0;
  Transfer t;
  t.src = 0;
  t.dst = 2;
  t.bytes = Bytes(4000);
  parts.steps = {Step{0, {t}}};
  Prediction prediction;
  prediction.model = "hand";
  prediction.steps = {StepPrediction{Time::zero(), Time::zero(), Time::ns(1000), Time::ns(77)}};
  return Schedule(std::move(parts)).with_prediction(std::move(prediction));
}

FabricSpec packet_fabric() {
  FabricSpec fabric = test_fabric(3);
  fabric.packet = Bytes(1000);
  return fabric;
}

WorkloadSpec execution_backend_workload() {
  WorkloadSpec w;
  w.message = Bytes(4000);
  return w;
}

TEST(ExecutionBackend, EachFidelityHasItsBackend) {
  for (const Fidelity f : {Fidelity::packet, Fidelity::chunk, Fidelity::analytical}) {
    EXPECT_EQ(backend_for(f)->fidelity(), f);
  }
  EXPECT_TRUE(backend_for(Fidelity::packet)->simulates());
  EXPECT_TRUE(backend_for(Fidelity::chunk)->simulates());
  EXPECT_FALSE(backend_for(Fidelity::analytical)->simulates());
}

// Packets pipeline over the two hops: the last of four leaves GPU 0 at 40 ns,
// reaches GPU 1 at 540 ns, leaves it at 550 ns and lands at 1050 ns.
TEST(ExecutionBackend, PacketPipelinesPacketsOverTheHops) {
  const RunResult r =
      backend_for(Fidelity::packet)
          ->execute(two_hop_schedule(), packet_fabric(), execution_backend_workload(), nullptr, nullptr, false);
  EXPECT_EQ(r.completion, Time::ns(1050));
  EXPECT_EQ(r.network.bytes_delivered, 4000);
}

// One packet per chunk: the whole 4000 B reaches GPU 1 at 540 ns, leaves it
// at 580 ns and lands at 1080 ns.
TEST(ExecutionBackend, ChunkSendsOnePacketPerChunk) {
  const std::unique_ptr<ExecutionBackend> chunk = backend_for(Fidelity::chunk);
  EXPECT_EQ(chunk->engine_fabric(packet_fabric()).packet, Bytes(0));
  const RunResult r =
      chunk->execute(two_hop_schedule(), packet_fabric(), execution_backend_workload(), nullptr, nullptr, false);
  EXPECT_EQ(r.completion, Time::ns(1080));
  EXPECT_EQ(r.network.bytes_delivered, 4000);
}

// Analytical: the step takes its predicted 1000 + 77 ns; no packets run.
TEST(ExecutionBackend, AnalyticalTakesThePredictedTimes) {
  const RunResult r =
      backend_for(Fidelity::analytical)
          ->execute(two_hop_schedule(), packet_fabric(), execution_backend_workload(), nullptr, nullptr, false);
  EXPECT_EQ(r.completion, Time::ns(1077));
  EXPECT_EQ(r.events, 0u);
  EXPECT_EQ(r.network.bytes_delivered, 4000);
}

}  // namespace
}  // namespace photonsim
