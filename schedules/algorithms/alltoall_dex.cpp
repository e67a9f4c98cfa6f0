#include "schedules/algorithms/alltoall_dex.h"

#include <string>

#include "schedules/algorithms/alltoall_step_builder.h"

namespace photonsim {

AlgorithmInfo AlltoallDex::info() const {
  return {"dex",    {Collective::alltoall},
          "static", "hypercube dimension-exchange all-to-all (PCCL): log2 n steps, n/2 blocks to i xor 2^k",
          {},       "n a power of two"};
}

bool AlltoallDex::supports(int gpus, int /*ports*/) const { return gpus >= 2 && (gpus & (gpus - 1)) == 0; }

StepPattern AlltoallDex::pattern(const AlgorithmInput& input) const {
  const int64_t n = input.gpus();
  if (n < 2 || (n & (n - 1)) != 0) {
    input.params.fail("needs n a power of two (2, 4, 8, 16, ...), got n = " + std::to_string(n));
  }

  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n * n);
  std::vector<int64_t> at(static_cast<size_t>(n * n));  // where each block is now
  for (int64_t b = 0; b < n * n; ++b) at[static_cast<size_t>(b)] = b / n;

  for (int64_t bit = 1; bit < n; bit *= 2) {
    AlltoallStepBuilder step(static_cast<uint32_t>(n), 1);
    for (int64_t b = 0; b < n * n; ++b) {
      int64_t& here = at[static_cast<size_t>(b)];
      if (((here ^ (b % n)) & bit) == 0) continue;
      step.add(static_cast<Node>(here), 0, static_cast<Node>(here ^ bit), static_cast<uint32_t>(b));
      here ^= bit;
    }
    pattern.steps.push_back(step.take(input.workload.message));
  }
  return pattern;
}

}  // namespace photonsim
