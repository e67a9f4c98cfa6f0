#include "sim/experiment_runner.h"

#include <chrono>

#include "sim/replayer.h"

namespace photonsim {

RunReport replay_schedule(const Schedule& schedule, const ExperimentConfig& config, Fidelity fidelity) {
  const auto begin = std::chrono::steady_clock::now();
  RunResult result;
  if (fidelity == Fidelity::analytical) {
    result = analytical_result(schedule);
  } else {
    FabricSpec fabric = config.fabric;
    if (fidelity == Fidelity::chunk) fabric.packet = Bytes(0);  // one packet per chunk
    result = Replayer(fabric, config.workload).replay(schedule);
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
  RunReport report{config, schedule, std::move(result), wall.count()};
  report.fidelity = fidelity;
  return report;
}

RunReport run_experiment(const ExperimentConfig& config, const SynthesizerRegistry& registry, Fidelity fidelity) {
  const auto begin = std::chrono::steady_clock::now();
  const Schedule schedule = registry.synthesize(config.fabric, config.workload, config.synthesis, config.seed);
  RunReport report = replay_schedule(schedule, config, fidelity);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
  report.wall_seconds = wall.count();
  return report;
}

}  // namespace photonsim
