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
// With `dims` (a torus of powers of two) each step pairs peers along one
// dimension, the dimensions in turn, with rho counted per dimension and the
// parity of the node's coordinate there. With `multiport` (AllReduce only)
// 2 x D planes run at once, each on its own share of every node's data
// (blocks r * planes + c): plane c starts in dimension c mod D and planes
// D.. mirror the peers (u -+ rho), so a step sends to one peer per
// dimension and direction, every port of a D-dimensional torus.
#include <vector>

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

  // Step s of a plane starting in dimension `first`: which dimension, and
  // which of that dimension's own steps (rho's index).
  struct DimensionStep {
    int dimension = 0;
    int within = 0;
  };
  static std::vector<DimensionStep> dimension_steps(const std::vector<int>& dims, int first);
  // The peer of `node` on the torus `dims` (row-major, the last dimension
  // varying fastest) in that step, mirrored or not.
  static int torus_peer(int node, const std::vector<int>& dims, DimensionStep step, bool mirrored);
};

}  // namespace photonsim
