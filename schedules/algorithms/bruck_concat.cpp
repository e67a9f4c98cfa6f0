#include "schedules/algorithms/bruck_concat.h"

#include <algorithm>

#include "schedules/model/block_sizes.h"

namespace photonsim {

AlgorithmInfo BruckConcat::info() const {
  return {"bruck_concat",
          {Collective::allgather},
          "static",
          "Bruck's concatenation all-gather: ceil(log2 n) steps, u sends all it has to u-2^k"};
}

bool BruckConcat::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

StepPattern BruckConcat::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n);
  for (int distance = 1; distance < n; distance *= 2) {
    const int count = std::min(distance, n - distance);
    std::vector<Transfer> step;
    for (int u = 0; u < n; ++u) {
      Transfer t;
      t.src = static_cast<Node>(u);
      t.dst = static_cast<Node>((u - distance + n) % n);
      for (int i = 0; i < count; ++i) t.blocks.push_back(static_cast<uint32_t>((u + i) % n));
      t.bytes = blocks_bytes(input.workload.message, pattern.blocks, t.blocks);
      step.push_back(std::move(t));
    }
    pattern.steps.push_back(std::move(step));
  }
  return pattern;
}

}  // namespace photonsim
