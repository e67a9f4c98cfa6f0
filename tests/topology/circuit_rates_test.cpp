// A GPU's bandwidth split over its transmitters (fabric.bandwidth_scope: gpu,
// PCCL sec. 4.2): each circuit's lanes and rate.
#include "topology/circuit_rates.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

const Bandwidth k800 = Bandwidth::bits_per_second(800'000'000'000);

Bandwidth fraction(Bandwidth b, int64_t numerator, int64_t denominator) {
  return Bandwidth::bits_per_second(b.bps() * numerator / denominator);
}

FabricSpec split(int gpus, int ports) {
  FabricSpec f = testing_support::test_fabric(gpus, ports);
  f.bandwidth = Bandwidth::bits_per_second(2'400'000'000'000);  // divisible by 1..6
  f.bandwidth_scope = BandwidthScope::gpu;
  return f;
}

TEST(CircuitRates, CircuitScopeRunsEveryCircuitAtTheBandwidth) {
  const FabricSpec f = testing_support::test_fabric(4, 2);
  const Topology t("star", 4, {{0, 1}, {0, 2}, {1, 0}, {2, 3}});
  EXPECT_EQ(circuit_rates(t, f), std::vector<Bandwidth>(4, k800));
}

TEST(CircuitRates, OnePeerPerGpuGetsTheWholeGpu) {
  // A round of recursive halving on its own circuits: every transmitter on the one peer.
  const FabricSpec f = split(4, 6);
  const Topology t("pairs", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  EXPECT_EQ(circuit_lanes(t, 6), std::vector<int>(4, 6));
  EXPECT_EQ(circuit_rates(t, f), std::vector<Bandwidth>(4, f.bandwidth));
}

TEST(CircuitRates, BidirectionalRingHalvesAndSixNeighboursGetASixthEach) {
  const FabricSpec f = split(8, 6);
  std::vector<Edge> ring;
  for (Node u = 0; u < 8; ++u) {
    ring.push_back({u, (u + 1) % 8});
    ring.push_back({u, (u + 7) % 8});
  }
  EXPECT_EQ(circuit_rates(Topology("ring", 8, ring), f), std::vector<Bandwidth>(16, fraction(f.bandwidth, 1, 2)));
  // Node 0 out to six peers, each peer one circuit in: one lane each (3D torus degree).
  const Topology star("star", 7, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}});
  EXPECT_EQ(circuit_rates(star, split(7, 6)), std::vector<Bandwidth>(6, fraction(f.bandwidth, 1, 6)));
}

TEST(CircuitRates, SpareTransmittersGoToTheLowestNumberedPeersFirst) {
  // 6 transmitters over 4 circuits: 2, 2, 1, 1.
  const Topology t("four", 5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}});
  EXPECT_EQ(circuit_lanes(t, 6), (std::vector<int>{2, 2, 1, 1}));
  const FabricSpec f = split(5, 6);
  EXPECT_EQ(circuit_rates(t, f), (std::vector<Bandwidth>{fraction(f.bandwidth, 2, 6), fraction(f.bandwidth, 2, 6),
                                                         fraction(f.bandwidth, 1, 6), fraction(f.bandwidth, 1, 6)}));
}

TEST(CircuitRates, TheReceiverSideLimitsACircuitToItsShare) {
  // GPUs 1 and 2 each send to 0 alone (4 transmitters each), but 0 shares
  // its 4 receivers over two circuits in: 2 lanes each.
  const Topology t("fan-in", 3, {{1, 0}, {2, 0}});
  EXPECT_EQ(circuit_lanes(t, 4), (std::vector<int>{2, 2}));
  const FabricSpec f = split(3, 4);
  EXPECT_EQ(circuit_rates(t, f), std::vector<Bandwidth>(2, fraction(f.bandwidth, 1, 2)));
}

TEST(CircuitRates, RefusesMoreCircuitsThanPortsAndABandwidthThatDoesNotSplit) {
  const Topology t("three", 4, {{0, 1}, {0, 2}, {0, 3}});
  EXPECT_THROW(circuit_lanes(t, 2), Error);
  FabricSpec f = split(4, 3);
  f.bandwidth = Bandwidth::bits_per_second(1'000'000'000'001);
  EXPECT_THROW(circuit_rates(t, f), Error);
}

}  // namespace
}  // namespace photonsim
