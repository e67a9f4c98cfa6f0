#pragma once
// Contract: ring AllReduce on the cycle 0 -> 1 -> ... -> n-1 -> 0: the vector
// of m bytes is cut into n blocks (sizes differ by at most one byte); n-1
// reduce-scatter steps (node i reduces block (i - s - 1) mod n into i+1, so
// node i ends with block i) then n-1 all-gather steps (node i copies block
// (i - s) mod n to i+1). For reducescatter / allgather only the matching half
// is produced.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class AllreduceRing : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
