#include "schedules/algorithms/recursive_doubling_full.h"

#include <string>

#include "schedules/model/block_sizes.h"

namespace photonsim {

AlgorithmInfo RecursiveDoublingFull::info() const {
  return {"recursive_doubling_full",
          {Collective::allreduce, Collective::allgather},
          "static",
          "latency-optimal recursive doubling: log2 n steps, whole vector exchanged with u xor 2^i",
          {},
          "n a power of two"};
}

bool RecursiveDoublingFull::supports(int gpus, int /*ports*/) const { return gpus >= 2 && (gpus & (gpus - 1)) == 0; }

StepPattern RecursiveDoublingFull::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  if (n < 2 || (n & (n - 1)) != 0) {
    input.params.fail("needs n to be a power of two >= 2 (2, 4, 8, ...), got n = " + std::to_string(n));
  }
  const bool all_gather = input.workload.collective == Collective::allgather;
  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n);
  for (int mask = 1; mask < n; mask *= 2) {
    std::vector<Transfer> step;
    for (int u = 0; u < n; ++u) {
      Transfer t;
      t.src = static_cast<Node>(u);
      t.dst = static_cast<Node>(u ^ mask);
      // All-gather: the blocks of u's group so far (u with its low bits below `mask` varied).
      const int first = all_gather ? u & ~(mask - 1) : 0;
      const int count = all_gather ? mask : n;
      for (int b = first; b < first + count; ++b) t.blocks.push_back(static_cast<uint32_t>(b));
      t.bytes = blocks_bytes(input.workload.message, pattern.blocks, t.blocks);
      t.op = all_gather ? TransferOp::copy : TransferOp::reduce;
      step.push_back(std::move(t));
    }
    pattern.steps.push_back(std::move(step));
  }
  return pattern;
}

}  // namespace photonsim
