#include "core/spec/flow_sizes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

// An all-to-all whose flows average `mean` bytes.
WorkloadSpec workload(FlowDistribution d, int64_t mean) {
  return testing_support::with_distribution(testing_support::test_workload(Collective::alltoall, mean), d);
}

int64_t total(const std::vector<Bytes>& sizes) {
  int64_t sum = 0;
  for (Bytes b : sizes) sum += b.count();
  return sum;
}

TEST(FlowSizes, UniformIsMessagePerPairAndZeroOnTheDiagonal) {
  const std::vector<Bytes> s = alltoall_flow_sizes(workload(FlowDistribution::uniform, 1000), 5, 1);
  for (size_t i = 0; i < 5; ++i) {
    for (size_t j = 0; j < 5; ++j) EXPECT_EQ(s[i * 5 + j], Bytes(i == j ? 0 : 1000));
  }
}

TEST(FlowSizes, RandomStaysInRangeAveragesTheMessageAndFollowsTheSeed) {
  const int n = 64;
  const std::vector<Bytes> a = alltoall_flow_sizes(workload(FlowDistribution::random, 1'000'000), n, 7);
  const std::vector<Bytes> b = alltoall_flow_sizes(workload(FlowDistribution::random, 1'000'000), n, 7);
  const std::vector<Bytes> c = alltoall_flow_sizes(workload(FlowDistribution::random, 1'000'000), n, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (size_t i = 0; i < a.size(); ++i) {
    if (i % (n + 1) == 0) {
      EXPECT_EQ(a[i], Bytes(0));
    } else {
      EXPECT_GE(a[i].count(), 1);
      EXPECT_LE(a[i].count(), 1'999'999);
    }
  }
  const double mean = static_cast<double>(total(a)) / (n * (n - 1));
  EXPECT_NEAR(mean, 1'000'000, 20'000);  // 4032 draws: standard error ~9 KB
}

TEST(FlowSizes, ZipfKeepsTheTotalExactAndRanksFlowsByPowerLaw) {
  const int n = 16;
  WorkloadSpec w = workload(FlowDistribution::zipf, 32'000'000);
  const std::vector<Bytes> s = alltoall_flow_sizes(w, n, 3);
  EXPECT_EQ(total(s), int64_t{32'000'000} * n * (n - 1));
  std::vector<int64_t> sorted;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i % (n + 1) != 0) sorted.push_back(s[i].count());
  }
  std::sort(sorted.rbegin(), sorted.rend());
  // Rank r gets r^-0.4 of the weight: largest / smallest = 240^0.4.
  EXPECT_NEAR(static_cast<double>(sorted.front()) / static_cast<double>(sorted.back()), std::pow(240.0, 0.4), 1e-3);
  w.zipf_factor = 0;
  const std::vector<Bytes> flat = alltoall_flow_sizes(w, n, 3);
  for (size_t i = 0; i < flat.size(); ++i) EXPECT_EQ(flat[i], Bytes(i % (n + 1) == 0 ? 0 : 32'000'000));
}

}  // namespace
}  // namespace photonsim
