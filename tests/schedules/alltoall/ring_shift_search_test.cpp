#include "schedules/alltoall/ring_shift_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "schedules/alltoall/reconfiguration_bound.h"

namespace photonsim {
namespace {

// The hop sum of a shift set, computed by walking the rings.
int64_t walked_hop_sum(int n, const std::vector<int>& shifts) {
  int64_t sum = 0;
  for (int delta = 1; delta < n; ++delta) {
    int best = n;
    for (int s : shifts) {
      int v = 0;
      for (int h = 1; h < n; ++h) {
        v = (v + s) % n;
        if (v == delta) {
          best = std::min(best, h);
          break;
        }
        if (v == 0) break;
      }
    }
    EXPECT_LT(best, n) << "offset " << delta << " unreachable";
    sum += best;
  }
  return sum;
}

TEST(RingShiftSearch, MotivatingExample) {
  const RingShiftSearch search(8);
  EXPECT_EQ(search.hop_sum(1), 28);
  EXPECT_EQ(search.hop_sum(2), 16);  // 1+2+3+4 on the base, 1+2+3 on the (n-1)-shift
  EXPECT_EQ(search.shifts(2), (std::vector<int>{1, 7}));
  EXPECT_EQ(search.hop_sum(7), 7);
}

TEST(RingShiftSearch, NeverBelowTheoremOneAndTwoRingsMeetIt) {
  for (int n = 2; n <= 64; ++n) {
    const RingShiftSearch search(n);
    for (int d = 1; d <= n - 1; ++d) {
      const std::vector<int>& shifts = search.shifts(d);
      ASSERT_EQ(static_cast<int>(shifts.size()), d);
      EXPECT_EQ(shifts.front(), 1);
      EXPECT_EQ(std::set<int>(shifts.begin(), shifts.end()).size(), shifts.size()) << "repeated shift";
      EXPECT_EQ(search.hop_sum(d), walked_hop_sum(n, shifts)) << n << " " << d;
      EXPECT_GE(search.hop_sum(d), transmission_lower_bound(n, 1, d)) << n << " " << d;
    }
    if (n >= 3) {
      EXPECT_EQ(search.hop_sum(2), transmission_lower_bound(n, 1, 2)) << n;
    }
    EXPECT_EQ(search.hop_sum(n - 1), n - 1);
  }
}

TEST(RingShiftSearch, WithinThePapersGapAndBeyondTheLocalSearchLimit) {
  // The paper's Figure 13: worst ratio to the bound <= 2.22 for n <= 64.
  for (int n : {16, 32, 64}) {
    const RingShiftSearch search(n);
    for (int d = 1; d <= n - 1; ++d) {
      EXPECT_LE(static_cast<double>(search.hop_sum(d)), 2.22 * static_cast<double>(transmission_lower_bound(n, 1, d)));
    }
  }
  const RingShiftSearch greedy(300, 0);  // greedy only: the incremental sums must stay exact
  for (int d : {1, 2, 3, 7, 50, 299}) {
    EXPECT_EQ(greedy.hop_sum(d), walked_hop_sum(300, greedy.shifts(d))) << d;
    EXPECT_GE(greedy.hop_sum(d), transmission_lower_bound(300, 1, d));
  }
}

}  // namespace
}  // namespace photonsim
