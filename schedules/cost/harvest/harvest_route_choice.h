#pragma once
// Contract: which routes a Harvest step takes on a topology. The paper's
// cost (HarvestCost::paper) always takes the max-concurrent-flow
// decomposition (theta and l_i of its LP). The overlapped cost, which
// follows the fabric, also prices every pair on its one shortest path and
// takes those when strictly cheaper: the LP maximises throughput whatever
// the path lengths, so on a latency-bound step its detours (longer l_i)
// can cost more than they save. Where every GPU has one circuit out both are
// the same paths.
#include "schedules/cost/harvest/harvest_coefficients.h"
#include "schedules/cost/harvest/harvest_flow_cache.h"
#include "schedules/cost/harvest/harvest_step_demand.h"

namespace photonsim {

struct HarvestRouteChoice {
  bool shortest = false;  // every pair on its shortest path (no Transfer::routes)
  double inverse_theta = 0.0;
  int hops = 0;
};

inline HarvestRouteChoice choose_harvest_routes(const HarvestCoefficients& c, const HarvestStepDemand& demand,
                                                double lp_inverse_theta, int lp_hops, double shortest_inverse_theta,
                                                int shortest_hops) {
  const HarvestRouteChoice lp{false, lp_inverse_theta, lp_hops};
  if (c.cost == HarvestCost::paper || demand.moves_no_bytes()) return lp;
  const auto unit = static_cast<double>(demand.unit_bytes());
  const auto largest = static_cast<double>(demand.max_pair_bytes());
  if (c.step_ps(unit, shortest_inverse_theta, shortest_hops, largest) <
      c.step_ps(unit, lp_inverse_theta, lp_hops, largest)) {
    return {true, shortest_inverse_theta, shortest_hops};
  }
  return lp;
}

inline HarvestRouteChoice choose_harvest_routes(const HarvestCoefficients& c, const HarvestStepDemand& demand,
                                                const HarvestFlowCache::Cost& cost) {
  return choose_harvest_routes(c, demand, cost.inverse_theta, cost.longest_hops, cost.shortest_inverse_theta,
                               cost.shortest_hops);
}

inline HarvestRouteChoice choose_harvest_routes(const HarvestCoefficients& c, const HarvestStepDemand& demand,
                                                const HarvestFlowCache::Flow& flow) {
  return choose_harvest_routes(c, demand, flow.inverse_theta, flow.longest_hops, flow.shortest_inverse_theta,
                               flow.shortest_hops);
}

}  // namespace photonsim
