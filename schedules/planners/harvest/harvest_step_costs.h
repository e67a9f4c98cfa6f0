#pragma once
// Contract: Harvest's per-step demand completion time DCT_i(G) (its Eq. 3)
// for every step i of a pattern and every topology G of a list, and the
// range subproblem G_{a,b} = argmin over the first `count` topologies of
// sum_{i=a..b} DCT_i(G) (Eq. 5/6). Exact values need theta each; they are
// computed lazily, at most once per (step, topology) here and once per
// (topology, step shape) in the shared HarvestFlowCache. The argmin is
// exact: candidates are visited in order of a cheap lower bound, the step
// cost (HarvestCoefficients::step_ps, either cost model) with l replaced by
// the farthest pair's hop distance and 1 / theta by
//   max(sum units * hops / circuits, max_u sent_u / out_degree_u, max_u received_u / in_degree_u),
// and the search stops once the bound exceeds the best exact cost. A step
// that names a pair the topology cannot route costs infinity. Ties (equal
// to 1e-9) go to the earlier topology.
// The bounds are built topology by topology: hop counts from the cycles of
// a permutation topology (O(n)) or a BFS table dropped before the next
// topology, each pair list's hops once per topology (a ring's 2(n-1) steps
// share one), and each step's per-GPU sums once for every topology.
#include <cstddef>
#include <limits>
#include <vector>

#include "schedules/cost/harvest/harvest_coefficients.h"
#include "schedules/cost/harvest/harvest_flow_cache.h"
#include "schedules/planners/harvest/harvest_partition.h"
#include "schedules/cost/harvest/harvest_step_demand.h"
#include "topology/topology.h"

namespace photonsim {

class HarvestStepCosts {
 public:
  // Keeps references to all four arguments; computes the lower bounds (no LP).
  HarvestStepCosts(const std::vector<Topology>& topologies, const std::vector<HarvestStepDemand>& demands,
                   const HarvestCoefficients& coefficients, HarvestFlowCache& cache);

  // DCT_step(topology) in picoseconds (infinity when it cannot route the step).
  double exact(size_t step, size_t topology);
  // Sum of exact() over steps first..last, added in that order.
  double exact_sum(int first, int last, size_t topology);
  // exact_sum(0, last, topology), the same additions kept as running sums.
  double exact_prefix(int last, size_t topology);
  // True when the topology routes every pair the step names (exact() finite).
  bool routes(size_t step, size_t topology) const { return lower_[topology][step] < kInfinity; }
  // <= exact(step, g) for every topology g of the list (the least lower bound).
  double floor(size_t step) const { return floor_[step]; }
  // G_{first,last} among topologies 0..count-1 and its cost (topology -1 and
  // infinity when none routes every step of the range).
  HarvestRangeChoice best(int first, int last, size_t count);

 private:
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();
  struct StepSums;
  void bound_topology(size_t topology, const std::vector<StepSums>& sums);

  const std::vector<Topology>& topologies_;
  const std::vector<HarvestStepDemand>& demands_;
  const HarvestCoefficients& c_;
  HarvestFlowCache& cache_;
  std::vector<size_t> topology_ids_;                 // [topology], in cache_
  std::vector<size_t> shape_ids_;                    // [step], in cache_
  std::vector<size_t> pair_list_;                    // [step]: steps with equal pairs and entries share one
  std::vector<size_t> pair_list_step_;               // [pair list]: its first step
  std::vector<std::vector<double>> lower_;           // [topology][step]
  std::vector<std::vector<double>> finite_prefix_;   // [topology][step + 1], bounds of routable steps
  std::vector<std::vector<int>> unroutable_prefix_;  // [topology][step + 1], count of unroutable steps
  std::vector<std::vector<double>> exact_;           // [topology][step], NaN until solved
  std::vector<std::vector<double>> running_;         // [topology]: exact_prefix values so far
  std::vector<double> floor_;                        // [step]
};

}  // namespace photonsim
