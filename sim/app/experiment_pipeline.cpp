#include "sim/app/experiment_pipeline.h"

#include "core/error.h"
#include "core/time_overflow.h"
#include "schedules/cost/prediction_for_fabric.h"
#include "schedules/verify/block_verifier.h"
#include "sim/app/experiment_runner.h"
#include "sim/app/memory_estimate.h"
#include "sim/app/task_graph_experiment.h"
#include "sim/config/config_loader.h"

namespace photonsim {

namespace {

// A message about an entry of fabric.failures ("fabric.failures[i] ...": a
// synthesizer's, such as every switch failed at 0) with where the entry was
// written in front; the engine's are so already (simulate_schedule).
template <class Body>
auto locating_failures(const ExperimentConfig& config, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Error& e) {
    if (const auto located = located_failure_message(config, e.what())) throw Error(*located);
    throw;
  }
}

}  // namespace

ExperimentConfig ExperimentPipeline::load(const std::string& path, const std::vector<std::string>& sets) const {
  return load_config(path, sets, budget_);
}

void ExperimentPipeline::require_one_collective(const ExperimentConfig& config, const std::string& verb) {
  if (!config.graph) return;
  const auto at = config.key_locations.find("workload.graph");
  throw Error((at == config.key_locations.end() ? config.source : at->second) + ": workload.graph: photonsim " + verb +
              " takes one collective; a task graph runs with photonsim run, which synthesizes each node's collective");
}

void ExperimentPipeline::check_budget(const ExperimentConfig& config) const {
  check_budget_named(config, config.source + ": ");
}

void ExperimentPipeline::check_budget_named(const ExperimentConfig& config, const std::string& prefix) const {
  if (budget_ == nullptr) return;
  const MemoryEstimate need = estimate_run_memory(config);
  budget_->check(need.bytes, prefix + need.what);
}

void ExperimentPipeline::check_verifier_budget(const Schedule& schedule, const std::string& name) const {
  if (budget_ == nullptr) return;
  budget_->check(verifier_memory_estimate(schedule), name + ": verifying its " + std::to_string(schedule.gpus()) +
                                                         " GPUs and " + std::to_string(schedule.blocks()) + " blocks");
}

Schedule ExperimentPipeline::synthesize(const ExperimentConfig& config, WorkProgress* progress) const {
  if (config.imported_schedule) {
    // Chakra traces photonsim wrote: their schedule, predicted for this fabric.
    const Schedule& s = *config.imported_schedule;
    check_schedule_fits(s, config);
    return naming_time_overflow(config.source + ": the predicted time of the imported schedule", [&] {
      Prediction p = predict_for_fabric(s, config.fabric, config.workload);
      p.total();  // the sum over steps must fit too
      return s.with_prediction(std::move(p));
    });
  }
  check_budget(config);
  return naming_time_overflow(config.source + ": the predicted time of the synthesized schedule", [&] {
    Schedule s = locating_failures(config, [&] {
      return located(config, [&] {
        return registry_.synthesize(config.fabric, config.workload, config.synthesis, config.seed, progress);
      });
    });
    s.prediction().total();  // the sum over steps must fit too
    return s;
  });
}

PlanReport ExperimentPipeline::plan(const ExperimentConfig& config, WorkProgress* progress) const {
  if (config.imported_schedule) {
    const auto at = config.key_locations.find("workload.graph");
    throw Error((at == config.key_locations.end() ? config.source : at->second) +
                ": workload.graph: the Chakra traces are photonsim's export of a schedule, whose circuits are its "
                "own: photonsim plan ranks planners for a configured algorithm (photonsim run replays the schedule)");
  }
  check_budget(config);
  return naming_time_overflow(config.source + ": a planner's predicted time", [&] {
    return locating_failures(config, [&] {
      return located(config, [&] {
        return PlanReport::rank(registry_.plan_all(config.fabric, config.workload, config.synthesis, config.seed,
                                                   CandidateDetail::summaries, progress));
      });
    });
  });
}

RunReport ExperimentPipeline::run(const ExperimentConfig& config, Fidelity fidelity, RunProgress* progress,
                                  Timeline* timeline) const {
  if (config.imported_schedule) {
    return replay(*config.imported_schedule, config.imported_schedule_source, config, true, fidelity, progress,
                  timeline);
  }
  check_budget(config);
  return locating_failures(config, [&] { return run_experiment(config, registry_, fidelity, progress, timeline); });
}

RunReport ExperimentPipeline::replay(const Schedule& schedule, const std::string& schedule_name,
                                     const ExperimentConfig& config, bool verify, Fidelity fidelity,
                                     RunProgress* progress, Timeline* timeline) const {
  check_schedule_fits(schedule, config);
  if (budget_ != nullptr) {  // before the network is built
    const MemoryEstimate need = estimate_replay_memory(schedule.gpus());
    budget_->check(need.bytes, config.source + ": " + need.what);
  }
  if (verify) {
    check_verifier_budget(schedule, schedule_name);
    const Verification v = verify_schedule(schedule);
    if (!v.ok()) {
      throw Error(schedule_name + ": the schedule fails verification: " + v.violation->describe() +
                  " (photonsim verify; --no-verify replays it anyway)");
    }
  }
  return replay_fitting_schedule(schedule, config, fidelity, progress, timeline);
}

GraphReport ExperimentPipeline::run_graph(const ExperimentConfig& config, Fidelity fidelity, Timeline* timeline,
                                          WorkProgress* progress) const {
  check_budget(config);
  return locating_failures(config, [&] { return run_task_graph(config, registry_, fidelity, timeline, progress); });
}

std::string ExperimentPipeline::result_csv(const ExperimentConfig& config) const {
  if (config.graph) return run_graph(config).summary_csv();
  if (config.imported_schedule) return run(config).csv();
  // A sweep's row names its point already (the base and the overrides).
  check_budget_named(config, "");
  return locating_failures(config, [&] { return run_experiment(config, registry_).csv(); });
}

}  // namespace photonsim
