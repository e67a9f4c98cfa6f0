#include "sim/app/experiment_runner.h"

#include <chrono>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/spec/planning_failures.h"
#include "schedules/synthesis/physical_feasibility.h"
#include "core/time_overflow.h"
#include "schedules/cost/prediction_for_fabric.h"
#include "sim/engine/backend/execution_backend.h"
#include "sim/engine/switch/circuit_plan.h"
#include "sim/engine/switch/reconfiguration_models.h"

namespace photonsim {

void check_engine_names(const ExperimentConfig& config) {
  located(config, [&] {
    make_reconfiguration_model(config.fabric.reconfig_model, config.fabric.reconfig_params);
  });  // names a model
  refuse_unsimulated_failures(config);
}

namespace {

// "file:line: " for entry `i`, when the loader recorded where it was written.
std::string failure_place(const ExperimentConfig& config, size_t i) {
  return i < config.failure_locations.size() ? config.failure_locations[i] + ": " : std::string();
}

}  // namespace

void refuse_unsimulated_failures(const ExperimentConfig& config) {
  const FailureSpec& f = config.fabric.failures;
  if (!f.any()) return;
  // A switch the plan leaves out gives no policy anything to do: the plan routed around it.
  const PlanningFailures planning = PlanningFailures::of(config.fabric);
  for (size_t i = 0; i < f.entries.size(); ++i) {
    const Failure& e = f.entries[i];
    const std::string name = "fabric.failures[" + std::to_string(i) + "] (" + to_string(e.kind);
    if (planning.leaves_out(i)) continue;
    if (takes_circuits_down(e.kind)) {
      // Lost circuits (docs/model.md, "Lost circuits"): the engine's rules are on_failure: wait's.
      if (f.on_failure != FailurePolicy::wait) {
        throw Error(failure_place(config, i) + name + "): fabric.on_failure: " + to_string(f.on_failure) +
                    " is not simulated yet for circuits that go down (issue 55); on_failure: wait is (the "
                    "transfer resumes on its route once it is back): set fabric.on_failure: wait");
      }
      continue;
    }
    switch (e.kind) {
      case FailureKind::straggler:
        if (config.graph) continue;
        throw Error(failure_place(config, i) + name + ", GPU " + std::to_string(e.gpu) +
                    "): a straggler slows the compute nodes of a task graph (workload.graph), and this run has none: "
                    "give the workload a graph, or leave the entry out");
      case FailureKind::reconfiguration:
        if (!config.graph) continue;
        throw Error(failure_place(config, i) + name + ", step " + std::to_string(e.step) +
                    "): a slow reconfiguration names a step of one schedule, and a task graph's steps are its "
                    "nodes' (numbered as they take their ports): not simulated in a task graph yet (issue 55)");
      case FailureKind::mzi:
        continue;  // known when planning: the physical layer routes every configuration around it
      case FailureKind::link:
        if (config.fabric.router == RouterMode::cut_through) {
          throw Error(failure_place(config, i) + name +
                      "): cut-through forwarding assumes every circuit runs at one rate (docs/model.md), and a "
                      "degraded link breaks it: use fabric.router: store_and_forward with a link failure");
        }
        continue;
      case FailureKind::port:
      case FailureKind::flap:
      case FailureKind::optical_switch:
        continue;  // above: circuits that go down
    }
  }
  if (f.random) {
    located(config, [&] {
      throw Error(
          "fabric.random_failures: a single run draws no random failures; photonsim availability CONFIG draws "
          "them over a month of training (docs/model.md, \"A month of training\"): run that, or leave out "
          "fabric.random_failures to run without them");
    });
  }
}

std::optional<std::string> located_failure_message(const ExperimentConfig& config, const std::string& message) {
  const std::string prefix = "fabric.failures[";
  if (!message.starts_with(prefix)) return std::nullopt;
  const size_t close = message.find(']', prefix.size());
  if (close == std::string::npos || close == prefix.size() || close - prefix.size() > 9) return std::nullopt;
  size_t index = 0;
  for (size_t c = prefix.size(); c < close; ++c) {
    if (message[c] < '0' || message[c] > '9') return std::nullopt;
    index = index * 10 + static_cast<size_t>(message[c] - '0');
  }
  const std::string place = failure_place(config, index);
  if (place.empty()) return std::nullopt;
  return place + message;
}

RunReport simulate_schedule(Schedule schedule, const ExperimentConfig& config, Fidelity fidelity, RunProgress* progress,
                            Timeline* timeline) {
  check_engine_names(config);
  const auto begin = std::chrono::steady_clock::now();
  const std::unique_ptr<ExecutionBackend> backend = backend_for(fidelity);
  RunResult result = naming_time_overflow(
      config.source + (backend->simulates() ? ": the simulated completion time" : ": the predicted completion time"),
      [&] {
        try {
          return backend->execute(schedule, config.fabric, config.workload, progress, timeline,
                                  reports_execution(config));
        } catch (const Error& e) {
          // An entry the engine refused: where it was written.
          if (const auto located = located_failure_message(config, e.what())) throw Error(*located);
          throw;
        }
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
  // The switches that survive the failures known when planning (a schedule
  // from elsewhere was not planned around them): refused naming the entry, at its line.
  try {
    CircuitPlan::check_surviving_ports(schedule, config.fabric);
  } catch (const Error& e) {
    if (const auto located = located_failure_message(config, e.what())) throw Error(*located);
    throw;
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
