#pragma once
// Contract: Harvest's dynamic program (its Algorithm 1, Lemma 1 and
// Theorem 1) over contiguous ranges of steps 0..steps-1. For each range
// [a, b] the caller gives G_{a,b} and t_c(a, b) (Eq. 5/6: the best topology
// for the range and its completion time without reconfiguration delay);
// each range is asked at most once. DP[a][t] is the best time for steps a..end with
// at most t range boundaries; the answer minimises over t the first range's
// cost + DP + (reconfigurations) * alpha_r, as Theorem 1 does, with the
// initial state of MODELS.md rule 2 (the paper leaves the first topology
// free): the fabric holds `initial_topology` for free, so a first range that
// keeps it (on cost_on_initial, or because G_{0,b} is it) pays no alpha_r,
// and with none (-1) the first configuration is a charged reconfiguration.
// `max_reconfigurations` caps the charged reconfigurations. Adjacent ranges
// that pick the same topology are charged as one configuration (they never
// beat merging them, so the optimum is unchanged). Throws Error when no
// schedule routes every step within the cap.
// With `step_floor` (a lower bound on every cost of each step, on any
// topology) ranges are asked lazily, and only where the floors leave them a
// chance to change the optimum: boundary counts t whose alpha_r * t alone
// exceeds the best schedule found are never built (a ring's 2(n-1) steps
// need one range), nor ranges that cannot improve a DP cell. The result is
// the one the full DP returns, bit for bit: a skipped candidate could not
// have been clearly better than the value it was compared with.
#include <functional>
#include <optional>
#include <vector>

namespace photonsim {

struct HarvestRangeChoice {
  int topology = -1;   // the caller's id for G_{a,b}
  double cost_ps = 0;  // t_c(a, b); infinity when no topology routes every step of the range
};

struct HarvestRange {
  int first = 0;  // steps first..last, inclusive
  int last = 0;
  int topology = -1;
  double cost_ps = 0;  // without reconfiguration delay
};

struct HarvestPartitionProblem {
  int steps = 0;
  std::function<HarvestRangeChoice(int first, int last)> best_topology;
  int initial_topology = -1;
  // Cost of steps 0..last on the initial topology (infinity when it cannot
  // route them); only asked when initial_topology >= 0.
  std::function<double(int last)> cost_on_initial;
  double alpha_r_ps = 0;
  std::optional<int> max_reconfigurations;
  // Per step, <= its cost on every topology (infinity: no topology routes
  // it); empty when unknown.
  std::vector<double> step_floor;
};

struct HarvestPartition {
  std::vector<HarvestRange> ranges;
  double cost_ps = 0;        // sum of range costs + alpha_r per charged reconfiguration
  int reconfigurations = 0;  // charged ones, the initial configuration included
};

HarvestPartition optimal_harvest_partition(const HarvestPartitionProblem& problem);

}  // namespace photonsim
