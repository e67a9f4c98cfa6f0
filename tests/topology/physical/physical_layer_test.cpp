// The physical layer on hand-checked cases: circuits inside one server take
// no fiber, circuits between servers need a fiber each per wavelength on
// every server edge they cross, a mesh too narrow for two circuits of one
// wavelength refuses the configuration, losses add up as documented, and
// routings are cached per configuration.
#include "topology/physical/physical_layer.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

using testing_support::test_fabric;

PhysicalSpec spec(GridShape servers, GridShape tiles, GridShape mesh, int fibers = 1, int wavelengths = 1) {
  PhysicalSpec p;
  p.servers = servers;
  p.tiles = tiles;
  p.mesh = mesh;
  p.fibers = fibers;
  p.wavelengths = wavelengths;
  p.mzi_loss_db = 0.1;
  p.tile_loss_db = 0.2;
  p.fiber_loss_db = 0.5;
  return p;
}

TEST(PhysicalLayer, CircuitsInsideOneServerNeedNoFiber) {
  const PhysicalLayer layer(spec({1, 1}, {2, 2}, {4, 4}), test_fabric(4));
  // The ring 0 -> 1 -> 3 -> 2 -> 0 around the 2x2 tiles.
  const Topology ring("ring", 4, {{0, 1}, {1, 3}, {3, 2}, {2, 0}});
  const ConfigurationRouting& r = layer.route(ring);
  ASSERT_EQ(r.failure, "");
  EXPECT_EQ(r.fibers_needed, 0);
  for (const PhysicalCircuit& c : r.circuits) {
    EXPECT_EQ(c.servers, std::vector<int>{0});
    EXPECT_EQ(c.fiber_hops, 0);
    // Every circuit leaves its tile and enters another: at least one crossing.
    EXPECT_GE(c.tile_crossings, 1);
    EXPECT_DOUBLE_EQ(c.loss_db, c.mzis * 0.1 + c.tile_crossings * 0.2);
  }
  // Transmitter of GPU 0 at (0, 0), receiver of GPU 1 at (0, 3): 4 MZIs in a row.
  EXPECT_EQ(r.circuits[0].mzis, 4);
  EXPECT_EQ(r.circuits[0].tile_crossings, 1);
  EXPECT_FALSE(layer.why_not(ring));
}

TEST(PhysicalLayer, CircuitsBetweenServersNeedAFiberEachPerWavelength) {
  // Two servers side by side, two GPUs each; both GPUs of server 0 send to server 1.
  const Topology across("across", 4, {{0, 2}, {1, 3}});
  const PhysicalLayer one_fiber(spec({1, 2}, {1, 2}, {4, 4}, 1), test_fabric(4));
  const auto why = one_fiber.why_not(across);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("need 2 fibers from server 0 to server 1"), std::string::npos) << *why;
  EXPECT_NE(why->find("fabric.physical.fibers is 1"), std::string::npos) << *why;

  const PhysicalLayer two_fibers(spec({1, 2}, {1, 2}, {4, 4}, 2), test_fabric(4));
  const ConfigurationRouting& r = two_fibers.route(across);
  ASSERT_EQ(r.failure, "");
  EXPECT_EQ(r.fibers_needed, 2);
  EXPECT_TRUE(r.fibers_optimal);
  for (const ServerEdgeLoad& e : r.edges) {
    EXPECT_EQ(e.circuits, e.from == 0 && e.to == 1 ? 2 : 0);
    EXPECT_EQ(e.fibers, e.from == 0 && e.to == 1 ? 2 : 0);
  }
  for (const PhysicalCircuit& c : r.circuits) {
    EXPECT_EQ(c.servers, (std::vector<int>{0, 1}));
    EXPECT_EQ(c.fiber_hops, 1);
    EXPECT_DOUBLE_EQ(c.loss_db, c.mzis * 0.1 + c.tile_crossings * 0.2 + 2 * 0.5);
  }

  // Two wavelengths share one fiber.
  const PhysicalLayer two_colours(spec({1, 2}, {1, 2}, {4, 4}, 1, 2), test_fabric(4));
  const ConfigurationRouting& w = two_colours.route(across);
  ASSERT_EQ(w.failure, "");
  EXPECT_EQ(w.fibers_needed, 1);
  EXPECT_NE(w.circuits[0].wavelength, w.circuits[1].wavelength);
}

TEST(PhysicalLayer, SharedFibersCountBothDirectionsOfALink) {
  const Topology both_ways("both ways", 4, {{0, 2}, {2, 0}});
  PhysicalSpec separate = spec({1, 2}, {1, 2}, {4, 4}, 1);
  EXPECT_FALSE(PhysicalLayer(separate, test_fabric(4)).why_not(both_ways));
  PhysicalSpec shared = separate;
  shared.shared_fibers = true;
  const PhysicalLayer layer(shared, test_fabric(4));
  const auto why = layer.why_not(both_ways);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("need 2 fibers on the link between server 0 and server 1"), std::string::npos) << *why;
  shared.fibers = 2;
  const PhysicalLayer two(shared, test_fabric(4));
  const ConfigurationRouting& r = two.route(both_ways);
  ASSERT_EQ(r.failure, "");
  EXPECT_EQ(r.fibers_needed, 2);
  for (const ServerEdgeLoad& e : r.edges) EXPECT_EQ(e.fibers, 2);  // the one link, seen from either end
}

TEST(PhysicalLayer, AMeshTooNarrowForTwoCircuitsOfOneWavelengthRefusesThem) {
  // One row of four MZIs, two tiles: 0 -> 1 runs (0,0)..(0,3), 1 -> 0 runs
  // (0,2)..(0,1): both need the waveguide between columns 1 and 2.
  const Topology both_ways("both_ways", 2, {{0, 1}, {1, 0}});
  const PhysicalLayer narrow(spec({1, 1}, {1, 2}, {1, 4}), test_fabric(2));
  const auto why = narrow.why_not(both_ways);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("the MZI mesh of server 0 cannot route circuit 1 -> 0"), std::string::npos) << *why;
  const PhysicalLayer two_colours(spec({1, 1}, {1, 2}, {1, 4}, 1, 2), test_fabric(2));
  EXPECT_FALSE(two_colours.why_not(both_ways));
  // A second row gives the second circuit its own way round.
  const PhysicalLayer wider(spec({1, 1}, {1, 2}, {2, 4}), test_fabric(2));
  EXPECT_FALSE(wider.why_not(both_ways));
}

TEST(PhysicalLayer, MoreCircuitsThanTransceiversAreRefused) {
  const Topology doubled("doubled", 2, {{0, 1}, {0, 1}});
  const PhysicalLayer layer(spec({1, 1}, {1, 2}, {2, 4}), test_fabric(2, 1));
  const auto why = layer.why_not(doubled);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("more circuits than its tile has transceivers"), std::string::npos) << *why;
}

TEST(PhysicalLayer, ATransceiversTxAndRxServeDifferentPeers) {
  // One port per GPU, directed: GPU 0 transmits to 1 and receives from 2 on
  // its one transceiver (PCCL's Tx/Rx split); a second circuit out has no
  // transmitter left. (Three rows: all three circuits cross between columns 2 and 3.)
  const PhysicalLayer layer(spec({1, 1}, {1, 3}, {3, 6}), test_fabric(3));
  const Topology cycle("cycle", 3, {{0, 1}, {1, 2}, {2, 0}});
  EXPECT_FALSE(layer.why_not(cycle));
  const auto why = layer.why_not(Topology("two out", 3, {{0, 1}, {0, 2}}));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("GPU 0 has more circuits than its tile has transceivers (1)"), std::string::npos) << *why;
}

TEST(PhysicalLayer, RoutingsAreCachedPerConfiguration) {
  const PhysicalLayer layer(spec({1, 2}, {1, 2}, {4, 4}, 2), test_fabric(4));
  const Topology a("a", 4, {{0, 2}, {1, 3}});
  const Topology same_circuits("another name", 4, {{1, 3}, {0, 2}});
  EXPECT_EQ(&layer.route(a), &layer.route(same_circuits));
  EXPECT_THROW(layer.route(Topology("wrong", 3, {{0, 1}})), Error);
}

TEST(PhysicalLayer, CircuitsCrossTheServersBetween) {
  // Servers in a row of three; GPU 0 (server 0) to GPU 2 (server 2) crosses server 1.
  const PhysicalLayer layer(spec({1, 3}, {1, 1}, {2, 2}), test_fabric(3));
  const ConfigurationRouting& r = layer.route(Topology("far", 3, {{0, 2}}));
  ASSERT_EQ(r.failure, "");
  EXPECT_EQ(r.circuits[0].servers, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(r.circuits[0].fiber_hops, 2);
  EXPECT_EQ(r.fibers_needed, 1);
}

}  // namespace
}  // namespace photonsim
