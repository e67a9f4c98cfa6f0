#pragma once
// Contract: Harvest (Rahman et al., Sec. 3-5): given a step pattern, choose
// when to reconfigure and to what, minimising its Eq. 4,
//   sum_i (alpha + delta * l_i(G_i) + beta * m_i / theta(G_i, M_i)) + alpha_r * (changes),
// by the dynamic program over contiguous step ranges (optimal_harvest_partition)
// whose range subproblem G_{a,b} = argmin over harvest_candidates() of the
// range's summed DCT, solved exactly (one theta per candidate and step
// shape, pruned by lower bounds, cached; where every GPU has one circuit out
// theta is the busiest circuit's load on the forced walks, no LP, see
// harvest_forced_flow.h). Per step:
//   M_i   = bytes from s to t in step i (transfers summed per pair);
//   m_i   = the largest per-pair volume, so M_i / m_i is the paper's 0/1
//           pattern when all pairs carry the same bytes;
//   theta = max concurrent flow of M_i / m_i with 1 unit per circuit, so
//           beta * m_i / theta is the time the busiest circuit needs in the
//           fluid (splittable multipath) model;
//   l_i   = the most hops on any path of theta's decomposition that carries
//           flow (the longest route the step's data takes).
// Each transfer is split over those paths in proportion to their flow
// (Transfer::routes; bytes sum exactly, the rounding remainder on the
// largest share), so the simulator routes as the prediction assumed.
// Initial state (MODELS.md rule 2): the fabric holds input.initial for free;
// with none the first configuration is charged alpha_r.
// Recursive doubling on n = 2^j with one directed port per GPU uses the
// closed form of harvest_recursive_doubling.h instead (no LP), unless
// closed_form is false. Parameters:
//   candidates            list of families (default all; see harvest_candidates.h)
//   max_reconfigurations  cap on charged reconfigurations (default none)
//   closed_form           true|false (default true)
//   cost                  overlapped|paper (default overlapped): the step
//                         cost of HarvestCoefficients; paper is Eq. 3/8 as
//                         printed, overlapped the fabric's forwarding
// A pattern with steps over fabric.ports is also planned cut into groups
// that fit (as every_step cuts it), and independent steps also regrouped by
// hop count on the static topology (as the static planner runs them); the
// lowest prediction is kept.
// The prediction's model is "harvest_overlapped", or with cost: paper
// "harvest" (or "harvest_eq8" for the closed form).
#include <string>
#include <vector>

#include "schedules/cost/harvest/harvest_flow_cache.h"
#include "schedules/planners/planner.h"

namespace photonsim {

class HarvestPlanner : public Planner {
 public:
  PlannerInfo info() const override;
  Schedule plan(const StepPattern& pattern, const PlanningInput& input) const override;
  // The same, reusing (and filling) `cache`: a sweep over message sizes and
  // delays solves each theta LP once.
  Schedule plan_with_cache(const StepPattern& pattern, const PlanningInput& input, HarvestFlowCache& cache) const;

 private:
  Schedule plan_pattern(const StepPattern& pattern, const PlanningInput& input, HarvestFlowCache& cache) const;
};

}  // namespace photonsim
