#include "topology/ring_generator.h"

#include <gtest/gtest.h>

#include <vector>

namespace photonsim {
namespace {

FabricSpec fabric(int gpus, CircuitKind circuits) {
  FabricSpec f;
  f.gpus = gpus;
  f.ports = 2;
  f.circuits = circuits;
  return f;
}

TEST(RingGenerator, UnidirectionalEdgesExactly) {
  const Topology t = make_ring(TopologySpec{"ring", {}}, fabric(4, CircuitKind::directed));
  EXPECT_EQ(t.edges(), (std::vector<Edge>{{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
  EXPECT_EQ(t.name(), "ring");
}

TEST(RingGenerator, BidirectionalEdgesExactly) {
  const Topology t = make_ring(TopologySpec{"ring", {}}, fabric(4, CircuitKind::bidirectional));
  EXPECT_EQ(t.edges(),
            (std::vector<Edge>{{0, 1}, {0, 3}, {1, 0}, {1, 2}, {2, 1}, {2, 3}, {3, 0}, {3, 2}}));
  EXPECT_EQ(t.name(), "bidirectional_ring");
}

TEST(RingGenerator, TwoNodesNeverDoubleTheCircuit) {
  const Topology uni = make_ring(TopologySpec{"ring", {}}, fabric(2, CircuitKind::directed));
  const Topology bi = make_ring(TopologySpec{"ring", {}}, fabric(2, CircuitKind::bidirectional));
  EXPECT_EQ(uni.edges(), (std::vector<Edge>{{0, 1}, {1, 0}}));
  EXPECT_EQ(bi.edges(), (std::vector<Edge>{{0, 1}, {1, 0}}));
}

TEST(RingGenerator, EveryNodeHasDegreeOneOrTwo) {
  for (int n = 3; n <= 12; ++n) {
    const Topology uni = make_ring(TopologySpec{"ring", {}}, fabric(n, CircuitKind::directed));
    const Topology bi = make_ring(TopologySpec{"ring", {}}, fabric(n, CircuitKind::bidirectional));
    for (Node u = 0; u < static_cast<Node>(n); ++u) {
      EXPECT_EQ(uni.out_degree(u), 1);
      EXPECT_EQ(uni.in_degree(u), 1);
      EXPECT_EQ(bi.out_degree(u), 2);
      EXPECT_EQ(bi.in_degree(u), 2);
    }
  }
}

}  // namespace
}  // namespace photonsim
