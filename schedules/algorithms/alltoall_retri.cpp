#include "schedules/algorithms/alltoall_retri.h"

#include <string>

#include "schedules/algorithms/alltoall_step_builder.h"

namespace photonsim {

AlgorithmInfo AlltoallRetri::info() const {
  return {"retri",
          {Collective::alltoall},
          "static",
          "ReTri balanced-ternary all-to-all: ceil(log3 n) phases, +-3^k (any n; n = 3^s is the paper's)"};
}

bool AlltoallRetri::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {

constexpr uint32_t kRetriPlusLane = 0;
constexpr uint32_t kRetriMinusLane = 1;

// The centred representative of an offset mod n: -ceil(n/2)+1 .. floor(n/2).
int64_t centred(int64_t offset, int64_t n) { return offset <= n / 2 ? offset : offset - n; }

// The s balanced-ternary digits of c, lowest first; c must fit in s digits.
std::vector<int> balanced_ternary(int64_t c, int digits) {
  std::vector<int> tau(static_cast<size_t>(digits), 0);
  for (int k = 0; k < digits; ++k) {
    const int64_t rest = ((c % 3) + 3) % 3;  // 0, 1 or 2 (= -1 with a carry)
    const int digit = rest == 2 ? -1 : static_cast<int>(rest);
    tau[static_cast<size_t>(k)] = digit;
    c = (c - digit) / 3;
  }
  return tau;
}

}  // namespace

StepPattern AlltoallRetri::pattern(const AlgorithmInput& input) const {
  const int64_t n = input.gpus();
  if (n < 2) input.params.fail("supports n >= 2 GPUs, got n = " + std::to_string(n));
  int phases = 0;
  for (int64_t reach = 1; reach < n; reach *= 3) ++phases;  // ceil(log3 n)

  // tau[offset][k] for every offset mod n: one lookup per block and phase.
  std::vector<std::vector<int>> tau;
  for (int64_t offset = 0; offset < n; ++offset) tau.push_back(balanced_ternary(centred(offset, n), phases));

  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n * n);
  std::vector<int64_t> at(static_cast<size_t>(n * n));  // where each block is now
  for (int64_t b = 0; b < n * n; ++b) at[static_cast<size_t>(b)] = b / n;

  int64_t weight = 1;
  for (int k = 0; k < phases; ++k, weight *= 3) {
    AlltoallStepBuilder step(static_cast<uint32_t>(n), 2);
    for (int64_t b = 0; b < n * n; ++b) {
      const int64_t offset = ((b % n) - b / n + n) % n;
      const int digit = tau[static_cast<size_t>(offset)][static_cast<size_t>(k)];
      if (digit == 0) continue;
      int64_t& here = at[static_cast<size_t>(b)];
      const int64_t there = ((here + digit * weight) % n + n) % n;
      step.add(static_cast<Node>(here), digit > 0 ? kRetriPlusLane : kRetriMinusLane, static_cast<Node>(there),
               static_cast<uint32_t>(b));
      here = there;
    }
    pattern.steps.push_back(step.take(input.workload.message));
  }
  return pattern;
}

}  // namespace photonsim
