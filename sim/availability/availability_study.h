#pragma once
// Contract: photonsim availability's study (issue 55, item 5; docs/model.md,
// "A month of training"): for each seed, port failures and flaps drawn from
// fabric.random_failures over `days`, and the config's iteration (its task
// graph, or its one collective) replayed over them under each policy
// (TrainingTimeline). Each fabric state's iteration - the healthy one, and
// for each set of switches that lost a port the replanned (or static) one -
// is simulated once by the pipeline at `fidelity` and reused across every
// seed and policy. Every policy sees the same outages of a seed. Throws
// Error naming the key (and its line) when the config cannot be studied.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/spec/failure_spec.h"
#include "core/time.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/availability/training_timeline.h"
#include "sim/config/experiment_config.h"
#include "sim/engine/fidelity.h"

namespace photonsim {

struct AvailabilityOptions {
  int days = 30;                        // 1 .. 106 (what a Time holds)
  int seeds = 100;                      // >= 1
  std::vector<FailurePolicy> policies;  // empty: the config's fabric.on_failure
  Fidelity fidelity = Fidelity::packet;
};

// Throws Error naming the option when days or seeds are out of range.
void check_availability_options(const AvailabilityOptions& options);

// One fabric state's iteration, simulated once.
struct SimulatedState {
  IterationPlan plan = IterationPlan::configured;
  std::vector<int> lost_switches;
  std::optional<Time> iteration;  // none: no plan exists there
  double wall_seconds = 0;
};

struct PolicyOutcomes {
  FailurePolicy policy = FailurePolicy::replan;
  std::vector<TimelineOutcome> seeds;  // by seed index
};

struct AvailabilityStudy {
  Time horizon;
  int days = 0;
  uint64_t first_seed = 0;  // seed i draws with first_seed + i
  Fidelity fidelity = Fidelity::packet;
  RandomFailures rates;
  Time detection;
  Time reconfiguration;
  Time watchdog_timeout;
  std::optional<Time> restart_time;
  std::optional<Time> checkpoint_interval;
  int gpus = 0;
  int ports = 0;
  bool graph = false;  // the iteration is a task graph (else one collective)
  Time healthy_iteration;
  std::vector<SimulatedState> states;  // in the order first needed
  std::vector<PolicyOutcomes> policies;
  std::vector<int> outages_per_seed;  // port failures and flaps drawn (before the horizon)
  double wall_seconds = 0;
};

AvailabilityStudy run_availability_study(const ExperimentPipeline& pipeline, const ExperimentConfig& config,
                                         const AvailabilityOptions& options);

}  // namespace photonsim
