#pragma once
// Contract: every step runs on one topology (synthesis.static_topology, else
// synthesis.topology). For independent steps (direct all-to-all) the flows are
// regrouped into rounds by their hop count on that topology, shortest first:
// the all-to-all paper's rule for a single topology (its Figure 4).
#include <string>
#include <vector>

#include "schedules/planners/planner.h"

namespace photonsim {

// For independent steps: every transfer of the pattern regrouped into rounds
// by its hop count on `topology`, shortest first. Throws Error naming
// `planner` and the first transfer with no route.
std::vector<std::vector<Transfer>> rounds_by_hops(const StepPattern& pattern, const Topology& topology,
                                                  const std::string& planner);

class StaticPlanner : public Planner {
 public:
  PlannerInfo info() const override;
  Schedule plan(const StepPattern& pattern, const PlanningInput& input) const override;
};

}  // namespace photonsim
