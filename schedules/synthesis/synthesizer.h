#pragma once
// Contract: a Synthesizer turns the specs into a Schedule carrying its
// Prediction. Two implementations: PatternSynthesizer (a collective
// algorithm's step pattern placed by a planner, then predicted) and
// JointAlltoallSynthesizer (topologies and rounds chosen together from the
// traffic matrix, then predicted). candidates() is every placement it would
// choose among, each predicted or with the reason it cannot be built, for
// `photonsim plan`: with CandidateDetail::summaries only their summaries (no
// schedules kept). Both throw Error for inputs they cannot handle. The
// registry checks names and their combination before handing a request over.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/work_progress.h"
#include "core/spec/synthesis_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/schedule.h"
#include "schedules/synthesis/plan_candidate.h"
#include "topology/physical/physical_layer.h"

namespace photonsim {

struct SynthesisRequest {
  const FabricSpec& fabric;
  const WorkloadSpec& workload;
  const SynthesisSpec& synthesis;
  uint64_t seed = 1;  // feeds seeded workloads and randomised topology generators
  // fabric.physical's hardware, shared by every planner and candidate of
  // one synthesis (its routings are cached); null without fabric.physical.
  std::shared_ptr<const PhysicalLayer> physical = nullptr;
  // Hears how a long synthesis advances (null: no one listens).
  WorkProgress* progress = nullptr;
};

class Synthesizer {
 public:
  virtual ~Synthesizer() = default;
  virtual Schedule synthesize(const SynthesisRequest& request) const = 0;
  virtual std::vector<PlanCandidate> candidates(const SynthesisRequest& request,
                                                CandidateDetail detail = CandidateDetail::schedules) const = 0;
};

}  // namespace photonsim
