// The physical layer with failures known when planning (docs/model.md,
// "Failures known when planning"): a failed MZI is a node no circuit
// crosses (Algorithm 3, route_mesh's `failed`), a failed transceiver MZI or a
// switch failed at 0 leaves the GPU's next working transceiver, and a fiber
// whose MZI failed is lost both ways, counted as taken (Algorithm 4's `lost`).
// Hand-checked on small meshes.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "core/error.h"
#include "topology/physical/fiber_routing.h"
#include "topology/physical/mesh_routing.h"
#include "topology/physical/mzi_mesh.h"
#include "topology/physical/physical_layer.h"
#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

using testing_support::test_fabric;

PhysicalSpec failure_spec(GridShape servers, GridShape tiles, GridShape mesh, int fibers = 1) {
  PhysicalSpec p;
  p.servers = servers;
  p.tiles = tiles;
  p.mesh = mesh;
  p.fibers = fibers;
  return p;
}

FabricSpec with_failed_mzis(FabricSpec f, const std::vector<std::array<int, 3>>& mzis) {
  for (const auto& [server, row, col] : mzis) {
    Failure x;
    x.kind = FailureKind::mzi;
    x.server = server;
    x.row = row;
    x.col = col;
    f.failures.entries.push_back(x);
  }
  return f;
}

// 3 x 3 mesh, 3 (1, 0) -> 5 (1, 2) is 3 MZIs straight across; with the
// centre 4 failed the shortest way round is 5 MZIs, above or below.
TEST(PhysicalFailures, MeshRoutingGoesAroundAFailedMzi) {
  const MziMesh mesh(3, 3);
  const MeshRouting healthy = route_mesh(mesh, {MeshRequest{3, 5, -1}});
  ASSERT_TRUE(healthy.complete);
  EXPECT_EQ(healthy.routes[0].nodes, (std::vector<int>{3, 4, 5}));
  const MeshRouting around = route_mesh(mesh, {MeshRequest{3, 5, -1}}, {}, {}, {4});
  ASSERT_TRUE(around.complete);
  EXPECT_EQ(around.routes[0].hops(), 4);
  EXPECT_EQ(std::count(around.routes[0].nodes.begin(), around.routes[0].nodes.end(), 4), 0);
  // With the centre gone node 3 has two waveguides left: two circuits of one
  // wavelength go above and below, a third finds none.
  const MeshRouting three =
      route_mesh(mesh, {MeshRequest{3, 5, 0}, MeshRequest{3, 5, 0}, MeshRequest{3, 5, 0}}, {}, {}, {4});
  EXPECT_FALSE(three.complete);
  EXPECT_EQ(three.first_failure, 2);
  EXPECT_EQ(three.routed, 2);
}

TEST(PhysicalFailures, NoCircuitStartsOrEndsAtAFailedMzi) {
  const MziMesh mesh(3, 3);
  const MeshRouting r = route_mesh(mesh, {MeshRequest{4, 0, -1}, MeshRequest{0, 8, -1}}, {}, {}, {4});
  EXPECT_FALSE(r.routes[0].routed());
  EXPECT_TRUE(r.routes[1].routed());
  EXPECT_THROW(route_mesh(mesh, {}, {}, {MeshRoute{{3, 4, 5}, 0}}, {4}), Error);  // kept through it
  EXPECT_THROW(route_mesh(mesh, {}, {}, {}, {9}), Error);                         // outside the mesh
}

// One server, tiles 1 x 2 on a 4 x 4 mesh, one port: GPU 0's transmitter at
// (2, 0) and receiver at (2, 1), GPU 1's at (2, 2) and (2, 3). Circuit 0 -> 1
// runs (2, 0) .. (2, 3), 4 MZIs; with (2, 1) failed it goes round a row
// above or below, 6 MZIs. That MZI is GPU 0's receiver: a circuit into GPU 0
// does not exist.
TEST(PhysicalFailures, ACircuitRoutesAroundAFailedMziAndAFailedReceiverIsGone) {
  const PhysicalSpec spec = failure_spec({1, 1}, {1, 2}, {4, 4});
  const Topology out("out", 2, {{0, 1}});
  EXPECT_EQ(PhysicalLayer(spec, test_fabric(2)).route(out).circuits[0].mzis, 4);
  const PhysicalLayer layer(spec, with_failed_mzis(test_fabric(2), {{0, 2, 1}}));
  const ConfigurationRouting& r = layer.route(out);
  ASSERT_EQ(r.failure, "");
  EXPECT_EQ(r.circuits[0].mzis, 6);
  EXPECT_EQ(layer.mzi_role(0, 2, 1), "GPU 0's receiver of port 0");
  EXPECT_EQ(layer.mzi_role(0, 0, 0), "");
  const auto why = layer.why_not(Topology("in", 2, {{1, 0}}));
  ASSERT_TRUE(why);
  EXPECT_EQ(*why,
            "GPU 0 has more circuits in than its tile has working receivers (0 of 1; port 0: its MZI (2, 1) failed, "
            "fabric.failures[0] (mzi, server 0, row 2, col 1))");
}

// Two ports: port k's transceivers on row 2k + 1 of a 4-row tile. GPU 0's
// transmitter of port 0, (1, 0), failed: its first circuit out takes port
// 1's, (3, 0), to GPU 1's receiver of port 0 at (1, 3): 5 hops, 6 MZIs
// (healthy: (1, 0) .. (1, 3), 4); a second circuit out has no transmitter.
// A switch failed at 0 takes port 0 of every GPU alike.
TEST(PhysicalFailures, AGpuTakesItsNextWorkingTransmitter) {
  const PhysicalSpec spec = failure_spec({1, 1}, {1, 2}, {4, 4});
  const Topology one("one", 2, {{0, 1}});
  EXPECT_EQ(PhysicalLayer(spec, test_fabric(2, 2)).route(one).circuits[0].mzis, 4);
  const PhysicalLayer layer(spec, with_failed_mzis(test_fabric(2, 2), {{0, 1, 0}}));
  ASSERT_EQ(layer.route(one).failure, "");
  EXPECT_EQ(layer.route(one).circuits[0].mzis, 6);
  const auto why = layer.why_not(Topology("two", 2, {{0, 1}, {0, 1}}));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("GPU 0 has more circuits out than its tile has working transmitters (1 of 2; port 0: its "
                      "MZI (1, 0) failed"),
            std::string::npos)
      << *why;

  FabricSpec switch0 = test_fabric(2, 2);
  Failure s;
  s.kind = FailureKind::optical_switch;
  s.optical_switch = 0;
  switch0.failures.entries = {s};
  const PhysicalLayer no_port0(spec, switch0);
  // Transmitter (3, 0) to GPU 1's receiver of port 1, (3, 3): 4 MZIs.
  EXPECT_EQ(no_port0.route(one).circuits[0].mzis, 4);
  const auto both = no_port0.why_not(Topology("two", 2, {{0, 1}, {0, 1}}));
  ASSERT_TRUE(both);
  EXPECT_NE(both->find("port 0: its switch failed at 0, fabric.failures[0] (switch 0, at 0)"), std::string::npos)
      << *both;
}

// Servers 0 and 1 side by side, two GPUs each (tiles 1 x 2, 4 x 4 meshes),
// GPUs 0 and 1 both sending to server 1: 2 circuits on edge 0 -> 1. Fibers
// attach on rows (f + 1) * 4 / 3 with 2 fibers (1, 2), f * 4 / 3 with 3
// (0, 1, 2). Failing server 0's MZI (1, 3) loses fiber 0 of 2 (1 of 3),
// both ways.
TEST(PhysicalFailures, AFiberWhoseMziFailedIsLostBothWays) {
  const Topology across("across", 4, {{0, 2}, {1, 3}});
  const FabricSpec failed = with_failed_mzis(test_fabric(4), {{0, 1, 3}});
  const PhysicalLayer two(failure_spec({1, 2}, {1, 2}, {4, 4}, 2), failed);
  EXPECT_EQ(two.mzi_role(0, 1, 3), "fiber 0 towards server 1");
  const auto why = two.why_not(across);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why,
            "its circuits need 3 fibers from server 0 to server 1 (2 circuits, 1 wavelength(s) per fiber, 1 of them "
            "lost to failed MZIs: fabric.failures[0] (mzi, server 0, row 1, col 3)), fabric.physical.fibers is 2");
  EXPECT_FALSE(PhysicalLayer(failure_spec({1, 2}, {1, 2}, {4, 4}, 2), test_fabric(4)).why_not(across));

  const PhysicalLayer three(failure_spec({1, 2}, {1, 2}, {4, 4}, 3), failed);
  EXPECT_EQ(three.mzi_role(0, 1, 3), "fiber 1 towards server 1");
  const ConfigurationRouting& r = three.route(across);
  ASSERT_EQ(r.failure, "");
  EXPECT_EQ(r.fibers_needed, 3);  // 2 working fibers and the lost one
  for (const ServerEdgeLoad& e : r.edges) {
    EXPECT_EQ(e.lost, 1);  // both directions of the one link
    EXPECT_EQ(e.fibers, e.from == 0 ? 3 : 1);
  }
}

// Algorithm 4 with a lost fiber: on a 2 x 2 grid 0 -> 3 goes 0 -> 1 -> 3 or
// 0 -> 2 -> 3; edge 0 -> 1 (index 0) lost a fiber, so the optimum (z = 1)
// goes by server 2, from the rerouted start or by CBC alone.
TEST(PhysicalFailures, FiberRoutingAvoidsAnEdgeWithALostFiber) {
  const ServerGrid grid{2, 2};
  for (bool reroute : {true, false}) {
    FiberRoutingOptions options;
    options.lost = {1, 0, 0, 0, 0, 0, 0, 0};
    options.reroute = reroute;
    const FiberRouting r = route_fibers(grid, {FiberDemand{0, 3}}, options);
    EXPECT_EQ(r.fibers, 1) << reroute;
    EXPECT_EQ(r.paths[0], (std::vector<int>{0, 2, 3})) << reroute;
    EXPECT_TRUE(r.optimal) << reroute;
  }
  const FiberRouting healthy = route_fibers(grid, {FiberDemand{0, 3}});
  EXPECT_EQ(healthy.paths[0], (std::vector<int>{0, 1, 3}));  // dimension order: along the row first
  FiberRoutingOptions bad;
  bad.lost = {1};
  EXPECT_THROW(route_fibers(grid, {FiberDemand{0, 3}}, bad), Error);
}

}  // namespace
}  // namespace photonsim
