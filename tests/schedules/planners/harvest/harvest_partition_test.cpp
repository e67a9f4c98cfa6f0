// optimal_harvest_partition with step floors (lazy ranges, pruned boundary
// counts) against the full dynamic program without them.
#include "schedules/planners/harvest/harvest_partition.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"

namespace photonsim {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct RandomRanges {
  std::vector<std::vector<double>> cost;  // [topology][step]
  double range(int a, int b, int g) const {
    double sum = 0;
    for (int i = a; i <= b; ++i) sum += cost[static_cast<size_t>(g)][static_cast<size_t>(i)];
    return sum;
  }
};

TEST(HarvestPartition, StepFloorsGiveTheFullDynamicProgramsAnswer) {
  Rng rng(99);
  for (int trial = 0; trial < 300; ++trial) {
    const int steps = 1 + static_cast<int>(rng.uniform(trial < 280 ? 12 : 60));
    const int topologies = 1 + static_cast<int>(rng.uniform(5));
    RandomRanges r;
    r.cost.assign(static_cast<size_t>(topologies), std::vector<double>(static_cast<size_t>(steps)));
    for (auto& row : r.cost) {
      for (double& c : row) {
        c = rng.uniform(8) == 0 ? kInfinity : 1000.0 + static_cast<double>(rng.uniform(5)) * 250.5;
      }
    }
    HarvestPartitionProblem problem;
    problem.steps = steps;
    int asked = 0;
    problem.best_topology = [&](int a, int b) {
      ++asked;
      HarvestRangeChoice best{-1, kInfinity};
      for (int g = 1; g < topologies; ++g) {  // topology 0 is the initial one, not a candidate
        const double c = r.range(a, b, g);
        if (c < best.cost_ps) best = {g, c};
      }
      return best;
    };
    problem.initial_topology = rng.uniform(2) == 0 ? 0 : -1;
    problem.cost_on_initial = [&](int last) { return r.range(0, last, 0); };
    problem.alpha_r_ps = static_cast<double>(rng.uniform(4)) * 700.0;
    if (rng.uniform(4) == 0) problem.max_reconfigurations = static_cast<int>(rng.uniform(3)) + 1;
    const std::string where = "trial " + std::to_string(trial);

    std::string full_error, lazy_error;
    HarvestPartition full, lazy;
    try {
      full = optimal_harvest_partition(problem);
    } catch (const Error& e) {
      full_error = e.what();
    }
    const int asked_by_full = asked;
    asked = 0;
    for (int i = 0; i < steps; ++i) {
      double floor = kInfinity;
      for (const auto& row : r.cost) floor = std::min(floor, row[static_cast<size_t>(i)]);
      problem.step_floor.push_back(floor);
    }
    try {
      lazy = optimal_harvest_partition(problem);
    } catch (const Error& e) {
      lazy_error = e.what();
    }
    EXPECT_EQ(full_error, lazy_error) << where;
    EXPECT_LE(asked, asked_by_full) << where;
    EXPECT_EQ(full.cost_ps, lazy.cost_ps) << where;
    EXPECT_EQ(full.reconfigurations, lazy.reconfigurations) << where;
    ASSERT_EQ(full.ranges.size(), lazy.ranges.size()) << where;
    for (size_t k = 0; k < full.ranges.size(); ++k) {
      EXPECT_EQ(full.ranges[k].first, lazy.ranges[k].first) << where;
      EXPECT_EQ(full.ranges[k].last, lazy.ranges[k].last) << where;
      EXPECT_EQ(full.ranges[k].topology, lazy.ranges[k].topology) << where;
      EXPECT_EQ(full.ranges[k].cost_ps, lazy.ranges[k].cost_ps) << where;
    }
  }
}

TEST(HarvestPartition, UniformStepsAskOneRange) {
  // A ring's steps: every step costs the same on the initial topology, which
  // is the best for each, so reconfiguring never pays and no suffix is built.
  const int steps = 400;
  HarvestPartitionProblem problem;
  problem.steps = steps;
  int asked = 0;
  problem.best_topology = [&](int a, int b) {
    ++asked;
    return HarvestRangeChoice{0, 1000.0 * (b - a + 1)};
  };
  problem.initial_topology = 0;
  problem.cost_on_initial = [](int last) { return 1000.0 * (last + 1); };
  problem.alpha_r_ps = 500;
  problem.step_floor.assign(steps, 1000.0);
  const HarvestPartition p = optimal_harvest_partition(problem);
  ASSERT_EQ(p.ranges.size(), 1u);
  EXPECT_EQ(p.reconfigurations, 0);
  EXPECT_EQ(asked, 1);
}

}  // namespace
}  // namespace photonsim
