#pragma once
// Contract: what the global barrier cost a run: per step, from the moment
// the first of its transfers had at its sender everything it carries (time 0
// for one that needs nothing from earlier steps) to the step's begin, the
// time that transfer was held although dataflow would have let it go; the
// run's total is the time covered by at least one such wait (overlapping
// waits count once, so it never exceeds the completion time).
#include <vector>

#include "core/time.h"
#include "sim/engine/run_result.h"
#include "sim/engine/transfer_dependencies.h"

namespace photonsim {

struct BarrierWait {
  std::vector<Time> per_step;
  Time total;
};

// `delivered`: per transfer, in the dependencies' numbering.
BarrierWait measure_barrier_wait(const TransferDependencies& deps, const std::vector<Time>& delivered,
                                 const std::vector<StepResult>& steps);

}  // namespace photonsim
