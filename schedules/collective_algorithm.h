#pragma once
// Contract: a collective algorithm is a pure function from the fabric size and
// workload to a StepPattern (which nodes send which blocks to whom, per step).
// It throws Error, naming the supported sizes, for inputs it cannot handle.
#include "core/fabric_spec.h"
#include "core/workload_spec.h"
#include "schedules/step_pattern.h"

namespace photonsim {

class CollectiveAlgorithm {
 public:
  virtual ~CollectiveAlgorithm() = default;
  virtual StepPattern pattern(const FabricSpec& fabric, const WorkloadSpec& workload) const = 0;
};

}  // namespace photonsim
