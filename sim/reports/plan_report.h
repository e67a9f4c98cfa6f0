#pragma once
// Contract: `photonsim plan`: every planner's take on one synthesis, ranked by
// predicted time (planners that cannot place the pattern listed last with
// their reason). Per planner: the steps that reconfigure, the topology each
// configuration installs, the number of reconfigurations and the predicted
// time. JSON keys: planners[] of {planner, ok, predicted_ps, reconfigurations,
// reconfigure_before_steps, topologies, error}, and `best`. A joint
// synthesizer lists one entry per number of topologies d ("joint d=2") with
// its TotalCost in the paper's units (dR + hT; JSON `hop_sum_T`, null for a
// static design whose one round is not contention-free; `construction`).
#include <string>
#include <vector>

#include "schedules/synthesis/plan_candidate.h"

namespace photonsim {

struct PlanReport {
  std::vector<PlanCandidate> outcomes;  // ranked

  static PlanReport rank(std::vector<PlanCandidate> outcomes);
  std::string table() const;
  std::string json() const;
};

}  // namespace photonsim
