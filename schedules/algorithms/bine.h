#pragma once
// Contract: Bine butterfly reduce-scatter / all-gather / AllReduce (De Sensi
// et al., "Bine trees", SC 2025) for n a power of two. Sources of the formulas:
//  * Harvest (seeds/003, Sec. 6): "Swing ... is equivalent to Bine Butterfly in
//    terms of communication pattern".
//  * The Bine paper: ranks pair through negabinary (base -2) numbers. In step s
//    an even rank r pairs with r + d(s), an odd rank with r - d(s) (mod n),
//    where d(s) is the value of the negabinary numeral of s+1 ones,
//    sum_{j<=s} (-2)^j = 1, -1, 3, -5, 11, ... (the authors' MPI code computes it
//    as negabinary_to_binary((1 << (s+1)) - 1)).
//  * Block sets: the authors' reduce-scatter sends, in step s, the blocks of
//    the subtree the peer still reaches (contiguous after their negabinary
//    remap of the vector); here the same sets are computed directly (Butterfly),
//    so rank b ends with block b and the data halves every step.
// Parameter `distance`: `doubling` (default; reduce-scatter distances |d(0)|,
// |d(1)|, ... grow, as in the authors' code and Harvest's equivalence with
// Swing) or `halving` (the distance-halving Bine butterfly: reduce-scatter
// step s uses d(log2 n - 1 - s), farthest first, like Rabenseifner's recursive
// halving; the all-gather then doubles). Either way log2(n) steps per half,
// reduce-scatter step s carries m / 2^(s+1) per node, the all-gather mirrors it.
// Other n throw Error.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class Bine : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;

  // The value of the negabinary numeral made of `ones` one-digits.
  static int negabinary_ones(int ones);
};

}  // namespace photonsim
