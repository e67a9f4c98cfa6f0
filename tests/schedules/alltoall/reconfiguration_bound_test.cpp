#include "schedules/alltoall/reconfiguration_bound.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace photonsim {
namespace {

TEST(ReconfigurationBound, TheoremOneForOnePort) {
  // n = 8: 28T static, 16T with two topologies (the paper's motivating example), ...
  const int64_t expected[] = {28, 16, 12, 10, 9, 8, 7};
  for (int d = 1; d <= 7; ++d) EXPECT_EQ(transmission_lower_bound(8, 1, d), expected[d - 1]) << d;
  for (int n = 2; n <= 64; ++n) {
    EXPECT_EQ(transmission_lower_bound(n, 1, 1), n * (n - 1) / 2);
    EXPECT_EQ(transmission_lower_bound(n, 1, n - 1), n - 1);
    for (int d = 1; d <= n - 1; ++d) {
      const int64_t q = (n - 1) / d, u = (n - 1) % d;
      EXPECT_EQ(transmission_lower_bound(n, 1, d), d * q * (q + 1) / 2 + u * (q + 1)) << n << " " << d;
    }
  }
}

TEST(ReconfigurationBound, MooreBoundForSeveralPorts) {
  // n = 8, k = 2, one topology: 2 destinations at 1 hop, 4 at 2, 1 at 3 -> 1 + 2 + 2 + 3,
  // what the paper's Figure 8c circulant schedule achieves.
  EXPECT_EQ(transmission_lower_bound(8, 2, 1), 8);
  for (int n : {8, 16, 33, 64}) {
    for (int k : {2, 3}) {
      int64_t previous = transmission_lower_bound(n, k, 1);
      for (int d = 2; d <= n - 1; ++d) {
        const int64_t b = transmission_lower_bound(n, k, d);
        EXPECT_LE(b, previous) << n << " " << k << " " << d;
        EXPECT_LE(b, transmission_lower_bound(n, 1, d));  // more ports never hurt
        previous = b;
      }
      EXPECT_EQ(transmission_lower_bound(n, k, n - 1), (n - 1 + k - 1) / k);  // all direct, k per round
    }
  }
}

TEST(ReconfigurationBound, RejectsImpossibleArguments) {
  EXPECT_THROW(transmission_lower_bound(1, 1, 1), Error);
  EXPECT_THROW(transmission_lower_bound(8, 0, 1), Error);
  EXPECT_THROW(transmission_lower_bound(8, 1, 0), Error);
  EXPECT_THROW(transmission_lower_bound(8, 1, 8), Error);
}

}  // namespace
}  // namespace photonsim
