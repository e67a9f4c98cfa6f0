#pragma once
// Contract: Swing reduce-scatter / all-gather / AllReduce (De Sensi et al.,
// NSDI 2024, as described in Harvest and PCCL) for n a power of two. In step
// s (0-based) node u pairs with pi(u, s) = u + rho(s) if u is even, u - rho(s)
// if u is odd (mod n), rho(s) = (1 - (-2)^(s+1)) / 3 = 1, -1, 3, -5, 11, ...
// Bandwidth-optimal block sets: in reduce-scatter step s, u reduces into its
// peer the blocks of the nodes the peer reaches in steps s+1..log2(n)-1, so
// node b ends with block b (Schedule::blocks()) and step s carries m / 2^(s+1)
// per node; log2(n) steps. The all-gather mirrors it (steps reversed, step t
// carries m * 2^t / n); AllReduce is the reduce-scatter then the all-gather.
// Other n throw Error: the paper's non-power-of-two variant is not implemented.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class Swing : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;

  // rho(s) = (1 - (-2)^(s+1)) / 3.
  static int rho(int step);
  // pi(u, s) on n nodes.
  static int peer(int node, int step, int n);
};

}  // namespace photonsim
