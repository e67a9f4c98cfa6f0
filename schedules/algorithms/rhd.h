#pragma once
// Contract: Rabenseifner's recursive halving + doubling (Thakur, Rabenseifner
// & Gropp 2005; the RHD of PCCL) for any n >= 2. Let p = 2^floor(log2 n) and
// r = n - p. Power-of-two n (r = 0): reduce-scatter by recursive halving,
// step s pairs u with u XOR (n / 2^(s+1)) (distance n/2 first) and reduces the
// half of its blocks the partner's side owns, m / 2^(s+1) per node, so node b
// ends with block b; the all-gather is recursive doubling, the mirror (distance
// 1 first, step t copies m * 2^t / n). AllReduce = both, 2 log2 n steps.
// Other n fold first (MPICH's scheme): each even node 2j < 2r hands its vector
// to 2j+1 (reduce of all n blocks; for an all-gather, a copy of block 2j) and
// sits out; the p remaining nodes run the butterfly above on ranks
// 0..p-1 (rank j < r is node 2j+1 and owns blocks 2j and 2j+1, rank j >= r is
// node j + r and owns block j + r); at the end 2j+1 copies back to 2j what it
// needs: block 2j for a reduce-scatter, every block for an AllReduce, every
// block but 2j for an all-gather. So the fold adds 2 steps to each collective.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class Rhd : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
