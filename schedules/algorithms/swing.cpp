#include "schedules/algorithms/swing.h"

#include <cstdint>
#include <string>

#include "schedules/algorithms/butterfly.h"

namespace photonsim {

AlgorithmInfo Swing::info() const {
  return {
      "swing",  {Collective::allreduce, Collective::reducescatter, Collective::allgather},
      "static", "Swing: log2 n steps per half, peer u +- rho(s), rho = 1, -1, 3, -5, ...; halves the data each step",
      {},       "n a power of two"};
}

bool Swing::supports(int gpus, int /*ports*/) const { return gpus >= 2 && (gpus & (gpus - 1)) == 0; }

int Swing::rho(int step) {
  int64_t power = 1;  // (-2)^(step+1)
  for (int i = 0; i <= step; ++i) power *= -2;
  return static_cast<int>((1 - power) / 3);
}

int Swing::peer(int node, int step, int n) {
  const int offset = node % 2 == 0 ? rho(step) : -rho(step);
  return ((node + offset) % n + n) % n;
}

StepPattern Swing::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  if (n < 2 || (n & (n - 1)) != 0) {
    input.params.fail("needs n to be a power of two >= 2 (2, 4, 8, ...), got n = " + std::to_string(n));
  }
  const Butterfly butterfly(n, [n](int rank, int step) { return peer(rank, step, n); });
  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n);
  pattern.steps = butterfly.phases(Butterfly::one_block_per_node(n, input.workload.message), input.workload.collective);
  return pattern;
}

}  // namespace photonsim
