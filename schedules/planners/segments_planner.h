#pragma once
// Contract: ReTri's reconfiguration placement (ReTri §3.4), for patterns
// whose phase k moves data by +-base^k (mod n): `retri_segments` (base 3, the
// retri algorithm) and `bridge_segments` (base 2, mirrored Bruck = Bridge).
// A reconfiguration before phase k0 installs the subrings i <-> i +- base^k0
// (ReTri Algorithm 1), on which phase k0 + t is served over base^t hops. For
// R reconfigurations the s phases are cut into R + 1 segments whose lengths
// differ by at most one (longer segments first); R* = argmin over 0..s-1 of
// the predicted time (alpha_beta_congestion, which on these subrings is the
// paper's C(R)), or a fixed R with planner parameter `reconfigurations`.
// The first segment runs on the ring (subrings of stride 1): free when the
// fabric starts in it (synthesis.topology: ring), charged otherwise.
#include "schedules/planners/planner.h"

namespace photonsim {

class SegmentsPlanner : public Planner {
 public:
  explicit SegmentsPlanner(int base) : base_(base) {}
  PlannerInfo info() const override;
  Schedule plan(const StepPattern& pattern, const PlanningInput& input) const override;

  // The phase at which each of the R + 1 balanced segments starts.
  static std::vector<size_t> segment_starts(size_t phases, size_t reconfigurations);

 private:
  int base_;
};

}  // namespace photonsim
