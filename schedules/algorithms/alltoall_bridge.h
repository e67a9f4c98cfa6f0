#pragma once
// Contract: the mirrored two-port Bruck all-to-all of Bridge (ReTri section 2,
// Figure 1) for any n >= 2. Each block (src, dst) takes the shorter way round
// the ring: its offset (dst - src) mod n is centred into -ceil(n/2)+1 ..
// floor(n/2) (for even n the antipodal offset n/2 goes the + way), and the
// block moves by the binary digits of |offset|, lowest first, in the sign's
// direction. Phase k (weight 2^k) is one step in which node i sends to
// i + 2^k the blocks whose positive offset has bit k set and to i - 2^k those
// whose negative offset has bit k set: two transfers per node, the subrings of
// residue class mod 2^k. The largest |offset| is floor(n/2), so there are
// floor(log2 n) phases: log2 n for n = 2^s, one fewer than ceil(log2 n)
// otherwise (no empty phase is emitted). For n = 2^s, phases k < s-1 carry
// n/4 blocks each way per node and the last phase only the offset-n/2 block
// (+ way). Parameter `mirror`: `centred` (default) mirrors by block as above;
// `halves` is the ReTri paper's evaluation variant: every flow is cut in two
// parts (block_parts = 2), part 0 goes the + way by the bits of its offset
// o, part 1 the - way by those of n - o, so each of the ceil(log2 n) phases
// moves about a quarter of the buffer each way.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class AlltoallBridge : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
