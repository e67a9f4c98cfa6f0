#pragma once
// Contract: the one factorisation of n into `count` >= 1 factors that are as
// balanced as possible, smallest first (torus/grid shapes, the bucket
// algorithm's default dims): the first factor is the largest divisor a of n
// with a^count <= n, the rest the same rule applied to n / a.
#include <vector>

namespace photonsim {

std::vector<int> balanced_factors(int n, int count);

}  // namespace photonsim
