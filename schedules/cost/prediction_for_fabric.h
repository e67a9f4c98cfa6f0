#pragma once
// Contract: a schedule's prediction for a given fabric, by the cost model
// that made its stored prediction (Prediction::model): alpha_beta_congestion,
// pccl, pccl_max_transfer, harvest (Eq. 3 with theta by LP) or harvest_eq8
// (Eq. 8's closed form on shifted rings), harvest_overlapped (Harvest's step
// cost with propagation overlapped with transmission). Each model is a pure function of
// the schedule (its steps, topologies and where it reconfigures) and the
// fabric, so a schedule synthesized for one fabric and replayed on another is
// predicted for the fabric it runs on; on its own fabric the result equals
// the stored prediction. Like the synthesizers, it predicts on
// planning_fabric(fabric): the switches that survive the failures known when
// planning (core/spec/planning_failures.h). A schedule without a prediction, or whose model
// photonsim does not know (another tool's), is predicted with
// alpha_beta_congestion. Throws Error naming the step when the model cannot
// route a step on its topology.
#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/prediction.h"
#include "schedules/model/schedule.h"

namespace photonsim {

Prediction predict_for_fabric(const Schedule& schedule, const FabricSpec& fabric, const WorkloadSpec& workload);

// The models predict_for_fabric reproduces, for messages.
const char* known_prediction_models();

}  // namespace photonsim
