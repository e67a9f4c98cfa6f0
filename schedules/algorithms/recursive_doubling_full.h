#pragma once
// Contract: latency-optimal recursive doubling AllReduce for n a power of two:
// log2(n) steps, in step i (0-based) node u exchanges its whole vector (all n
// blocks, m bytes) with u XOR 2^i and each side reduces what it receives, so
// after step i every node holds the sum over its 2^(i+1)-node group; total
// m log2(n) bytes sent per node (not bandwidth-optimal). The all-gather is the
// classic recursive doubling all-gather: in step i node u copies the 2^i blocks
// of its group (m * 2^i / n bytes) to u XOR 2^i. No reduce-scatter: stopping
// early would not leave block b at node b. Other n throw Error.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class RecursiveDoublingFull : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
