#pragma once
// Contract: the test oracle. For small step counts it enumerates every
// assignment of a candidate topology to each step (so every reconfiguration
// set) and returns the one with the lowest predicted time under
// alpha_beta_congestion, reconfiguration delays included; ties keep the
// earliest assignment in enumeration order. Candidates (planner parameter
// `candidates`, default [ring, torus, grid, hypercube, step]): topology
// generator names built for this fabric, plus `step` = each step's own
// circuits; those that do not fit the ports or the GPU count are skipped.
// Refuses (Error) when the search would exceed `limit` assignments
// (default 2000000).
#include "schedules/planners/planner.h"

namespace photonsim {

class ExhaustivePlanner : public Planner {
 public:
  PlannerInfo info() const override;
  Schedule plan(const StepPattern& pattern, const PlanningInput& input) const override;
};

}  // namespace photonsim
