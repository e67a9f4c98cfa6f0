#include "schedules/algorithms/alltoall_bruck.h"

#include <algorithm>
#include <string>

#include "schedules/algorithms/alltoall_step_builder.h"

namespace photonsim {

AlgorithmInfo AlltoallBruck::info() const {
  return {"bruck",
          {Collective::alltoall},
          "static",
          "Bruck's index all-to-all: ceil(log_r n) digit rounds, r-1 transfers per node per round",
          {ParameterSpec::integer("radix", 2, "the digit base r", 2)}};
}

bool AlltoallBruck::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

StepPattern AlltoallBruck::pattern(const AlgorithmInput& input) const {
  const int64_t radix = input.params.integer("radix");
  const int64_t n = input.gpus();
  if (n < 2) input.params.fail("supports n >= 2 GPUs, got n = " + std::to_string(n));

  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n * n);
  // Digit values j with j * r^k < n are the only ones any offset can have.
  const auto lanes = static_cast<uint32_t>(std::min(radix, n) - 1);
  std::vector<int64_t> at(static_cast<size_t>(n * n));  // where each block is now
  for (int64_t b = 0; b < n * n; ++b) at[static_cast<size_t>(b)] = b / n;

  // weight = r^k; the update avoids overflowing for huge radices.
  for (int64_t weight = 1; weight < n; weight = (weight > (n - 1) / radix) ? n : weight * radix) {
    AlltoallStepBuilder step(static_cast<uint32_t>(n), lanes);
    for (int64_t b = 0; b < n * n; ++b) {
      const int64_t offset = ((b % n) - b / n + n) % n;
      const int64_t digit = (offset / weight) % radix;
      if (digit == 0) continue;
      int64_t& here = at[static_cast<size_t>(b)];
      const int64_t there = (here + digit * weight) % n;
      step.add(static_cast<Node>(here), static_cast<uint32_t>(digit - 1), static_cast<Node>(there),
               static_cast<uint32_t>(b));
      here = there;
    }
    pattern.steps.push_back(step.take(input.workload.message));
  }
  return pattern;
}

}  // namespace photonsim
