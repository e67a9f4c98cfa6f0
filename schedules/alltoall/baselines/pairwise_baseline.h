#pragma once
// Contract: `pairwise`, the all-to-all paper's Figure 5: every flow on a direct
// circuit. Offsets 1..n-1 are dealt to topologies k at a time (k =
// fabric.ports): topology t joins u -> u + delta for its k offsets, and one
// 1-hop round sends them all; d = ceil((n-1)/k), so k = 1 costs (n-1)(R + T).
#include "schedules/alltoall/joint_synthesizer.h"

namespace photonsim {

class PairwiseBaseline : public JointSynthesizer {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  std::vector<AlltoallStrategy> strategies(const JointInput& input, std::optional<int> only) const override;
};

}  // namespace photonsim
