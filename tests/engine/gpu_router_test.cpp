// The GPU's forwarding rule in isolation: when a packet may leave the GPU it
// arrives at, and the equal-bandwidth assumption of cut-through.
#include "sim/engine/network/gpu_router.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

const Bandwidth k800G = Bandwidth::bits_per_second(testing_support::k800GbpsInBitsPerSecond);  // 10 ps per byte
const Time kWhole = Time::ns(10);  // serialisation of 1000 bytes at 800 Gbps

TEST(GpuRouter, StoreAndForwardWaitsForTheWholePacket) {
  const GpuRouter router(RouterMode::store_and_forward, Bytes(64), k800G, k800G);
  EXPECT_EQ(router.forwardable_after(1000, kWhole, /*last_hop=*/false), kWhole);
  EXPECT_EQ(router.forwardable_after(1000, kWhole, /*last_hop=*/true), kWhole);
}

TEST(GpuRouter, CutThroughForwardsOnceTheHeaderIsIn) {
  const GpuRouter router(RouterMode::cut_through, Bytes(64), k800G, k800G);
  EXPECT_EQ(router.forwardable_after(1000, kWhole, /*last_hop=*/false), Time::ps(640));
  // Delivered at its destination: the whole packet must be in.
  EXPECT_EQ(router.forwardable_after(1000, kWhole, /*last_hop=*/true), kWhole);
  // No larger than the header: it arrives whole.
  EXPECT_EQ(router.forwardable_after(64, Time::ps(640), /*last_hop=*/false), Time::ps(640));
  EXPECT_EQ(router.forwardable_after(65, Time::ps(650), /*last_hop=*/false), Time::ps(640));
}

TEST(GpuRouter, CutThroughWithoutHeaderForwardsAtOnce) {
  const GpuRouter router(RouterMode::cut_through, Bytes(0), k800G, k800G);
  EXPECT_EQ(router.forwardable_after(1000, kWhole, /*last_hop=*/false), Time::zero());
}

TEST(GpuRouter, CutThroughRefusesUnequalBandwidth) {
  const Bandwidth k1600G = Bandwidth::bits_per_second(2 * testing_support::k800GbpsInBitsPerSecond);
  const Bandwidth k400G = Bandwidth::bits_per_second(testing_support::k800GbpsInBitsPerSecond / 2);
  for (const Bandwidth egress : {k1600G, k400G}) {
    try {
      const GpuRouter router(RouterMode::cut_through, Bytes(64), k800G, egress);
      FAIL() << "cut-through between " << format_bandwidth(k800G) << " and " << format_bandwidth(egress)
             << " was accepted";
    } catch (const std::logic_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("equal bandwidth"), std::string::npos) << what;
      EXPECT_NE(what.find(format_bandwidth(egress)), std::string::npos) << what;
    }
  }
}

TEST(GpuRouter, StoreAndForwardDoesNotNeedEqualBandwidth) {
  // The whole packet is in before it leaves, whatever the next circuit's rate.
  const Bandwidth k1600G = Bandwidth::bits_per_second(2 * testing_support::k800GbpsInBitsPerSecond);
  EXPECT_NO_THROW(GpuRouter(RouterMode::store_and_forward, Bytes(64), k800G, k1600G));
}

}  // namespace
}  // namespace photonsim
