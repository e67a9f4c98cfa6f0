#include "sim/experiment_runner.h"

#include <chrono>

#include "core/error.h"
#include "schedules/prediction_for_fabric.h"
#include "sim/replayer.h"

namespace photonsim {

RunReport simulate_schedule(const Schedule& schedule, const ExperimentConfig& config, Fidelity fidelity) {
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
  RunReport report{config, schedule, std::move(result), wall.count(), fidelity, std::nullopt};
  report.fidelity = fidelity;
  return report;
}

void check_schedule_fits(const Schedule& schedule, const ExperimentConfig& config) {
  if (schedule.gpus() != config.fabric.gpus) {
    throw Error("the schedule has " + std::to_string(schedule.gpus()) + " GPUs but fabric.gpus is " +
                std::to_string(config.fabric.gpus) + " in " + config.source);
  }
  for (const Topology& t : schedule.topologies()) t.check_ports(config.fabric);
}

RunReport replay_schedule(const Schedule& schedule, const ExperimentConfig& config, Fidelity fidelity) {
  check_schedule_fits(schedule, config);
  const bool stored = !schedule.prediction().steps.empty() || !schedule.prediction().model.empty();
  RunReport report = simulate_schedule(
      schedule.with_prediction(predict_for_fabric(schedule, config.fabric, config.workload)), config, fidelity);
  if (stored) report.stored_prediction = schedule.prediction();
  return report;
}

RunReport run_experiment(const ExperimentConfig& config, const SynthesizerRegistry& registry, Fidelity fidelity) {
  const auto begin = std::chrono::steady_clock::now();
  const Schedule schedule = registry.synthesize(config.fabric, config.workload, config.synthesis, config.seed);
  RunReport report = simulate_schedule(schedule, config, fidelity);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
  report.wall_seconds = wall.count();
  return report;
}

}  // namespace photonsim
