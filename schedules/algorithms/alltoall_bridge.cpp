#include "schedules/algorithms/alltoall_bridge.h"

#include <string>

#include "schedules/algorithms/alltoall_step_builder.h"
#include "schedules/model/block_sizes.h"

namespace photonsim {

AlgorithmInfo AlltoallBridge::info() const {
  return {
      "bridge",
      {Collective::alltoall},
      "static",
      "Bridge's mirrored Bruck all-to-all: blocks take the shorter way, +-2^k in phase k, floor(log2 n) phases",
      {ParameterSpec::choice("mirror", {"centred", "halves"}, "halves = the ReTri paper's variant, each flow halved")}};
}

bool AlltoallBridge::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {
constexpr uint32_t kPlusLane = 0;
constexpr uint32_t kMinusLane = 1;

// The ReTri paper's evaluation variant: every flow halved, part 0 sent the
// + way by its offset o, part 1 the - way by n - o, each as a plain Bruck.
StepPattern halved_pattern(const AlgorithmInput& input) {
  const int64_t n = input.gpus();
  StepPattern pattern;
  pattern.block_parts = 2;
  pattern.blocks = static_cast<uint32_t>(n * n * 2);
  std::vector<int64_t> at(static_cast<size_t>(n * n * 2));
  for (int64_t b = 0; b < n * n * 2; ++b) at[static_cast<size_t>(b)] = b / 2 / n;
  const Bytes message = input.workload.message;
  for (int64_t weight = 1; weight < n; weight *= 2) {
    AlltoallStepBuilder step(static_cast<uint32_t>(n), 2);
    for (int64_t b = 0; b < n * n * 2; ++b) {
      const int64_t flow = b / 2, part = b % 2;
      const int64_t offset = ((flow % n) - flow / n + n) % n;
      const int64_t distance = part == 0 ? offset : (n - offset) % n;
      if ((distance & weight) == 0) continue;
      int64_t& here = at[static_cast<size_t>(b)];
      const int64_t there = part == 0 ? (here + weight) % n : (here - weight + n) % n;
      step.add(static_cast<Node>(here), part == 0 ? kPlusLane : kMinusLane, static_cast<Node>(there),
               static_cast<uint32_t>(b));
      here = there;
    }
    std::vector<Transfer> transfers = step.take([&](uint32_t block) { return block_bytes(message, 2, block % 2); });
    for (Transfer& t : transfers) t.counterclockwise = t.blocks.front() % 2 == 1;  // the "-" half
    pattern.steps.push_back(std::move(transfers));
  }
  return pattern;
}

}  // namespace

StepPattern AlltoallBridge::pattern(const AlgorithmInput& input) const {
  const int64_t n = input.gpus();
  if (n < 2) input.params.fail("supports n >= 2 GPUs, got n = " + std::to_string(n));
  if (input.params.text("mirror") == "halves") return halved_pattern(input);

  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n * n);
  std::vector<int64_t> at(static_cast<size_t>(n * n));  // where each block is now
  for (int64_t b = 0; b < n * n; ++b) at[static_cast<size_t>(b)] = b / n;

  for (int64_t weight = 1; weight <= n / 2; weight *= 2) {
    AlltoallStepBuilder step(static_cast<uint32_t>(n), 2);
    for (int64_t b = 0; b < n * n; ++b) {
      const int64_t offset = ((b % n) - b / n + n) % n;
      const bool plus = offset <= n / 2;  // centred: n/2 itself goes the + way
      const int64_t distance = plus ? offset : n - offset;
      if ((distance & weight) == 0) continue;
      int64_t& here = at[static_cast<size_t>(b)];
      const int64_t there = plus ? (here + weight) % n : (here - weight + n) % n;
      step.add(static_cast<Node>(here), plus ? kPlusLane : kMinusLane, static_cast<Node>(there),
               static_cast<uint32_t>(b));
      here = there;
    }
    pattern.steps.push_back(step.take(input.workload.message));
  }
  return pattern;
}

}  // namespace photonsim
