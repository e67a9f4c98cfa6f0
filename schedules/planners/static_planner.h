#pragma once
// Contract: every step runs on one topology (synthesis.static_topology, else
// synthesis.topology). For independent steps (direct all-to-all) the flows are
// regrouped into rounds by their hop count on that topology, shortest first:
// the all-to-all paper's rule for a single topology (its Figure 4).
#include "schedules/planners/planner.h"

namespace photonsim {

class StaticPlanner : public Planner {
 public:
  PlannerInfo info() const override;
  Schedule plan(const StepPattern& pattern, const PlanningInput& input) const override;
};

}  // namespace photonsim
