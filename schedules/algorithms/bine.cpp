#include "schedules/algorithms/bine.h"

#include <cstdint>
#include <string>

#include "schedules/algorithms/butterfly.h"

namespace photonsim {

AlgorithmInfo Bine::info() const {
  return {"bine",
          {Collective::allreduce, Collective::reducescatter, Collective::allgather},
          "static",
          "Bine negabinary butterfly: log2 n steps per half (doubling = Swing's pattern, halving = farthest first)",
          {ParameterSpec::choice("distance", {"doubling", "halving"},
                                 "doubling = Swing's peers, halving = farthest first")},
          "n a power of two"};
}

bool Bine::supports(int gpus, int /*ports*/) const { return gpus >= 2 && (gpus & (gpus - 1)) == 0; }

int Bine::negabinary_ones(int ones) {
  int64_t value = 0;
  int64_t weight = 1;  // (-2)^j
  for (int j = 0; j < ones; ++j) {
    value += weight;
    weight *= -2;
  }
  return static_cast<int>(value);
}

StepPattern Bine::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  if (n < 2 || (n & (n - 1)) != 0) {
    input.params.fail("needs n to be a power of two >= 2 (2, 4, 8, ...), got n = " + std::to_string(n));
  }
  const std::string distance = input.params.text("distance");
  int log2n = 0;
  while ((1 << log2n) < n) ++log2n;
  const bool halving = distance == "halving";
  const Butterfly butterfly(n, [n, log2n, halving](int rank, int step) {
    const int digits = (halving ? log2n - 1 - step : step) + 1;
    const int d = rank % 2 == 0 ? negabinary_ones(digits) : -negabinary_ones(digits);
    return ((rank + d) % n + n) % n;
  });
  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n);
  pattern.steps = butterfly.phases(Butterfly::one_block_per_node(n, input.workload.message), input.workload.collective);
  return pattern;
}

}  // namespace photonsim
