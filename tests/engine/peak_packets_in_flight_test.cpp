// peak_packets_in_flight on hand-timed cases: the most packets cut from their
// flow and not yet delivered at once. 800 Gbps, 1000-byte packets: 10 ns each.
#include <gtest/gtest.h>

#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

// 10 packets over `hops` circuits of a line, store-and-forward.
RunResult ten_packets(int hops, Time latency) {
  FabricSpec f = fabric(hops + 1);
  f.packet = Bytes(1000);
  f.latency = latency;
  const Schedule s = schedule(hops + 1, {line(hops + 1)}, {Step{0, {transfer(0, static_cast<Node>(hops), 10'000)}}});
  return replay(f, workload(Bytes(10'000)), s);
}

TEST(PeakPacketsInFlight, OneHopHoldsWhatTheLatencyCovers) {
  // Packet k is cut at 10k ns and delivered at 10k + 10 + L. When packet k is
  // cut, packets j with 10j + 10 + L > 10k are still in the network.
  // L = 25: j >= k - 3, so 4 (from k = 3 on).
  EXPECT_EQ(ten_packets(1, Time::ns(25)).network.peak_packets_in_flight, 4u);
  // L = 31: j >= k - 4, so 5.
  EXPECT_EQ(ten_packets(1, Time::ns(31)).network.peak_packets_in_flight, 5u);
  // L = 500 ns: the first delivery (510 ns) comes after the last cut (90 ns).
  EXPECT_EQ(ten_packets(1, Time::ns(500)).network.peak_packets_in_flight, 10u);
}

TEST(PeakPacketsInFlight, ADeliveryAtTheSamePicosecondAsACutComesFirst) {
  // L = 30: packet k - 4 is delivered at 10k, the picosecond packet k is cut.
  // Landings come before the port chooses, so it is gone: 4, not 5.
  EXPECT_EQ(ten_packets(1, Time::ns(30)).network.peak_packets_in_flight, 4u);
}

TEST(PeakPacketsInFlight, PacketsWaitingToBeForwardedCount) {
  // Two hops, L = 5: packet k is cut at 10k, lands at GPU 1 at 10k + 15, is
  // forwarded at once (the second circuit frees at that picosecond) and is
  // delivered at 10k + 30: when k is cut, k - 2 and k - 1 are still out (k - 3
  // is delivered at that picosecond), so 3. The step ends at 90 + 30 ns.
  const RunResult r = ten_packets(2, Time::ns(5));
  EXPECT_EQ(r.completion, Time::ns(120));
  EXPECT_EQ(r.network.peak_packets_in_flight, 3u);
}

TEST(PeakPacketsInFlight, IsThePeakOfTheWholeRun) {
  // Step 0 holds 4 at once (the L = 25 case above); step 1 sends one packet.
  FabricSpec f = fabric(2);
  f.packet = Bytes(1000);
  f.latency = Time::ns(25);
  const Schedule s = schedule(2, {line(2)}, {Step{0, {transfer(0, 1, 10'000)}}, Step{0, {transfer(0, 1, 1000)}}});
  const RunResult r = replay(f, workload(Bytes(10'000)), s);
  EXPECT_EQ(r.network.packets, 11u);
  EXPECT_EQ(r.network.peak_packets_in_flight, 4u);
}

}  // namespace
}  // namespace photonsim
