#include "sim/app/experiment_runner.h"

#include <chrono>

#include "core/error.h"
#include "schedules/synthesis/physical_feasibility.h"
#include "core/time_overflow.h"
#include "schedules/cost/prediction_for_fabric.h"
#include "sim/engine/backend/execution_backend.h"
#include "sim/engine/switch/reconfiguration_models.h"

namespace photonsim {

void check_engine_names(const ExperimentConfig& config) {
  located(config, [&] {
    make_reconfiguration_model(config.fabric.reconfig_model, config.fabric.reconfig_params);
  });  // names a model
  refuse_unsimulated_failures(config);
}

void refuse_unsimulated_failures(const ExperimentConfig& config) {
  const FailureSpec& f = config.fabric.failures;
  if (!f.any()) return;
  located(config, [&] {
    const size_t n = f.entries.size();
    const std::string key = n > 0 ? "fabric.failures" : "fabric.random_failures";
    const std::string what =
        n > 0 ? std::to_string(n) + (n == 1 ? " failure is" : " failures are") : std::string("random failures are");
    throw Error(key + ": " + what +
                " read and checked, but no engine simulates failures yet (issue 55): leave out fabric.failures and "
                "fabric.random_failures to run the healthy fabric (photonsim verify CONFIG checks it without a run)");
  });
}

RunReport simulate_schedule(Schedule schedule, const ExperimentConfig& config, Fidelity fidelity, RunProgress* progress,
                            Timeline* timeline) {
  check_engine_names(config);
  const auto begin = std::chrono::steady_clock::now();
  const std::unique_ptr<ExecutionBackend> backend = backend_for(fidelity);
  RunResult result = naming_time_overflow(
      config.source + (backend->simulates() ? ": the simulated completion time" : ": the predicted completion time"),
      [&] {
        return backend->execute(schedule, config.fabric, config.workload, progress, timeline,
                                reports_execution(config));
      });
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
  RunReport report{config, std::move(schedule), std::move(result), wall.count(),
                   0,      wall.count(),        fidelity,          std::nullopt};
  return report;
}

void check_schedule_fits(const Schedule& schedule, const ExperimentConfig& config) {
  if (schedule.gpus() != config.fabric.gpus) {
    throw Error("the schedule has " + std::to_string(schedule.gpus()) + " GPUs but fabric.gpus is " +
                std::to_string(config.fabric.gpus) + " in " + config.source);
  }
  for (const Topology& t : schedule.topologies()) t.check_ports(config.fabric);
  if (const auto physical = physical_layer_of(config.fabric)) {
    if (auto why = unrealised_step(schedule, *physical)) throw Error(config.source + ": the schedule's " + *why);
  }
}

RunReport replay_schedule(const Schedule& schedule, const ExperimentConfig& config, Fidelity fidelity,
                          RunProgress* progress, Timeline* timeline) {
  check_schedule_fits(schedule, config);
  return replay_fitting_schedule(schedule, config, fidelity, progress, timeline);
}

RunReport replay_fitting_schedule(const Schedule& schedule, const ExperimentConfig& config, Fidelity fidelity,
                                  RunProgress* progress, Timeline* timeline) {
  const bool stored = !schedule.prediction().steps.empty() || !schedule.prediction().model.empty();
  Prediction prediction = naming_time_overflow(config.source + ": the predicted time of the replayed schedule", [&] {
    Prediction p = predict_for_fabric(schedule, config.fabric, config.workload);
    p.total();  // the sum over steps must fit too
    return p;
  });
  RunReport report =
      simulate_schedule(schedule.with_prediction(std::move(prediction)), config, fidelity, progress, timeline);
  if (stored) {
    naming_time_overflow("the prediction stored in the schedule", [&] { return schedule.prediction().total(); });
    report.stored_prediction = schedule.prediction();
  }
  return report;
}

RunReport run_experiment(const ExperimentConfig& config, const SynthesizerRegistry& registry, Fidelity fidelity,
                         RunProgress* progress, Timeline* timeline) {
  const auto begin = std::chrono::steady_clock::now();
  Schedule schedule = naming_time_overflow(config.source + ": the predicted time of the synthesized schedule", [&] {
    Schedule s = located(config, [&] {
      return registry.synthesize(config.fabric, config.workload, config.synthesis, config.seed, progress);
    });
    s.prediction().total();  // the sum over steps must fit too
    return s;
  });
  const std::chrono::duration<double> synthesis = std::chrono::steady_clock::now() - begin;
  RunReport report = simulate_schedule(std::move(schedule), config, fidelity, progress, timeline);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
  report.wall_seconds = wall.count();
  report.synthesis_seconds = synthesis.count();
  return report;
}

}  // namespace photonsim
