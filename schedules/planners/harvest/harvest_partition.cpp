#include "schedules/planners/harvest/harvest_partition.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "core/tolerances.h"

namespace photonsim {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Near-ties (sums of the same terms in another order) keep the earlier
// choice: fewer boundaries, then the earlier first range.
bool clearly_better(double candidate, double best) {
  if (best == kInfinity) return candidate < kInfinity;
  return candidate < best - tolerance::kRoundingNoise * std::abs(best);
}

// range[a][b]: G_{a,b} and t_c(a, b).
using RangeTable = std::vector<std::vector<HarvestRangeChoice>>;

// dp[a][t]: steps a..T-1 with at most t boundaries (Eq. 7); next[a][t]:
// where the next range starts.
struct SuffixTable {
  std::vector<std::vector<double>> dp;
  std::vector<std::vector<size_t>> next;
};

// Theorem 1's minimiser: the first range [0, first_end) and how many
// boundaries the rest uses.
struct FirstRange {
  double cost = kInfinity;
  size_t boundaries = 0;
  size_t first_end = 0;
  bool first_on_initial = false;
};

// Each range asked once: this table is the subproblem cache.
RangeTable ask_every_range(const HarvestPartitionProblem& problem) {
  const auto T = static_cast<size_t>(problem.steps);
  RangeTable range(T, std::vector<HarvestRangeChoice>(T));
  for (size_t a = 0; a < T; ++a) {
    for (size_t b = a; b < T; ++b) range[a][b] = problem.best_topology(static_cast<int>(a), static_cast<int>(b));
  }
  return range;
}

// on_initial[b]: steps 0..b on the initial topology; infinity without one.
std::vector<double> prefix_costs_on_initial(const HarvestPartitionProblem& problem) {
  const auto T = static_cast<size_t>(problem.steps);
  std::vector<double> on_initial(T, kInfinity);
  if (problem.initial_topology >= 0) {
    for (size_t b = 0; b < T; ++b) {
      on_initial[b] = problem.cost_on_initial(static_cast<int>(b));
      if (on_initial[b] == kInfinity) break;  // a step it cannot route blocks every longer prefix
    }
  }
  return on_initial;
}

SuffixTable best_suffixes(const RangeTable& range) {
  const size_t T = range.size();
  const size_t max_boundaries = T - 1;
  SuffixTable table;
  std::vector<std::vector<double>>& dp = table.dp;
  std::vector<std::vector<size_t>>& next = table.next;
  dp.assign(T + 1, std::vector<double>(max_boundaries + 1, kInfinity));
  next.assign(T + 1, std::vector<size_t>(max_boundaries + 1, T));
  for (size_t t = 0; t <= max_boundaries; ++t) dp[T][t] = 0.0;
  for (size_t a = 0; a < T; ++a) dp[a][0] = range[a][T - 1].cost_ps;
  for (size_t t = 1; t <= max_boundaries; ++t) {
    for (size_t a = 0; a < T; ++a) {
      for (size_t b = a + 1; b <= T; ++b) {
        const double v = range[a][b - 1].cost_ps + dp[b][t - 1];
        if (clearly_better(v, dp[a][t])) {
          dp[a][t] = v;
          next[a][t] = b;
        }
      }
    }
  }
  return table;
}

// Theorem 1 with the initial state: the first range [0, b) either keeps the
// initial topology (free) or installs G_{0,b-1} (one charged reconfiguration).
FirstRange best_first_range(const HarvestPartitionProblem& problem, const RangeTable& range,
                            const std::vector<double>& on_initial, const SuffixTable& suffix) {
  const size_t T = range.size();
  const size_t max_boundaries = T - 1;
  const bool has_initial = problem.initial_topology >= 0;
  FirstRange best;
  const int cap = problem.max_reconfigurations.value_or(std::numeric_limits<int>::max());
  for (size_t t = 0; t <= max_boundaries; ++t) {
    const size_t b_from = t == 0 ? T : 1;
    const size_t b_to = t == 0 ? T : T - 1;
    for (size_t b = b_from; b <= b_to; ++b) {
      const double rest = t == 0 ? 0.0 : suffix.dp[b][t - 1];
      const double boundaries = static_cast<double>(t) * problem.alpha_r_ps;
      const HarvestRangeChoice& first = range[0][b - 1];
      const bool first_is_initial = has_initial && first.topology == problem.initial_topology;
      // Free: stay on the initial topology (or G_{0,b-1} happens to be it).
      if (static_cast<long long>(t) <= cap) {
        const double stay = first_is_initial ? first.cost_ps : on_initial[b - 1];
        const double v = stay + rest + boundaries;
        if (clearly_better(v, best.cost)) best = {v, t, b, !first_is_initial};
      }
      // Charged: install G_{0,b-1}.
      if (!first_is_initial && static_cast<long long>(t) + 1 <= cap) {
        const double v = first.cost_ps + problem.alpha_r_ps + rest + boundaries;
        if (clearly_better(v, best.cost)) best = {v, t, b, false};
      }
    }
  }
  return best;
}

[[noreturn]] void throw_unroutable(const HarvestPartitionProblem& problem) {
  throw Error("planner 'harvest': no schedule routes every step" +
              (problem.max_reconfigurations
                   ? " with parameter 'max_reconfigurations' = " + std::to_string(*problem.max_reconfigurations)
                   : std::string()));
}

// The ranges of the optimum: the first as chosen, the rest by following next.
std::vector<HarvestRange> trace_ranges(const HarvestPartitionProblem& problem, const RangeTable& range,
                                       const std::vector<double>& on_initial, const SuffixTable& suffix,
                                       const FirstRange& best) {
  const size_t T = range.size();
  std::vector<HarvestRange> ranges;
  const size_t first_last = best.first_end - 1;
  if (best.first_on_initial) {
    ranges.push_back({0, static_cast<int>(first_last), problem.initial_topology, on_initial[first_last]});
  } else {
    ranges.push_back({0, static_cast<int>(first_last), range[0][first_last].topology, range[0][first_last].cost_ps});
  }
  size_t a = best.first_end;
  size_t t = best.boundaries;
  while (a < T) {
    --t;  // one boundary used by the range starting at a
    const size_t b = t == 0 ? T : suffix.next[a][t];
    ranges.push_back({static_cast<int>(a), static_cast<int>(b - 1), range[a][b - 1].topology, range[a][b - 1].cost_ps});
    a = b;
  }
  return ranges;
}

// Sums the ranges' costs and charges alpha_r for each configuration that is
// not the one already on the fabric.
void charge_configurations(const HarvestPartitionProblem& problem, HarvestPartition& out) {
  int previous = problem.initial_topology;
  for (const HarvestRange& r : out.ranges) {
    out.cost_ps += r.cost_ps;
    if (r.topology != previous || previous < 0) {
      ++out.reconfigurations;
      out.cost_ps += problem.alpha_r_ps;
    }
    previous = r.topology;
  }
}

}  // namespace

HarvestPartition optimal_harvest_partition(const HarvestPartitionProblem& problem) {
  if (problem.steps <= 0) return {};
  const RangeTable range = ask_every_range(problem);
  const std::vector<double> on_initial = prefix_costs_on_initial(problem);
  const SuffixTable suffix = best_suffixes(range);
  const FirstRange best = best_first_range(problem, range, on_initial, suffix);
  if (best.cost == kInfinity) throw_unroutable(problem);
  HarvestPartition out;
  out.ranges = trace_ranges(problem, range, on_initial, suffix, best);
  charge_configurations(problem, out);
  return out;
}

}  // namespace photonsim
