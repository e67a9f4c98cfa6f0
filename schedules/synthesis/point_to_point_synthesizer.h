#pragma once
// Contract: the synthesizer of a task graph's p2p node: workload.message
// bytes from GPU 0 to GPU 1 over the one circuit 0 -> 1, in one step, on a
// fabric of two GPUs; predicted as the step overhead plus one hop's latency
// plus the serialisation of the bytes (no reconfiguration: the graph charges
// the circuit's setup when the node takes its ports).
#include "schedules/synthesis/synthesizer.h"

namespace photonsim {

class PointToPointSynthesizer : public Synthesizer {
 public:
  Schedule synthesize(const SynthesisRequest& request) const override;
  // One candidate, the schedule itself (planner "direct").
  std::vector<PlanCandidate> candidates(const SynthesisRequest& request,
                                        CandidateDetail detail = CandidateDetail::schedules) const override;
};

}  // namespace photonsim
