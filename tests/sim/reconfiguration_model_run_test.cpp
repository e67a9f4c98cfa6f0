// fabric.reconfig_model from YAML to a run: the model and its parameters are
// read through the schema and reach the switch of the run.
#include <gtest/gtest.h>

#include "sim/app/experiment_runner.h"
#include "sim/config/config_loader.h"

namespace photonsim {
namespace {

// 4 GPUs on 2 ports, a ring from no circuits (synthesis.topology: none), one
// all-to-all step per ring hop (ring algorithm): 800 Gbps, latency 0,
// reconfig_delay 1 us.
constexpr const char* kRing =
    "fabric:\n"
    "  gpus: 4\n"
    "  ports: 2\n"
    "  bandwidth: 800Gbps\n"
    "  latency: 0ns\n"
    "  reconfig_delay: 1us\n"
    "workload:\n"
    "  collective: allgather\n"
    "  message: 1000B\n"
    "synthesis:\n"
    "  algorithm: ring\n"
    "  planner: static\n"
    "  topology: none\n"
    "  static_topology: ring\n";

RunResult run(const std::vector<std::string>& sets) {
  const ExperimentConfig config = load_config_from_string(kRing, "ring.yaml", sets);
  const Schedule schedule =
      SynthesizerRegistry::with_builtins().synthesize(config.fabric, config.workload, config.synthesis, config.seed);
  return simulate_schedule(schedule, config, Fidelity::packet).result;
}

TEST(ReconfigurationModelRun, SequentialPaysPerSwitchAndPerPortOnTheWayIn) {
  const RunResult constant = run({});
  const RunResult sequential = run({"fabric.reconfig_model={type: sequential, per_port: 1ns}"});
  ASSERT_EQ(constant.reconfigurations, 1);
  ASSERT_EQ(sequential.reconfigurations, 1);
  EXPECT_EQ(constant.reconfiguration_time, Time::us(1));
  // The ring's 4 circuits: port 0 of each GPU, one switch: 1 us + 4 x 1 ns,
  // measured in step 0 (the run's reconfiguration_time stays nominal).
  ASSERT_FALSE(sequential.steps.empty());
  EXPECT_EQ(sequential.steps[0].reconfiguration, Time::ps(1'004'000));
  EXPECT_EQ(constant.steps[0].reconfiguration, Time::us(1));
  EXPECT_EQ(sequential.reconfiguration_time, Time::us(1));
  EXPECT_EQ(sequential.completion - constant.completion, Time::ps(4'000));
}

}  // namespace
}  // namespace photonsim
