#pragma once
// Contract: the bucket algorithm on a 2D or 3D torus (PCCL's baseline; the
// TPU torus AllReduce): a ring reduce-scatter along each dimension in turn,
// then ring all-gathers along the dimensions in reverse order. Parameter
// `dims` (AxB or AxBxC, product n; default: n factored into the most balanced
// 2D shape a x b, a <= b, as the torus generator does). Nodes are numbered
// row-major like the torus generator (the last dimension varies fastest) and
// every ring runs +1 along its dimension with wrap-around, so on the matching
// `torus` topology every transfer is one hop. Reduce-scatter phase k (k = 0, 1,
// ...): a node holds the blocks whose coordinates 0..k-1 equal its own, in d_k
// groups by coordinate k; ring step s (0-based) reduces the group of
// coordinate (c - s - 1) mod d_k from the node at coordinate c into c + 1, so
// after d_k - 1 steps each node keeps the group of its own coordinate, and at
// the end node b holds block b. Phase k step carries m / (d_0 * ... * d_k).
// The all-gather is the mirror (last dimension first, group (c - s) mod d_k
// copied to c + 1). Steps: sum (d_k - 1) per half.
#include <vector>

#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class Bucket : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;

  // The torus shape used for n: `dims` if given (checked against n), else the
  // balanced 2D factorisation.
  static std::vector<int> dimensions(const AlgorithmInput& input);
};

}  // namespace photonsim
