// InFlightPeak in isolation: the peak of packets in flight from cut and
// delivery progressions, on hand-computed cases (times in ps), and against
// every instant taken one by one on seeded random progressions.
#include "sim/engine/network/in_flight_peak.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace photonsim {
namespace {

struct Progression {
  int64_t first;
  int64_t period;
  uint32_t count;
};

// The peak by brute force: every instant, deliveries first at one picosecond.
uint64_t every_instant(const std::vector<Progression>& cuts, const std::vector<Progression>& deliveries) {
  std::vector<std::pair<int64_t, int>> instants;
  for (const Progression& p : cuts) {
    for (uint32_t k = 0; k < p.count; ++k) instants.emplace_back(p.first + p.period * k, +1);
  }
  for (const Progression& p : deliveries) {
    for (uint32_t k = 0; k < p.count; ++k) instants.emplace_back(p.first + p.period * k, -1);
  }
  std::sort(instants.begin(), instants.end());
  int64_t live = 0;
  int64_t peak = 0;
  for (const auto& [when, sign] : instants) {
    live += sign;
    if (sign > 0) peak = std::max(peak, live);
  }
  return static_cast<uint64_t>(peak);
}

TEST(InFlightPeak, NothingRecordedIsZero) {
  InFlightPeak peak;
  EXPECT_EQ(peak.peak(), 0u);
  peak.settle();
  EXPECT_EQ(peak.peak(), 0u);
}

TEST(InFlightPeak, OneFlowHoldsWhatItsDelayCovers) {
  // Packet k cut at 10k, delivered at 10k + 35: when packet k is cut, those
  // delivered are j <= k - 4, so k + 1 - (k - 3) = 4 (from k = 3 on).
  InFlightPeak peak;
  peak.cut(Time::ps(0), Time::ps(10), 10);
  peak.delivered(Time::ps(35), Time::ps(10), 10);
  EXPECT_EQ(peak.peak(), 4u);
}

TEST(InFlightPeak, ADeliveryAtTheSamePicosecondAsACutComesFirst) {
  // Delivered at 10k + 30: packet k - 3 leaves at the picosecond packet k is
  // cut, and leaves first, so 3 are in flight, not 4. One picosecond later
  // (10k + 31) it is still there: 4.
  InFlightPeak same;
  same.cut(Time::ps(0), Time::ps(10), 10);
  same.delivered(Time::ps(30), Time::ps(10), 10);
  EXPECT_EQ(same.peak(), 3u);
  InFlightPeak later;
  later.cut(Time::ps(0), Time::ps(10), 10);
  later.delivered(Time::ps(31), Time::ps(10), 10);
  EXPECT_EQ(later.peak(), 4u);
}

TEST(InFlightPeak, SettleKeepsThePeakAndForgetsTheProgressions) {
  InFlightPeak peak;
  // A first quiescent period holding 4 at once (as above).
  peak.cut(Time::ps(0), Time::ps(10), 10);
  peak.delivered(Time::ps(35), Time::ps(10), 10);
  peak.settle();
  EXPECT_EQ(peak.peak(), 4u);
  // A second one holding 2 (delivered 15 after each cut): the peak stays 4.
  peak.cut(Time::ps(1000), Time::ps(10), 10);
  peak.delivered(Time::ps(1015), Time::ps(10), 10);
  EXPECT_EQ(peak.peak(), 4u);
  peak.settle();
  EXPECT_EQ(peak.peak(), 4u);
  // A third of two flows at once, each holding 4 (the delivery at the cut's
  // picosecond going first again): 8 from the unsettled ones alone.
  peak.cut(Time::ps(2000), Time::ps(10), 10);
  peak.cut(Time::ps(2000), Time::ps(10), 10);
  peak.delivered(Time::ps(2040), Time::ps(10), 10);
  peak.delivered(Time::ps(2040), Time::ps(10), 10);
  EXPECT_EQ(peak.peak(), 8u);
  peak.settle();
  EXPECT_EQ(peak.peak(), 8u);
}

TEST(InFlightPeak, IdenticalProgressionsCountOncePerCopy) {
  // Three flows cut and delivered alike, recorded one after another (kept as
  // copies of one record) and then one interleaved with another progression.
  InFlightPeak alike;
  for (int i = 0; i < 3; ++i) alike.cut(Time::ps(0), Time::ps(10), 10);
  for (int i = 0; i < 3; ++i) alike.delivered(Time::ps(35), Time::ps(10), 10);
  EXPECT_EQ(alike.peak(), 12u);
  InFlightPeak interleaved;
  interleaved.cut(Time::ps(0), Time::ps(10), 10);
  interleaved.cut(Time::ps(5), Time::ps(10), 1);
  interleaved.cut(Time::ps(0), Time::ps(10), 10);
  interleaved.delivered(Time::ps(35), Time::ps(10), 10);
  interleaved.delivered(Time::ps(6), Time::ps(10), 1);
  interleaved.delivered(Time::ps(35), Time::ps(10), 10);
  EXPECT_EQ(interleaved.peak(), 8u);
}

TEST(InFlightPeak, OnePacketProgressionsAreOneInstantWhateverTheirPeriod) {
  InFlightPeak peak;
  peak.cut(Time::ps(100), Time::ps(7), 1);
  peak.cut(Time::ps(100), Time::ps(9), 1);
  peak.cut(Time::ps(100), Time::ps(9), 0);  // no packet
  peak.delivered(Time::ps(150), Time::ps(3), 1);
  peak.delivered(Time::ps(150), Time::ps(8), 1);
  EXPECT_EQ(peak.peak(), 2u);
}

TEST(InFlightPeak, ProgressionsRecordedOutOfTimeOrder) {
  // Recorded later, started earlier (and deliveries before their cuts).
  InFlightPeak peak;
  peak.delivered(Time::ps(1035), Time::ps(10), 10);
  peak.cut(Time::ps(1000), Time::ps(10), 10);
  peak.delivered(Time::ps(35), Time::ps(10), 10);
  peak.cut(Time::ps(0), Time::ps(10), 10);
  peak.cut(Time::ps(1003), Time::ps(10), 10);
  peak.delivered(Time::ps(1038), Time::ps(10), 10);
  EXPECT_EQ(peak.peak(), 8u);
}

TEST(InFlightPeak, LongRunsOfOnePeriodAndOfTwo) {
  // A million packets a period apart, delivered 25 after each cut: 3 at once.
  InFlightPeak one;
  one.cut(Time::ps(0), Time::ps(10), 1'000'000);
  one.delivered(Time::ps(25), Time::ps(10), 1'000'000);
  EXPECT_EQ(one.peak(), 3u);
  // Periods 10 and 15 (alike every 30 ps), each packet delivered 5 after its
  // cut, so each flow has one packet out at its cuts: 2 only where both cut
  // at once (30m); at 30m + 15 the first flow's packet of 30m + 10 leaves at
  // that picosecond, first.
  InFlightPeak two;
  two.cut(Time::ps(0), Time::ps(10), 300'000);
  two.delivered(Time::ps(5), Time::ps(10), 300'000);
  two.cut(Time::ps(0), Time::ps(15), 200'000);
  two.delivered(Time::ps(5), Time::ps(15), 200'000);
  EXPECT_EQ(two.peak(), 2u);
  // The second flow's packets delivered 16 after their cut, longer than its
  // period: at 30m its packet of 30m - 15 is still out (until 30m + 1), so 3.
  InFlightPeak three;
  three.cut(Time::ps(0), Time::ps(10), 300'000);
  three.delivered(Time::ps(5), Time::ps(10), 300'000);
  three.cut(Time::ps(0), Time::ps(15), 200'000);
  three.delivered(Time::ps(16), Time::ps(15), 200'000);
  EXPECT_EQ(three.peak(), 3u);
}

TEST(InFlightPeak, TimesUpToTheEndOfTheTimeRange) {
  // The last cuts a picosecond before INT64_MAX ps (a train's end, one period
  // after its last cut, must be a time too): no walk passes the range.
  InFlightPeak peak;
  peak.cut(Time::ps(INT64_MAX - 41), Time::ps(10), 5);
  peak.cut(Time::ps(INT64_MAX - 2), Time::ps(1), 2);
  peak.delivered(Time::ps(INT64_MAX - 36), Time::ps(10), 4);
  EXPECT_EQ(peak.peak(), 3u);
}

TEST(InFlightPeak, AgreesWithEveryInstantOnRandomProgressions) {
  std::mt19937_64 rng(54);
  for (int round = 0; round < 3000; ++round) {
    std::vector<Progression> cuts;
    std::vector<Progression> deliveries;
    const auto pick = [&](uint64_t n) { return static_cast<int64_t>(rng() % n); };
    const int64_t shared = 1 + pick(12);
    const bool one_period = rng() % 2 == 0;
    const int flows = 1 + static_cast<int>(pick(8));
    for (int f = 0; f < flows; ++f) {
      const Progression cut{pick(60), one_period ? shared : 1 + pick(12),
                            static_cast<uint32_t>(1 + pick(rng() % 3 == 0 ? 300 : 6))};
      const int copies = rng() % 4 == 0 ? 2 + static_cast<int>(pick(3)) : 1;
      for (int c = 0; c < copies; ++c) {
        cuts.push_back(cut);
        // Delivered a delay later, perhaps as two trains with a gap between.
        const int64_t delay = pick(40);
        if (cut.count > 1 && rng() % 3 == 0) {
          const auto head = static_cast<uint32_t>(1 + pick(cut.count - 1));
          deliveries.push_back({cut.first + delay, cut.period, head});
          deliveries.push_back({cut.first + delay + cut.period * head + pick(3), cut.period, cut.count - head});
        } else {
          deliveries.push_back({cut.first + delay, cut.period, cut.count});
        }
      }
    }
    if (rng() % 2 == 0) std::shuffle(deliveries.begin(), deliveries.end(), rng);
    InFlightPeak peak;
    for (const Progression& p : cuts) peak.cut(Time::ps(p.first), Time::ps(p.period), p.count);
    for (const Progression& p : deliveries) peak.delivered(Time::ps(p.first), Time::ps(p.period), p.count);
    ASSERT_EQ(peak.peak(), every_instant(cuts, deliveries)) << "round " << round;
    // The same, identical cuts in a row given at once as copies.
    InFlightPeak grouped;
    for (size_t i = 0, j = 0; i < cuts.size(); i = j) {
      while (j < cuts.size() && cuts[j].first == cuts[i].first && cuts[j].period == cuts[i].period &&
             cuts[j].count == cuts[i].count) {
        ++j;
      }
      grouped.cut(Time::ps(cuts[i].first), Time::ps(cuts[i].period), cuts[i].count, static_cast<uint32_t>(j - i));
    }
    for (const Progression& p : deliveries) grouped.delivered(Time::ps(p.first), Time::ps(p.period), p.count);
    ASSERT_EQ(grouped.peak(), peak.peak()) << "round " << round;
  }
}

}  // namespace
}  // namespace photonsim
