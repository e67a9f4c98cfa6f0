#pragma once
// Contract: direct all-to-all: n-1 pairwise rounds, round r sends the flow
// i -> (i + r) mod n from every node i (one permutation per round). Block
// (src, dst) is numbered src * n + dst. The rounds are independent, so a
// static planner regroups flows by hop count (the all-to-all paper's Fig. 4).
// Parameter rounds: one puts every flow in a single step instead (a single
// communication phase: ReTri's "static shortest-path source-destination
// All-to-All"), which no planner regroups.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class AlltoallDirect : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
