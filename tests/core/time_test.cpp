#include "core/time.h"
#include "core/time_overflow.h"

#include <limits>

#include <gtest/gtest.h>

#include <ostream>
#include <cstdint>

namespace photonsim {

namespace {

TEST(Time, FactoriesAreExactPicoseconds) {
  EXPECT_EQ(Time::ps(3).picoseconds(), int64_t{3});
  EXPECT_EQ(Time::ns(500).picoseconds(), int64_t{500000});
  EXPECT_EQ(Time::us(40).picoseconds(), int64_t{40000000});
  EXPECT_EQ(Time::ms(28).picoseconds(), int64_t{28000000000});
  EXPECT_EQ(Time::zero().picoseconds(), int64_t{0});
  EXPECT_EQ(Time().picoseconds(), int64_t{0});
  EXPECT_EQ(Time::max().picoseconds(), INT64_MAX);
}

TEST(Time, ArithmeticAndOrdering) {
  Time t = Time::us(40) + Time::ns(500);
  EXPECT_EQ(t, Time::ns(40500));
  EXPECT_EQ(t * 28, Time::ns(1134000));
  EXPECT_EQ(t - Time::ns(500), Time::us(40));
  t += Time::ps(1);
  EXPECT_EQ(t.picoseconds(), int64_t{40500001});
  t -= Time::ps(2);
  EXPECT_EQ(t.picoseconds(), int64_t{40499999});
  EXPECT_LT(Time::ns(1), Time::us(1));
  EXPECT_GT(Time::ms(1), Time::us(999));
  EXPECT_DOUBLE_EQ(Time::ms(1500).seconds(), 1.5);
}

TEST(FormatTime, LargestUnitWithUpToThreeDecimals) {
  EXPECT_EQ(format_time(Time::zero()), "0ps");
  EXPECT_EQ(format_time(Time::ps(999)), "999ps");
  EXPECT_EQ(format_time(Time::ns(1)), "1ns");
  EXPECT_EQ(format_time(Time::ns(1500)), "1.5us");
  EXPECT_EQ(format_time(Time::ms(28)), "28ms");
  EXPECT_EQ(format_time(Time::ms(2000)), "2s");
  EXPECT_EQ(format_time(Time::ps(1234567)), "1.235us");
  EXPECT_EQ(format_time(Time::zero() - Time::ns(1500)), "-1.5us");
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

TEST(Time, ArithmeticPastInt64ThrowsInsteadOfWrapping) {
  const Time big = Time::ps(INT64_MAX - 5);
  EXPECT_EQ((big + Time::ps(5)).picoseconds(), INT64_MAX);
  EXPECT_THROW(big + Time::ps(6), TimeOverflow);
  EXPECT_THROW(Time::ps(INT64_MIN) - Time::ps(1), TimeOverflow);
  EXPECT_THROW(Time::ps(INT64_MAX / 3 + 1) * 3, TimeOverflow);
  Time t = big;
  EXPECT_THROW(t += big, TimeOverflow);
  EXPECT_EQ(t, big);  // unchanged when it throws
  try {
    (void)(big + big);
    FAIL() << "no throw";
  } catch (const TimeOverflow& e) {
    EXPECT_NE(std::string(e.what()).find("about 106.75 days"), std::string::npos) << e.what();
  }
}

TEST(Time, FromPicosecondsRoundsAndRefusesWhatDoesNotFit) {
  EXPECT_EQ(Time::from_picoseconds(1.5).picoseconds(), 2);
  EXPECT_EQ(Time::from_picoseconds(-2.4).picoseconds(), -2);
  EXPECT_THROW(Time::from_picoseconds(9.3e18), TimeOverflow);
  EXPECT_THROW(Time::from_picoseconds(std::numeric_limits<double>::infinity()), TimeOverflow);
  EXPECT_THROW(Time::from_picoseconds(std::numeric_limits<double>::quiet_NaN()), TimeOverflow);
}

}  // namespace
}  // namespace photonsim
