#include "schedules/algorithms/broadcast_binary_tree.h"

#include <cstdint>
#include <limits>
#include <string>

#include "schedules/model/block_sizes.h"

namespace photonsim {

AlgorithmInfo BroadcastBinaryTree::info() const {
  return {"binary_tree",
          {Collective::broadcast},
          "every_step",
          "pipelined binary-tree broadcast of ceil(message/chunk) segments in depth + segments - 1 steps"};
}

bool BroadcastBinaryTree::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {
int depth_of(int64_t relative_rank) {
  int depth = 0;
  while ((int64_t{2} << depth) <= relative_rank + 1) ++depth;
  return depth;
}
}  // namespace

StepPattern BroadcastBinaryTree::pattern(const AlgorithmInput& input) const {
  const int64_t n = input.gpus();
  if (n < 2) input.params.fail("supports n >= 2 GPUs, got n = " + std::to_string(n));
  const int64_t message = input.workload.message.count();
  const int64_t chunk = input.workload.chunk.count();
  const int64_t segments = chunk <= 0 || chunk >= message ? 1 : (message + chunk - 1) / chunk;
  if (segments > std::numeric_limits<uint32_t>::max()) {
    input.params.fail("workload.chunk cuts the message into " + std::to_string(segments) +
                      " segments, more than a block index holds; use a larger chunk");
  }
  const int64_t root = input.workload.root;
  const int tree_depth = depth_of(n - 1);

  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(segments);
  const int64_t steps = tree_depth + segments - 1;
  for (int64_t t = 0; t < steps; ++t) {
    std::vector<Transfer> step;
    // Inner nodes only: those with a left child 2v+1 < n.
    for (int64_t v = 0; 2 * v + 1 < n; ++v) {
      const int64_t segment = t - depth_of(v);
      if (segment < 0 || segment >= segments) continue;
      for (int64_t child = 2 * v + 1; child <= 2 * v + 2 && child < n; ++child) {
        Transfer transfer;
        transfer.src = static_cast<Node>((root + v) % n);
        transfer.dst = static_cast<Node>((root + child) % n);
        transfer.blocks = {static_cast<uint32_t>(segment)};
        transfer.bytes =
            block_bytes(input.workload.message, static_cast<uint32_t>(segments), static_cast<uint32_t>(segment));
        step.push_back(std::move(transfer));
      }
    }
    pattern.steps.push_back(std::move(step));
  }
  return pattern;
}

}  // namespace photonsim
