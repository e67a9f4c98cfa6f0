#pragma once
// Contract: what one replay measured. Step times are absolute simulated
// times; a step's measured duration runs from its begin (the barrier that
// ends the previous step, or time 0; under dataflow its first release) to its
// last delivery. reconfigurations and reconfiguration_time are nominal: one
// reconfig_delay per configuration change, whatever it exposed.
#include <cstdint>
#include <vector>

#include "core/time.h"
#include "sim/engine/failure_cost.h"
#include "sim/engine/network/network_stats.h"

namespace photonsim {

struct StepResult {
  Time begin;  // barrier: previous step fully delivered; dataflow: its first release
  // The dark time the step exposed: within [begin, end], the time covered by
  // the reconfigurations its transfers wait for, each from its command to its
  // lighting (docs/model.md "What a run means"); reconfig_delay under barrier + all
  // when the step reconfigures. At most end - begin - startup.
  Time reconfiguration;
  Time startup;  // step overhead paid
  Time end;      // last delivery of this step
  uint64_t transfers = 0;
  int64_t bytes = 0;
  // Barrier runs measured for it (run_schedule's measure_barrier_wait): how long
  // the step's first ready transfer was held (sim/engine/barrier_wait.h).
  Time barrier_wait;
  Time measured() const { return end - begin; }
};

struct RunResult {
  std::vector<StepResult> steps;
  Time completion;
  int reconfigurations = 0;
  Time reconfiguration_time;
  Time barrier_wait;  // the time covered by the steps' barrier waits (0 for dataflow)
  uint64_t events = 0;
  NetworkStats network;
  // Per reconfiguration failure of fabric.failures (in its order): what it
  // cost (empty without one).
  std::vector<FailureCost> failures;
};

}  // namespace photonsim
