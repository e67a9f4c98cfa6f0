#include "schedules/allreduce_ring.h"

namespace photonsim {

namespace {
Bytes block_bytes(Bytes message, int n, uint32_t block) {
  const int64_t base = message.count() / n;
  const int64_t extra = message.count() % n;
  return Bytes(base + (static_cast<int64_t>(block) < extra ? 1 : 0));
}
}  // namespace

StepPattern AllreduceRing::pattern(const FabricSpec& fabric, const WorkloadSpec& workload) const {
  const int n = fabric.gpus;
  const bool reduce_scatter = workload.collective != Collective::allgather;
  const bool all_gather = workload.collective != Collective::reducescatter;
  StepPattern pattern;
  auto add_phase = [&](TransferOp op, int block_offset) {
    for (int s = 0; s < n - 1; ++s) {
      std::vector<Transfer> step;
      for (int i = 0; i < n; ++i) {
        const auto block = static_cast<uint32_t>(((i + block_offset - s) % n + n) % n);
        Transfer t;
        t.src = static_cast<Node>(i);
        t.dst = static_cast<Node>((i + 1) % n);
        t.bytes = block_bytes(workload.message, n, block);
        t.blocks = {block};
        t.op = op;
        step.push_back(std::move(t));
      }
      pattern.steps.push_back(std::move(step));
    }
  };
  if (reduce_scatter) add_phase(TransferOp::reduce, 0);
  // After reduce-scatter node i holds the reduced block (i + 1) mod n; an
  // all-gather alone starts from node i owning block i.
  if (all_gather) add_phase(TransferOp::copy, reduce_scatter ? 1 : 0);
  return pattern;
}

}  // namespace photonsim
