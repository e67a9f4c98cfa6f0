#pragma once
// Contract: Bruck's concatenation all-gather (Bruck et al. 1997, one port;
// Harvest's "Bruck concatenation") for any n >= 2, in ceil(log2 n) steps.
// After step k (0-based) node u holds blocks u, u+1, ..., u + 2^(k+1) - 1
// (mod n). In step k node u sends everything gathered so far to u - 2^k
// (mod n), i.e. receives from u + 2^k: blocks u .. u + c - 1 with
// c = min(2^k, n - 2^k), so every step but the last carries m * 2^k / n and
// the last carries only the remainder, n - 2^(L-1) blocks (L = ceil(log2 n)).
// Blocks need no final rotation: the verifier tracks blocks, not buffer offsets.
// All-gather only.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class BruckConcat : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
