#pragma once
// Contract: binomial-tree broadcast from workload.root in ceil(log2 n) steps:
// in step k every node at relative rank i < 2^k sends the whole message to
// relative rank i + 2^k (when below n). Block 0 is the message.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class BroadcastBinomial : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
