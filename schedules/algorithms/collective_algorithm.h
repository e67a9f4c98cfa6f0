#pragma once
// Contract: a collective algorithm is a pure function from the fabric size,
// the workload and its own validated parameters (synthesis.algorithm as a map,
// e.g. {type: bruck, radix: 3}) to a StepPattern: which nodes send which
// blocks to whom in each step, with byte counts, numbered as Schedule::blocks()
// documents. It throws Error, naming the supported sizes, for inputs it
// cannot handle.
#include <cstdint>

#include "core/fabric_spec.h"
#include "core/workload_spec.h"
#include "schedules/model/step_pattern.h"
#include "topology/component_params.h"

namespace photonsim {

struct AlgorithmInput {
  const FabricSpec& fabric;
  const WorkloadSpec& workload;
  const ComponentParams& params;
  uint64_t seed = 1;  // the experiment seed (seeded workloads, e.g. random flow sizes)
  int gpus() const { return fabric.gpus; }
};

class CollectiveAlgorithm {
 public:
  virtual ~CollectiveAlgorithm() = default;
  virtual StepPattern pattern(const AlgorithmInput& input) const = 0;
};

}  // namespace photonsim
