#pragma once
// Contract: the closed-form cost of a planned schedule on a fabric, per step:
//   reconfiguration = alpha_r when the step changes the circuits,
//   startup         = step_overhead (alpha),
//   propagation     = dilation x latency (longest route, in hops),
//   transmission    = max( busiest circuit's serialisation (congestion x w x beta),
//                          max over transfers of its own serialisation plus the
//                          pipeline fill (hops - 1) x forwarding unit ).
// The first term is PCCL's Algorithm 2 (alpha x dilation + beta x congestion x w);
// the fill term is the all-to-all paper's T = latency + chunk/B per hop under
// store-and-forward (forwarding unit = packet; cut-through: the header).
// Exact when each step is contention-free in the time-expanded graph, or has one
// transfer per circuit; see README "Measured vs predicted" for where it is not.
#include "core/fabric_spec.h"
#include "core/workload_spec.h"
#include "schedules/prediction.h"
#include "schedules/schedule.h"

namespace photonsim {

Prediction predict_alpha_beta_congestion(const Schedule& schedule, const FabricSpec& fabric,
                                         const WorkloadSpec& workload);

}  // namespace photonsim
