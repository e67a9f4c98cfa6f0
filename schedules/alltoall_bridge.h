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
// (+ way). Mirroring is by block, not by halving every flow as the ReTri
// paper's evaluation does: a block is never split, which the all-to-all block
// numbering (one block = one whole flow) requires.
#include "schedules/collective_algorithm.h"

namespace photonsim {

class AlltoallBridge : public CollectiveAlgorithm {
 public:
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
