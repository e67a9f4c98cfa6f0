#pragma once
// Contract: a collective algorithm is a pure function from the fabric size,
// the workload and its own validated parameters (synthesis.algorithm as a map,
// e.g. {type: bruck, radix: 3}) to a StepPattern: which nodes send which
// blocks to whom in each step, with byte counts, numbered as Schedule::blocks()
// documents. It throws Error, naming the supported sizes, for inputs it
// cannot handle. info() and supports() describe it to the registry: every
// n in 2..130 for which supports(n, ports) holds is proven by the verifier
// in the tests, and every other n is refused with an Error naming it.
#include <cstdint>

#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/algorithms/algorithm_info.h"
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
  virtual AlgorithmInfo info() const = 0;
  // With the default parameters, on `gpus` GPUs of `ports` ports each.
  virtual bool supports(int gpus, int ports) const = 0;
  virtual StepPattern pattern(const AlgorithmInput& input) const = 0;
};

}  // namespace photonsim
