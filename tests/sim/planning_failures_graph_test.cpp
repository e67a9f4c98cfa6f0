// A switch failed at 0 in a task graph (issue 55 item 3, docs/model.md
// "Failures known when planning"): every node plans on the surviving switch
// and every circuit, a send's too, is placed there, so the graph runs as on a
// healthy fabric and no port of switch 0 ever carries or darkens a circuit.
//
// 4 GPUs on 2 switches, 800 Gbps (a 1000 B packet serialises in 10 ns), 5 ns
// a hop, store-and-forward, 1000 B packets, reconfig_delay 100 ns,
// reconfiguration: all. The graph: send a (0 -> 1, 4000 B), then the ring
// AllReduce ar over all 4 GPUs (4000 B, static on the directed ring
// 0 -> 1 -> 2 -> 3 -> 0), then send b (0 -> 1, 4000 B again):
//  - a takes its ports at 0; its circuit is dark 100 ns, lit at 100; its 4
//    packets leave back to back, the last at 100 + 4 x 10 = 140, in at 145;
//  - ar is released at 145; its ring is not all in place (only 0 -> 1 is),
//    so under `all` every wanted port is commanded: lit at 145 + 100 = 245;
//    2 (n - 1) = 6 barrier steps of 4000 / 4 = 1000 B to the successor, each
//    10 + 5 = 15 ns: ends at 245 + 90 = 335;
//  - b finds the ring's 0 -> 1 in place (no setup): 335 + 45 = 380.
// Iteration 380 ns, 2 reconfigurations (a's and ar's setups), predicted
// 380 ns, failed or healthy. Before the fix b took the port already leading
// to GPU 1 (switch 1) and its rotation put the send's circuit on switch 0:
// "cannot complete ... down until the end (fabric.failures[0])".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/app/experiment_pipeline.h"
#include "sim/config/config_loader.h"
#include "sim/engine/network/timeline.h"

namespace photonsim {
namespace {

constexpr const char* kSwitchFailureGraph =
    "fabric: {gpus: 4, ports: 2, bandwidth: 800Gbps, latency: 5ns, packet: 1000B, reconfig_delay: 100ns,\n"
    "  failure_detection: 20ns, on_failure: wait}\n"
    "workload:\n"
    "  graph:\n"
    "    - {name: a, type: p2p, src: 0, dst: 1, bytes: 4000B}\n"
    "    - {name: ar, type: collective, collective: allreduce, gpus: [0, 1, 2, 3], message: 4000B, after: [a]}\n"
    "    - {name: b, type: p2p, src: 0, dst: 1, bytes: 4000B, after: [ar]}\n"
    "synthesis: {algorithm: ring, topology: ring}\n";

constexpr const char* kSwitchZeroFailedAtZero = "fabric.failures=[{kind: switch, switch: 0, at: 0s}]";

ExperimentConfig switch_failure_graph(const std::vector<std::string>& sets) {
  return load_config_from_string(kSwitchFailureGraph, "graph.yaml", sets);
}

// The switches (directed circuits: port p is on switch p) whose ports were ever busy or dark.
std::vector<uint32_t> switches_used(const Timeline& timeline) {
  std::vector<uint32_t> used;
  for (const PortTimeline& port : timeline.ports) {
    if (!port.spans.empty()) used.push_back(port.port);
  }
  return used;
}

void expect_switch_graph_times(const GraphReport& report) {
  ASSERT_EQ(report.result.nodes.size(), 3u);
  const GraphNodeResult& a = report.result.nodes[0];
  const GraphNodeResult& ar = report.result.nodes[1];
  const GraphNodeResult& b = report.result.nodes[2];
  EXPECT_EQ(a.lit, Time::ns(100));
  EXPECT_EQ(a.end, Time::ns(145));
  EXPECT_EQ(ar.released, Time::ns(145));
  EXPECT_EQ(ar.start, Time::ns(245));
  EXPECT_EQ(ar.end, Time::ns(335));
  EXPECT_EQ(b.start, Time::ns(335));
  EXPECT_EQ(b.reconfigurations, 0);
  EXPECT_EQ(b.end, Time::ns(380));
  EXPECT_EQ(report.result.iteration, Time::ns(380));
  EXPECT_EQ(report.predicted_iteration, Time::ns(380));
  EXPECT_EQ(a.reconfigurations + ar.reconfigurations + b.reconfigurations, 2);
}

TEST(PlanningFailuresGraph, HealthyTheGraphTakesTheHandComputedTimeOnSwitchZero) {
  const ExperimentPipeline pipeline(nullptr);
  Timeline timeline;
  const GraphReport healthy = pipeline.run_graph(switch_failure_graph({}), Fidelity::packet, &timeline);
  expect_switch_graph_times(healthy);
  const std::vector<uint32_t> used = switches_used(timeline);
  EXPECT_FALSE(used.empty());
  for (uint32_t s : used) EXPECT_EQ(s, 0u);  // every circuit on the first switch
}

TEST(PlanningFailuresGraph, ASwitchFailedAtZeroLeavesEveryCircuitOnTheOtherInTheSameTime) {
  const ExperimentPipeline pipeline(nullptr);
  for (Fidelity fidelity : {Fidelity::packet, Fidelity::packet_reference}) {
    SCOPED_TRACE(to_string(fidelity));
    Timeline timeline;
    const GraphReport failed =
        pipeline.run_graph(switch_failure_graph({kSwitchZeroFailedAtZero}), fidelity, &timeline);
    expect_switch_graph_times(failed);
    const std::vector<uint32_t> used = switches_used(timeline);
    EXPECT_FALSE(used.empty());
    for (uint32_t s : used) EXPECT_EQ(s, 1u) << "a circuit crossed the failed switch 0";
    EXPECT_EQ(failed.result.network.packets_lost, 0u);
    EXPECT_EQ(failed.result.network.packets_dropped, 0u);
    EXPECT_NE(failed.table().find("switch 0 down at 0ps until the end: 0 packets (0 B) lost"), std::string::npos)
        << failed.table();
  }
}

}  // namespace
}  // namespace photonsim
