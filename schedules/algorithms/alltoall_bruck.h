#pragma once
// Contract: Bruck's index all-to-all with radix r (parameter `radix`, default
// 2, r >= 2) for any n >= 2. Conceptually every node rotates its blocks,
// runs the digit rounds and unrotates; rotations are local and produce no
// transfers. Round k (weight r^k, k = 0 .. ceil(log_r n) - 1) is one step:
// for each digit value j = 1 .. r-1, node i sends to i + j*r^k (mod n) every
// block it holds whose remaining offset (dst - i) mod n has digit j at
// position k: up to r-1 transfers per node per step. A block from src to dst
// thus moves by the base-r digits of (dst - src) mod n, lowest first, and is
// forwarded through the nodes in between (a node sends blocks it received in
// earlier steps). ceil(log_r n) steps; with r = 2 and n = 2^s every node sends
// n/2 blocks per step.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class AlltoallBruck : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
