// Every shipped config (as shipped and, up to 64 GPUs, with 64 KiB packets)
// and every shipped training iteration gives the same results with trains
// (fidelity packet) as packet by packet (packet_reference): every time, every
// per-step and per-node figure, packets, packet-hops, bytes and the peak in
// flight; only events and trains differ.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/app/experiment_runner.h"
#include "sim/app/task_graph_experiment.h"
#include "sim/config/config_loader.h"
#include "tests/support/shipped_configs.h"

namespace photonsim {
namespace {

void expect_same_network(const NetworkStats& trains, const NetworkStats& reference, const std::string& what) {
  EXPECT_EQ(trains.packets, reference.packets) << what;
  EXPECT_EQ(trains.packet_hops, reference.packet_hops) << what;
  EXPECT_EQ(trains.bytes_injected, reference.bytes_injected) << what;
  EXPECT_EQ(trains.bytes_delivered, reference.bytes_delivered) << what;
  EXPECT_EQ(trains.peak_packets_in_flight, reference.peak_packets_in_flight) << what;
  EXPECT_LE(trains.trains, reference.trains) << what;
}

TEST(TrainEngineShipped, EveryShippedConfigGivesTheReferenceResults) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  size_t runs = 0;
  const auto gpus_of = [](const std::filesystem::path& p) { return load_config(p.string()).fabric.gpus; };
  for (const testing_support::ShippedRun& shipped : testing_support::shipped_experiment_runs(gpus_of)) {
    const ExperimentConfig config = load_config(shipped.config.string(), shipped.sets);
    const Schedule schedule = registry.synthesize(config.fabric, config.workload, config.synthesis, config.seed);
    const RunResult trains = simulate_schedule(schedule, config, Fidelity::packet).result;
    const RunResult reference = simulate_schedule(schedule, config, Fidelity::packet_reference).result;
    const std::string& what = shipped.name;
    EXPECT_EQ(trains.completion, reference.completion) << what;
    ASSERT_EQ(trains.steps.size(), reference.steps.size()) << what;
    for (size_t i = 0; i < trains.steps.size(); ++i) {
      EXPECT_EQ(trains.steps[i].begin, reference.steps[i].begin) << what << " step " << i;
      EXPECT_EQ(trains.steps[i].end, reference.steps[i].end) << what << " step " << i;
      EXPECT_EQ(trains.steps[i].reconfiguration, reference.steps[i].reconfiguration) << what << " step " << i;
    }
    EXPECT_EQ(trains.reconfigurations, reference.reconfigurations) << what;
    EXPECT_EQ(trains.reconfiguration_time, reference.reconfiguration_time) << what;
    EXPECT_EQ(trains.barrier_wait, reference.barrier_wait) << what;
    expect_same_network(trains.network, reference.network, what);
    ++runs;
  }
  EXPECT_GE(runs, 14u);
}

TEST(TrainEngineShipped, EveryShippedTrainingIterationGivesTheReferenceResults) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  size_t runs = 0;
  for (const std::filesystem::path& p : testing_support::shipped_task_graph_configs()) {
    // Up to 64 GPUs and the 128-GPU transformer: the sanitized suite stays quick.
    if (load_config(p.string()).fabric.gpus > 64 && p.filename() != "transformer_128.yaml") continue;
    const ExperimentConfig config = load_config(p.string());
    const GraphResult trains = run_task_graph(config, registry, Fidelity::packet).result;
    const GraphResult reference = run_task_graph(config, registry, Fidelity::packet_reference).result;
    const std::string what = p.filename().string();
    EXPECT_EQ(trains.iteration, reference.iteration) << what;
    ASSERT_EQ(trains.nodes.size(), reference.nodes.size()) << what;
    for (size_t i = 0; i < trains.nodes.size(); ++i) {
      EXPECT_TRUE(trains.nodes[i] == reference.nodes[i]) << what << " node " << i;
    }
    EXPECT_EQ(trains.critical_path, reference.critical_path) << what;
    expect_same_network(trains.network, reference.network, what);
    ++runs;
  }
  EXPECT_GE(runs, 5u);
}

}  // namespace
}  // namespace photonsim
