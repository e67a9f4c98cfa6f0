#include "schedules/algorithms/allreduce_ring.h"

#include "schedules/model/block_sizes.h"

namespace photonsim {

AlgorithmInfo AllreduceRing::info() const {
  return {"ring",
          {Collective::allreduce, Collective::reducescatter, Collective::allgather},
          "static",
          "ring reduce-scatter and/or all-gather on the cycle 0->1->...->n-1"};
}

bool AllreduceRing::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

StepPattern AllreduceRing::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  const Collective collective = input.workload.collective;
  const bool reduce_scatter = collective != Collective::allgather;
  const bool all_gather = collective != Collective::reducescatter;
  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n);
  // Reduce-scatter step s: node i adds block (i - s - 1) into i + 1, so after
  // n - 1 steps node i holds block i fully reduced. All-gather step s: node i
  // passes block (i - s) on, starting from the block it owns.
  auto add_phase = [&](TransferOp op, int block_offset) {
    for (int s = 0; s < n - 1; ++s) {
      std::vector<Transfer> step;
      for (int i = 0; i < n; ++i) {
        const auto block = static_cast<uint32_t>(((i - s - block_offset) % n + n) % n);
        Transfer t;
        t.src = static_cast<Node>(i);
        t.dst = static_cast<Node>((i + 1) % n);
        t.bytes = block_bytes(input.workload.message, pattern.blocks, block);
        t.blocks = {block};
        t.op = op;
        step.push_back(std::move(t));
      }
      pattern.steps.push_back(std::move(step));
    }
  };
  if (reduce_scatter) add_phase(TransferOp::reduce, 1);
  if (all_gather) add_phase(TransferOp::copy, 0);
  return pattern;
}

}  // namespace photonsim
