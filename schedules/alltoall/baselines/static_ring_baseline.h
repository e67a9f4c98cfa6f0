#pragma once
// Contract: `static_ring`, the all-to-all paper's Figure 4: one topology, the
// directed n-cycle 0 -> 1 -> ... -> n-1 -> 0 (one port per GPU), every flow on
// its only path and flows of equal hop count in one round: R + T*n(n-1)/2.
#include "schedules/alltoall/joint_synthesizer.h"

namespace photonsim {

class StaticRingBaseline : public JointSynthesizer {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  std::vector<AlltoallStrategy> strategies(const JointInput& input, std::optional<int> only) const override;
};

}  // namespace photonsim
