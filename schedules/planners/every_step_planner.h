#pragma once
// Contract: each step runs on its own circuits, the direct links its
// transfers ask for (BvN style; with bidirectional circuits each pair is one
// two-way circuit). A step whose circuits exceed the port limits is split,
// first-fit, into consecutive sub-steps that fit (as PCCL Section 4.2 does).
// Consecutive steps with the same circuits share one configuration. With
// `parallel: true` each pair's circuit is repeated over the ports its step
// leaves free and its transfer split over them (a pairwise exchange on 2
// ports moves at twice a circuit's rate), as Harvest's BvN schedules, whose
// topology variables are integers, may.
#include "schedules/planners/planner.h"

namespace photonsim {

class EveryStepPlanner : public Planner {
 public:
  PlannerInfo info() const override;
  Schedule plan(const StepPattern& pattern, const PlanningInput& input) const override;
};

}  // namespace photonsim
