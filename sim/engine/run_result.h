#pragma once
// Contract: what one replay measured. Step times are absolute simulated
// times; a step's measured duration runs from the barrier that ends the
// previous step (or time 0) to its last delivery.
#include <cstdint>
#include <vector>

#include "core/time.h"
#include "sim/engine/network_stats.h"

namespace photonsim {

struct StepResult {
  Time begin;            // barrier: previous step fully delivered
  Time reconfiguration;  // dark time paid before this step
  Time startup;          // step overhead paid
  Time end;              // last delivery of this step
  uint64_t transfers = 0;
  int64_t bytes = 0;
  // Barrier runs measured for it (Replayer's measure_barrier_wait): how long
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
};

}  // namespace photonsim
