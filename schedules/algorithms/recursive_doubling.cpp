#include "schedules/algorithms/recursive_doubling.h"

#include "schedules/model/block_sizes.h"

namespace photonsim {

AlgorithmInfo RecursiveDoubling::info() const {
  return {"recursive_doubling",
          {Collective::allreduce, Collective::reducescatter, Collective::allgather},
          "static",
          "Harvest's cyclic recursive doubling, any n: ceil(log2 n) steps per half, u -> u+2^(i-1), m/2^i in step i"};
}

bool RecursiveDoubling::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

int RecursiveDoubling::steps(int n) {
  int steps = 0;
  while ((1 << steps) < n) ++steps;
  return steps;
}

int RecursiveDoubling::blocks_in_step(int n, int step) {
  const int distance = 1 << (step - 1);
  if (distance >= n) return 0;
  return (n - distance + 2 * distance - 1) / (2 * distance);
}

StepPattern RecursiveDoubling::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  const int levels = steps(n);
  const Collective c = input.workload.collective;
  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n);
  // Every node sends to u + distance the blocks at offsets `offsets`, where the
  // offset of block b is (b - u) mod n (reduce) or (u - b) mod n (all-gather).
  auto add_step = [&](int distance, const std::vector<int>& offsets, TransferOp op) {
    std::vector<Transfer> step;
    for (int u = 0; u < n; ++u) {
      Transfer t;
      t.src = static_cast<Node>(u);
      t.dst = static_cast<Node>((u + distance) % n);
      for (int k : offsets) {
        const int b = op == TransferOp::reduce ? (u + k) % n : (u - k + n) % n;
        t.blocks.push_back(static_cast<uint32_t>(b));
      }
      t.bytes = blocks_bytes(input.workload.message, pattern.blocks, t.blocks);
      t.op = op;
      step.push_back(std::move(t));
    }
    pattern.steps.push_back(std::move(step));
  };
  if (c != Collective::allgather) {
    for (int i = 1; i <= levels; ++i) {
      const int d = 1 << (i - 1);
      std::vector<int> offsets;  // lowest set bit d: the binomial children that forward now
      for (int k = d; k < n; k += 2 * d) offsets.push_back(k);
      add_step(d, offsets, TransferOp::reduce);
    }
  }
  if (c != Collective::reducescatter) {
    for (int i = levels; i >= 1; --i) {
      const int d = 1 << (i - 1);
      std::vector<int> offsets;  // multiples of 2d that already hold the block and have a child at +d
      for (int k = 0; k + d < n; k += 2 * d) offsets.push_back(k);
      add_step(d, offsets, TransferOp::copy);
    }
  }
  return pattern;
}

}  // namespace photonsim
