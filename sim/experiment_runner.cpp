#include "sim/experiment_runner.h"

#include <chrono>

#include "sim/replayer.h"

namespace photonsim {

RunReport replay_schedule(const Schedule& schedule, const ExperimentConfig& config) {
  const auto begin = std::chrono::steady_clock::now();
  RunResult result = Replayer(config.fabric, config.workload).replay(schedule);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
  return RunReport{config, schedule, std::move(result), wall.count()};
}

RunReport run_experiment(const ExperimentConfig& config, const SynthesizerRegistry& registry) {
  const auto begin = std::chrono::steady_clock::now();
  const Schedule schedule = registry.synthesize(config.fabric, config.workload, config.synthesis, config.seed);
  RunReport report = replay_schedule(schedule, config);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
  report.wall_seconds = wall.count();
  return report;
}

}  // namespace photonsim
