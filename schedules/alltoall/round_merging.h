#pragma once
// Contract: an extension of the all-to-all paper's schedules for flows of
// many chunks. The paper keeps every round contention-free in the
// time-expanded graph, which is optimal for one-chunk flows; with c chunks a
// round lasts about c x its busiest circuit's load, so two rounds on the same
// topology can finish sooner together (one barrier less, load spread).
// merge_rounds_by_prediction() walks each topology's rounds in order and
// folds the next round into the current group while the alpha_beta_congestion
// prediction of the union is below the sum of the parts. Rounds never move
// across topologies; the result keeps every flow.
#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/alltoall/alltoall_strategy.h"

namespace photonsim {

AlltoallStrategy merge_rounds_by_prediction(const AlltoallStrategy& strategy, const FabricSpec& fabric,
                                            const WorkloadSpec& workload);

}  // namespace photonsim
