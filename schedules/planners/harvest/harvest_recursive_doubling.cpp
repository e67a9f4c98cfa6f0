#include "schedules/planners/harvest/harvest_recursive_doubling.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"

namespace photonsim {

double harvest_eq8_ps(int a, int b, double message_bytes, const HarvestCoefficients& c) {
  const int steps = b - a + 1;
  return c.alpha_ps * steps + c.delta_ps * (std::ldexp(1.0, steps) - 1.0) +
         c.beta_ps_per_byte * message_bytes * steps / std::ldexp(1.0, a);
}

std::vector<HarvestRdStep> harvest_rd_reduce_scatter(int gpus, double message_bytes) {
  if (gpus < 2 || (gpus & (gpus - 1)) != 0) {
    throw Error("harvest recursive doubling: gpus must be a power of two >= 2, got " + std::to_string(gpus));
  }
  std::vector<HarvestRdStep> steps;
  for (int i = 1; (1 << (i - 1)) < gpus; ++i) steps.push_back({i - 1, message_bytes / std::ldexp(1.0, i)});
  return steps;
}

double harvest_rd_step_ps(const HarvestRdStep& step, int ring_exponent, const HarvestCoefficients& c) {
  if (step.exponent < ring_exponent) return std::numeric_limits<double>::infinity();
  const double hops = std::ldexp(1.0, step.exponent - ring_exponent);  // = congestion on that ring
  return c.step_ps(step.bytes, hops, static_cast<int>(hops), step.bytes);
}

HarvestPartition harvest_recursive_doubling(const std::vector<HarvestRdStep>& steps, const HarvestCoefficients& c,
                                            std::optional<int> initial_exponent,
                                            std::optional<int> max_reconfigurations) {
  const size_t count = steps.size();
  // Prefix sums of 2^e and bytes * 2^e make every range O(1): dividing by
  // 2^e_min turns them into the range's hop and congestion sums.
  std::vector<double> distance_sum(count + 1, 0.0), volume_sum(count + 1, 0.0);
  for (size_t t = 0; t < count; ++t) {
    const double distance = std::ldexp(1.0, steps[t].exponent);
    distance_sum[t + 1] = distance_sum[t] + distance;
    volume_sum[t + 1] = volume_sum[t] + steps[t].bytes * distance;
  }
  std::vector<std::vector<int>> smallest(count, std::vector<int>(count, 0));
  for (size_t a = 0; a < count; ++a) {
    smallest[a][a] = steps[a].exponent;
    for (size_t b = a + 1; b < count; ++b) smallest[a][b] = std::min(smallest[a][b - 1], steps[b].exponent);
  }
  auto cost_on_ring = [&](size_t a, size_t b, int ring) {
    if (c.cost != HarvestCost::paper) {
      // The overlapped cost takes a maximum per step: no prefix sums, O(range) (L <= 2 log2 n).
      double sum = 0.0;
      for (size_t t = a; t <= b; ++t) sum += harvest_rd_step_ps(steps[t], ring, c);
      return sum;
    }
    const double scale = std::ldexp(1.0, -ring);
    return c.alpha_ps * static_cast<double>(b - a + 1) + c.delta_ps * (distance_sum[b + 1] - distance_sum[a]) * scale +
           c.beta_ps_per_byte * (volume_sum[b + 1] - volume_sum[a]) * scale;
  };

  HarvestPartitionProblem problem;
  problem.steps = static_cast<int>(count);
  problem.best_topology = [&](int first, int last) {
    const int ring = smallest[static_cast<size_t>(first)][static_cast<size_t>(last)];
    return HarvestRangeChoice{ring, cost_on_ring(static_cast<size_t>(first), static_cast<size_t>(last), ring)};
  };
  problem.initial_topology = initial_exponent.value_or(-1);
  problem.cost_on_initial = [&](int last) {
    if (smallest[0][static_cast<size_t>(last)] < *initial_exponent) return std::numeric_limits<double>::infinity();
    return cost_on_ring(0, static_cast<size_t>(last), *initial_exponent);
  };
  problem.alpha_r_ps = c.alpha_r_ps;
  problem.max_reconfigurations = max_reconfigurations;
  return optimal_harvest_partition(problem);
}

}  // namespace photonsim
