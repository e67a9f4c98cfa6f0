#include "schedules/alltoall_bridge.h"

#include <string>

#include "schedules/alltoall_step_builder.h"

namespace photonsim {

namespace {
constexpr uint32_t kPlusLane = 0;
constexpr uint32_t kMinusLane = 1;
}  // namespace

StepPattern AlltoallBridge::pattern(const AlgorithmInput& input) const {
  const int64_t n = input.gpus();
  if (n < 2) input.params.fail("supports n >= 2 GPUs, got n = " + std::to_string(n));

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
