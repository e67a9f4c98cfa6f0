#pragma once
// Contract: ReTri's balanced-ternary all-to-all (ReTri section 3.2) for any
// n >= 2, in s = ceil(log3 n) phases, one step each. Block (src, dst) has the
// centred offset c: o = (dst - src) mod n, c = o if o <= floor(n/2), else
// c = o - n, so c lies in -ceil(n/2)+1 .. floor(n/2) (for n = 3^s that is the
// paper's -(n-1)/2 .. (n-1)/2). c is written in balanced ternary with s digits
// tau_0 .. tau_{s-1} in {-1, 0, +1}, c = sum tau_k 3^k. In phase k (weight 3^k)
// a block at node i moves to (i + 3^k) mod n if tau_k = +1, to (i - 3^k) mod n
// if tau_k = -1, and stays if tau_k = 0; node i thus sends at most two
// transfers per phase, one to each of its subring neighbours i +- 3^k.
// n = 3^s (the paper's case): the offsets and the 3^s digit vectors are in
// bijection, and in every phase each node sends exactly n/3 blocks each way
// (Appendix B).
// Other n (the paper leaves it open): the same rule on the n-node ring, with
// the centred offset above and every move taken mod n. s = ceil(log3 n) digits
// cover -(3^s-1)/2 .. (3^s-1)/2, which contains the centred range because
// 3^s > n, so every block reaches dst after s phases; the top digit is used
// by some block (3^(s-1) < n), so no phase is empty. The phases are no longer
// balanced: one direction can carry more than n/3 blocks per node (52 of
// n = 130 in phase k = 3) while the top phase carries few (25 for n = 130), and
// when 2 * 3^k = 0 (mod n) (e.g. n = 6, k = 1) both of a node's transfers in
// phase k go to the same neighbour. This is not the paper's remark (section 5)
// of running the pattern of the next power of three on a ring.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class AlltoallRetri : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
