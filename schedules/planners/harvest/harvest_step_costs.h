#pragma once
// Contract: Harvest's per-step demand completion time DCT_i(G) (its Eq. 3)
// for every step i of a pattern and every topology G of a list, and the
// range subproblem G_{a,b} = argmin over the first `count` topologies of
// sum_{i=a..b} DCT_i(G) (Eq. 5/6). Exact values need an LP each; they are
// solved lazily, at most once per (step, topology) here and once per
// (topology, step shape) in the shared HarvestFlowCache. The argmin is
// exact: candidates are visited in order of a cheap lower bound
//   alpha + delta * (farthest pair's hop distance)
//         + beta * unit_bytes * max(sum units * hops / circuits,
//                                   max_u sent_u / out_degree_u, max_u received_u / in_degree_u)
// and the search stops once the bound exceeds the best exact cost. A step
// that names a pair the topology cannot route costs infinity. Ties (equal
// to 1e-9) go to the earlier topology.
#include <cstddef>
#include <vector>

#include "schedules/planners/harvest/harvest_coefficients.h"
#include "schedules/planners/harvest/harvest_flow_cache.h"
#include "schedules/planners/harvest/harvest_partition.h"
#include "schedules/planners/harvest/harvest_step_demand.h"
#include "topology/topology.h"

namespace photonsim {

class HarvestStepCosts {
 public:
  // Keeps references to all four arguments; computes the lower bounds (no LP).
  HarvestStepCosts(const std::vector<Topology>& topologies, const std::vector<HarvestStepDemand>& demands,
                   const HarvestCoefficients& coefficients, HarvestFlowCache& cache);

  // DCT_step(topology) in picoseconds (infinity when it cannot route the step).
  double exact(size_t step, size_t topology);
  // Sum of exact() over steps first..last.
  double exact_sum(int first, int last, size_t topology);
  // G_{first,last} among topologies 0..count-1 and its cost (topology -1 and
  // infinity when none routes every step of the range).
  HarvestRangeChoice best(int first, int last, size_t count);

 private:
  double lower_bound(size_t step, size_t topology);
  double range_lower_bound(int first, int last, size_t topology) const;

  const std::vector<Topology>& topologies_;
  const std::vector<HarvestStepDemand>& demands_;
  const HarvestCoefficients& c_;
  HarvestFlowCache& cache_;
  std::vector<std::vector<double>> lower_;           // [topology][step]
  std::vector<std::vector<double>> finite_prefix_;   // [topology][step + 1], bounds of routable steps
  std::vector<std::vector<int>> unroutable_prefix_;  // [topology][step + 1], count of unroutable steps
  std::vector<std::vector<double>> exact_;           // [topology][step], NaN until solved
};

}  // namespace photonsim
