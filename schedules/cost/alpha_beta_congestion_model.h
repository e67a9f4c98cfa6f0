#pragma once
// Contract: the closed-form cost of a planned schedule on a fabric, per step:
//   reconfiguration = alpha_r when the step changes the circuits,
//   startup         = step_overhead (alpha),
//   then the larger of two lower bounds on moving the step's data:
//   - congestion: the busiest circuit's serialisation (PCCL's beta x congestion
//     x w) plus one latency for its last packet to land;
//   - dilation: the slowest single transfer alone: hops x latency + its
//     serialisation + the pipeline fill (hops - 1) x forwarding unit (packet
//     under store-and-forward, header under cut-through) - with packet = chunk
//     this is the all-to-all paper's T = latency + chunk/B per hop.
// Serialisation is at each circuit's rate (topology/circuit_rates.h: under
// fabric.bandwidth_scope gpu a transfer alone goes at its slowest circuit's
// rate, one forwarding unit per other circuit filling the pipeline).
// The breakdown splits the winner into propagation (latency terms) and
// transmission (serialisation terms). Exact when a step is contention-free in
// the time-expanded graph, or its busiest circuit never idles; see docs/model.md
// section "Measured vs predicted" for the terms it leaves out.
#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"
#include "core/work_progress.h"
#include "schedules/model/prediction.h"
#include "schedules/model/schedule.h"

namespace photonsim {

// `progress` hears, step by step and every few thousand transfers, how far a
// long prediction is.
Prediction predict_alpha_beta_congestion(const Schedule& schedule, const FabricSpec& fabric,
                                         const WorkloadSpec& workload, WorkProgress* progress = nullptr);
// One step on `topology`, without its reconfiguration (the caller knows what
// was in place); `step_index` only names the step in errors.
StepPrediction predict_alpha_beta_congestion_step(const Step& step, const Topology& topology, size_t step_index,
                                                  const FabricSpec& fabric, const WorkloadSpec& workload);
// The same for a step whose transfers all carry `bytes` over `hops` circuits,
// the busiest circuit carrying `transfers_on_busiest_circuit` of them: what
// the general form computes for such a step, without routing it (closed-form
// strategy estimates use it; tests check the two agree). Throws Error under
// fabric.bandwidth_scope gpu (its circuits' rates depend on the topology).
StepPrediction predict_alpha_beta_congestion_uniform_step(Bytes bytes, int hops, int64_t transfers_on_busiest_circuit,
                                                          const FabricSpec& fabric, const WorkloadSpec& workload);

}  // namespace photonsim
