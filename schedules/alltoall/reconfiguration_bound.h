#pragma once
// Contract: lower bounds on the all-to-all paper's transmission term: the sum
// over rounds of each round's longest hop count, in units of T, over every
// strategy that configures exactly d topologies on n GPUs with k ports each.
//   k = 1: Theorem 1, d*q(q+1)/2 + u(q+1), q = floor((n-1)/d), u = (n-1) mod d.
//   k > 1: the same argument with the Moore bound (ours; the paper states
//     Theorem 1 for k = 1 only). A round sends at most k flows per source
//     (one per out-circuit at the first hop), and on one degree-k topology at
//     most M(h) = k + k^2 + ... + k^h destinations lie within h hops. So a
//     topology serving x destinations per source needs rounds j = 1..ceil(x/k)
//     whose j-th cheapest costs at least min{h : M(h) >= min(j*k, x)}; the
//     bound is the least total over splits x_1 + ... + x_d = n - 1.
//     For k = 1 it is Theorem 1 exactly.
// Throws Error unless n >= 2, k >= 1 and 1 <= d <= n - 1.
#include <cstdint>

namespace photonsim {

int64_t transmission_lower_bound(int gpus, int ports, int configurations);

}  // namespace photonsim
