#pragma once
// Contract: the hypercube dimension-exchange all-to-all (DEX, PCCL's
// baseline, after Foster 1995) for n a power of two: log2 n steps; in step k
// node i exchanges with i xor 2^k every block it holds whose destination
// differs from i in bit k. Each step every node sends exactly n/2 blocks to
// its partner and receives n/2, so each step is a perfect matching. Other n
// throw Error.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class AlltoallDex : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
