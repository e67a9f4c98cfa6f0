#include "schedules/planners/harvest/harvest_partition.h"

#include <cmath>
#include <limits>
#include <optional>
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

// A candidate whose value is >= `floor` is never clearly better than `best`
// when floor >= best. Rounding is monotone, so a sum of terms each >= its
// floor rounds to >= the same sum of floors: the check can skip the terms.
bool cannot_improve(double floor, double best) { return !(floor < best); }

// range(a, b): G_{a,b} and t_c(a, b), each asked of the problem at most once.
class RangeCache {
 public:
  explicit RangeCache(const HarvestPartitionProblem& problem)
      : problem_(problem), rows_(static_cast<size_t>(problem.steps)) {}
  const HarvestRangeChoice& operator()(size_t a, size_t b) {
    std::vector<std::optional<HarvestRangeChoice>>& row = rows_[a];
    if (row.empty()) row.resize(rows_.size() - a);
    std::optional<HarvestRangeChoice>& choice = row[b - a];
    if (!choice) choice = problem_.best_topology(static_cast<int>(a), static_cast<int>(b));
    return *choice;
  }

 private:
  const HarvestPartitionProblem& problem_;
  std::vector<std::vector<std::optional<HarvestRangeChoice>>> rows_;  // [a][b - a]
};

// Lower bounds on the cost of steps a..b-1 from problem.step_floor; minus
// infinity (nothing is skipped) without floors. Prefix differences round by
// at most ~steps * 1e-16 of the total, and a floor may exceed the exact cost
// it bounds by a few ulps: kFloorSlack of the total absorbs both.
class Floors {
 public:
  explicit Floors(const HarvestPartitionProblem& problem) {
    const auto T = static_cast<size_t>(problem.steps);
    if (problem.step_floor.size() != T) return;
    known_ = true;
    finite_.assign(T + 1, 0.0);
    infinite_.assign(T + 1, 0);
    for (size_t i = 0; i < T; ++i) {
      const double f = problem.step_floor[i];
      finite_[i + 1] = finite_[i] + (f == kInfinity ? 0.0 : f);
      infinite_[i + 1] = infinite_[i] + (f == kInfinity ? 1 : 0);
    }
    slack_ = kFloorSlack * std::abs(finite_[T]);
  }
  double of(size_t a, size_t b) const {
    if (!known_) return -kInfinity;
    if (infinite_[b] != infinite_[a]) return kInfinity;
    return finite_[b] - finite_[a] - slack_;
  }

 private:
  static constexpr double kFloorSlack = 1e-9;
  bool known_ = false;
  std::vector<double> finite_;
  std::vector<int> infinite_;
  double slack_ = 0.0;
};

// dp[t][a]: steps a..T-1 with at most t boundaries (Eq. 7), dp[t][T] = 0;
// next[t][a]: where the next range starts. Rows are built in order of t, as
// the first-range search reaches them; entry a = 0 is never read (the first
// range is chosen by best_first_range) and stays infinity.
class SuffixTable {
 public:
  SuffixTable(RangeCache& range, const Floors& floors, size_t steps) : range_(range), floors_(floors), T_(steps) {}

  double dp(size_t t, size_t a) const { return dp_[t][a]; }
  size_t next(size_t t, size_t a) const { return next_[t][a]; }
  size_t rows() const { return dp_.size(); }

  void add_row() {
    const size_t t = dp_.size();
    std::vector<double> row(T_ + 1, kInfinity);
    std::vector<size_t> next(T_ + 1, T_);
    row[T_] = 0.0;
    for (size_t a = 1; a < T_; ++a) {
      if (t == 0) {
        row[a] = range_(a, T_ - 1).cost_ps;
        continue;
      }
      const std::vector<double>& rest = dp_[t - 1];
      for (size_t b = a + 1; b <= T_; ++b) {
        if (rest[b] == kInfinity || cannot_improve(floors_.of(a, b) + rest[b], row[a])) continue;
        const double v = range_(a, b - 1).cost_ps + rest[b];
        if (clearly_better(v, row[a])) {
          row[a] = v;
          next[a] = b;
        }
      }
    }
    dp_.push_back(std::move(row));
    next_.push_back(std::move(next));
  }

 private:
  RangeCache& range_;
  const Floors& floors_;
  size_t T_;
  std::vector<std::vector<double>> dp_;
  std::vector<std::vector<size_t>> next_;
};

// Theorem 1's minimiser: the first range [0, first_end) and how many
// boundaries the rest uses.
struct FirstRange {
  double cost = kInfinity;
  size_t boundaries = 0;
  size_t first_end = 0;
  bool first_on_initial = false;
};

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

// Theorem 1 with the initial state: the first range [0, b) either keeps the
// initial topology (free) or installs G_{0,b-1} (one charged reconfiguration).
// Boundary counts are tried in increasing order; once alpha_r * t plus the
// floor of every step reaches the best so far, no larger t can improve it,
// and the suffix rows it would need are never built.
FirstRange best_first_range(const HarvestPartitionProblem& problem, RangeCache& range,
                            const std::vector<double>& on_initial, const Floors& floors, SuffixTable& suffix) {
  const auto T = static_cast<size_t>(problem.steps);
  const size_t max_boundaries = T - 1;
  const bool has_initial = problem.initial_topology >= 0;
  FirstRange best;
  const int cap = problem.max_reconfigurations.value_or(std::numeric_limits<int>::max());
  for (size_t t = 0; t <= max_boundaries; ++t) {
    const double boundaries = static_cast<double>(t) * problem.alpha_r_ps;
    if (t > 0) {
      if (cannot_improve(floors.of(0, T) + boundaries, best.cost)) break;
      while (suffix.rows() < t) suffix.add_row();
    }
    const size_t b_from = t == 0 ? T : 1;
    const size_t b_to = t == 0 ? T : T - 1;
    for (size_t b = b_from; b <= b_to; ++b) {
      const double rest = t == 0 ? 0.0 : suffix.dp(t - 1, b);
      if (t > 0 && (rest == kInfinity || cannot_improve(floors.of(0, b) + rest + boundaries, best.cost))) continue;
      const HarvestRangeChoice& first = range(0, b - 1);
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
std::vector<HarvestRange> trace_ranges(const HarvestPartitionProblem& problem, RangeCache& range,
                                       const std::vector<double>& on_initial, const SuffixTable& suffix,
                                       const FirstRange& best) {
  const auto T = static_cast<size_t>(problem.steps);
  std::vector<HarvestRange> ranges;
  const size_t first_last = best.first_end - 1;
  if (best.first_on_initial) {
    ranges.push_back({0, static_cast<int>(first_last), problem.initial_topology, on_initial[first_last]});
  } else {
    const HarvestRangeChoice& first = range(0, first_last);
    ranges.push_back({0, static_cast<int>(first_last), first.topology, first.cost_ps});
  }
  size_t a = best.first_end;
  size_t t = best.boundaries;
  while (a < T) {
    --t;  // one boundary used by the range starting at a
    const size_t b = t == 0 ? T : suffix.next(t, a);
    const HarvestRangeChoice& r = range(a, b - 1);
    ranges.push_back({static_cast<int>(a), static_cast<int>(b - 1), r.topology, r.cost_ps});
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
  RangeCache range(problem);
  const Floors floors(problem);
  const std::vector<double> on_initial = prefix_costs_on_initial(problem);
  SuffixTable suffix(range, floors, static_cast<size_t>(problem.steps));
  const FirstRange best = best_first_range(problem, range, on_initial, floors, suffix);
  if (best.cost == kInfinity) throw_unroutable(problem);
  HarvestPartition out;
  out.ranges = trace_ranges(problem, range, on_initial, suffix, best);
  charge_configurations(problem, out);
  return out;
}

}  // namespace photonsim
