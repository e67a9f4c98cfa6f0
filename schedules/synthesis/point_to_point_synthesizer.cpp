#include "schedules/synthesis/point_to_point_synthesizer.h"

namespace photonsim {

Schedule PointToPointSynthesizer::synthesize(const SynthesisRequest& request) const {
  const Bytes bytes = request.workload.message;
  ScheduleParts parts;
  parts.algorithm = "p2p";
  parts.planner = "direct";
  parts.gpus = 2;
  parts.message = bytes;
  parts.topologies = {Topology("p2p", 2, {{0, 1}})};
  parts.initial_topology = 0;
  Transfer t;
  t.src = 0;
  t.dst = 1;
  t.bytes = bytes;
  parts.steps = {Step{0, {t}}};
  Prediction prediction;
  prediction.model = "p2p";
  prediction.steps = {StepPrediction{Time::zero(), request.fabric.step_overhead, request.fabric.latency,
                                     request.fabric.bandwidth.serialization(bytes)}};
  return Schedule(std::move(parts)).with_prediction(std::move(prediction));
}

std::vector<PlanCandidate> PointToPointSynthesizer::candidates(const SynthesisRequest& request,
                                                               CandidateDetail detail) const {
  PlanCandidate candidate;
  candidate.planner = "direct";
  candidate.schedule = synthesize(request);
  candidate.summary = CandidateSummary::of(*candidate.schedule);
  if (detail == CandidateDetail::summaries) candidate.schedule.reset();
  return {std::move(candidate)};
}

}  // namespace photonsim
