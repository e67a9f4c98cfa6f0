#pragma once
// Contract: Harvest's cyclic recursive doubling (Harvest Sec. 5.1, after
// Kolmakov & Zhang 2020) for any n >= 2, in L = ceil(log2 n) steps per half.
// Reduce-scatter step i (1-based): every node u reduces into u + 2^(i-1)
// (mod n) the blocks b whose offset k = (b - u) mod n has lowest set bit
// 2^(i-1), i.e. k = 2^(i-1) (mod 2^i). Per block this is a binomial reduction
// tree over the offsets, rooted at offset 0, so node b ends with block b
// reduced over all n inputs, each exactly once. A node sends
// blocks_in_step(n, i) = ceil((n - 2^(i-1)) / 2^i) blocks in step i: n / 2^i,
// i.e. Harvest's m / 2^i, for a power of two; for other n it is that count of
// m/n-sized blocks (e.g. n = 6: 3, 1, 1 blocks), n - 1 blocks over all steps,
// so the algorithm stays bandwidth-optimal. All-gather: the mirror, steps in
// reverse order (distance 2^(L-1) first) on the same direction u -> u + d:
// with d = 2^(L-j) in step j, u copies the blocks b whose offset
// k = (u - b) mod n is a multiple of 2d with k + d < n (a binomial broadcast of
// each block from its owner); step j carries blocks_in_step(n, L - j + 1).
// AllReduce = reduce-scatter then all-gather (2L steps).
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class RecursiveDoubling : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;

  // ceil(log2 n): steps in each half.
  static int steps(int n);
  // Blocks each node sends in reduce-scatter step `step` (1-based).
  static int blocks_in_step(int n, int step);
};

}  // namespace photonsim
