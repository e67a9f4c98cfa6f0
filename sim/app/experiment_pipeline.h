#pragma once
// Contract: the one path every verb and every sweep point takes:
//   load and validate (file:line errors) -> budget (what the run will hold,
//   checked against --max-memory before it is built) -> synthesize (a
//   registered synthesizer; a task graph's collectives per node) -> execute
//   (the engine's backend for the fidelity) -> report (a RunReport or
//   GraphReport: the result and the specs it ran with).
// Holds the synthesizers and the memory budget; pure apart from wall-clock
// timings. Throws Error on any invalid input, naming the file and the key.
#include <string>
#include <vector>

#include "core/memory_budget.h"
#include "schedules/model/schedule.h"
#include "schedules/synthesizer_registry.h"
#include "sim/config/experiment_config.h"
#include "sim/engine/fidelity.h"
#include "sim/engine/network/timeline.h"
#include "sim/engine/run_progress.h"
#include "sim/reports/graph_report.h"
#include "sim/reports/plan_report.h"
#include "sim/reports/run_report.h"

namespace photonsim {

class ExperimentPipeline {
 public:
  // `budget` may be null (no limit); it must outlive the pipeline.
  explicit ExperimentPipeline(const MemoryBudget* budget,
                              SynthesizerRegistry registry = SynthesizerRegistry::with_builtins())
      : budget_(budget), registry_(std::move(registry)) {}

  const SynthesizerRegistry& registry() const { return registry_; }

  // Load and validate the config at `path` with its --set overrides.
  ExperimentConfig load(const std::string& path, const std::vector<std::string>& sets = {}) const;
  // Verbs of one collective (synth, plan, physical, verify, replay) refuse a
  // task graph, at workload.graph's line.
  static void require_one_collective(const ExperimentConfig& config, const std::string& verb);
  // What synthesizing and simulating the config will hold, against the budget.
  void check_budget(const ExperimentConfig& config) const;
  // What verifying the schedule will hold, against the budget.
  void check_verifier_budget(const Schedule& schedule, const std::string& name) const;

  // The config's schedule from its synthesizer, budget checked first; its
  // prediction (and the sum over steps) within the simulated time range.
  // `progress` hears how a long synthesis advances. Chakra traces photonsim
  // wrote (config.imported_schedule): their schedule, predicted for the
  // config's fabric.
  Schedule synthesize(const ExperimentConfig& config, WorkProgress* progress = nullptr) const;
  // Every planner's plan for the config's algorithm, ranked (photonsim plan);
  // refused for an imported schedule.
  PlanReport plan(const ExperimentConfig& config, WorkProgress* progress = nullptr) const;

  // Synthesizes and executes one collective on the fidelity's backend; an
  // imported schedule (config.imported_schedule) is replayed as replay()
  // does, verified first.
  RunReport run(const ExperimentConfig& config, Fidelity fidelity = Fidelity::packet, RunProgress* progress = nullptr,
                Timeline* timeline = nullptr) const;
  // Executes a saved schedule on the config's fabric: it must fit, and
  // (unless `verify` is false) prove its post-condition first.
  RunReport replay(const Schedule& schedule, const std::string& schedule_name, const ExperimentConfig& config,
                   bool verify, Fidelity fidelity = Fidelity::packet, RunProgress* progress = nullptr,
                   Timeline* timeline = nullptr) const;
  // A task graph: each node's collective synthesized, the graph executed.
  GraphReport run_graph(const ExperimentConfig& config, Fidelity fidelity = Fidelity::packet,
                        Timeline* timeline = nullptr, WorkProgress* progress = nullptr) const;
  // A sweep point's rows: the run's CSV (a graph's summary) under its header.
  std::string result_csv(const ExperimentConfig& config) const;

 private:
  void check_budget_named(const ExperimentConfig& config, const std::string& prefix) const;

  const MemoryBudget* budget_;
  SynthesizerRegistry registry_;
};

}  // namespace photonsim
