#include "topology/balanced_factors.h"

#include <cstdint>

namespace photonsim {

std::vector<int> balanced_factors(int n, int count) {
  if (count == 1) return {n};
  int best = 1;
  for (int a = 1; static_cast<int64_t>(a) * a <= n; ++a) {
    int64_t power = 1;
    for (int i = 0; i < count; ++i) power *= a;
    if (power > n) break;
    if (n % a == 0) best = a;
  }
  std::vector<int> rest = balanced_factors(n / best, count - 1);
  rest.insert(rest.begin(), best);
  return rest;
}

}  // namespace photonsim
