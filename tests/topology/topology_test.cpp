#include "topology/topology.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "core/spec/fabric_spec.h"
#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

FabricSpec topology_fabric(int gpus, int ports, CircuitKind circuits) {
  FabricSpec f = testing_support::test_fabric(gpus, ports, circuits);
  return f;
}

std::vector<Edge> topology_ring_edges(int n, bool both) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) {
    e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
    if (both) e.push_back({static_cast<Node>((u + 1) % n), static_cast<Node>(u)});
  }
  return e;
}

std::string topology_error_of(const Topology& t, const FabricSpec& f) {
  try {
    t.check_ports(f);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Topology, EdgesAreSorted) {
  const Topology t("t", 4, {{3, 0}, {0, 2}, {1, 0}, {0, 1}, {2, 3}});
  EXPECT_EQ(t.edges(), (std::vector<Edge>{{0, 1}, {0, 2}, {1, 0}, {2, 3}, {3, 0}}));
  EXPECT_EQ(t.name(), "t");
  EXPECT_EQ(t.gpus(), 4);
  EXPECT_FALSE(t.empty());
}

TEST(Topology, DefaultIsEmpty) {
  const Topology t;
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.gpus(), 0);
  const Topology none("none", 4, {});
  EXPECT_TRUE(none.empty());
}

TEST(Topology, EqualityIgnoresNameAndOrderButNotMultiplicity) {
  const Topology a("a", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  const Topology b("b", 4, {{3, 0}, {2, 3}, {1, 2}, {0, 1}});
  EXPECT_TRUE(a == b);
  const Topology doubled("a", 4, {{0, 1}, {0, 1}, {1, 2}, {2, 3}, {3, 0}});
  EXPECT_FALSE(a == doubled);
  const Topology bigger("a", 5, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  EXPECT_FALSE(a == bigger);
  const Topology reversed("a", 4, {{1, 0}, {2, 1}, {3, 2}, {0, 3}});
  EXPECT_FALSE(a == reversed);
}

TEST(Topology, DegreesAndMultiplicity) {
  const Topology t("m", 4, {{0, 1}, {0, 1}, {0, 2}, {1, 0}, {3, 0}});
  EXPECT_EQ(t.out_degree(0), 3);
  EXPECT_EQ(t.out_degree(1), 1);
  EXPECT_EQ(t.out_degree(2), 0);
  EXPECT_EQ(t.out_degree(3), 1);
  EXPECT_EQ(t.in_degree(0), 2);
  EXPECT_EQ(t.in_degree(1), 2);
  EXPECT_EQ(t.in_degree(2), 1);
  EXPECT_EQ(t.in_degree(3), 0);
  EXPECT_EQ(t.multiplicity(0, 1), 2);
  EXPECT_EQ(t.multiplicity(1, 0), 1);
  EXPECT_EQ(t.multiplicity(0, 2), 1);
  EXPECT_EQ(t.multiplicity(2, 0), 0);
  EXPECT_EQ(t.multiplicity(0, 3), 0);
}

TEST(Topology, SelfLoopRejectedNamingNode) {
  try {
    Topology("loop", 4, {{0, 1}, {2, 2}});
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("self-loop"), std::string::npos) << msg;
    EXPECT_NE(msg.find("node 2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'loop'"), std::string::npos) << msg;
  }
}

TEST(Topology, OutOfRangeEndpointRejected) {
  EXPECT_THROW(Topology("x", 4, {{0, 4}}), Error);
  EXPECT_THROW(Topology("x", 4, {{7, 0}}), Error);
  try {
    Topology("x", 4, {{1, 9}});
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("1->9"), std::string::npos) << msg;
    EXPECT_NE(msg.find("0..3"), std::string::npos) << msg;
  }
}

TEST(TopologyCheckPorts, DirectedUnidirectionalRingFitsOnePort) {
  const Topology ring("ring", 8, topology_ring_edges(8, false));
  EXPECT_NO_THROW(ring.check_ports(topology_fabric(8, 1, CircuitKind::directed)));
}

TEST(TopologyCheckPorts, DirectedBidirectionalRingNeedsTwoPorts) {
  const Topology ring("bidirectional_ring", 8, topology_ring_edges(8, true));
  const std::string msg = topology_error_of(ring, topology_fabric(8, 1, CircuitKind::directed));
  EXPECT_NE(msg.find("node 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs 2 ports"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fabric.ports is 1"), std::string::npos) << msg;
  EXPECT_NO_THROW(ring.check_ports(topology_fabric(8, 2, CircuitKind::directed)));
}

TEST(TopologyCheckPorts, DirectedInDegreeAlsoCounts) {
  // Node 3 receives from 0, 1 and 2; every out-degree is 1.
  const Topology fan_in("fan_in", 4, {{0, 3}, {1, 3}, {2, 3}});
  const std::string msg = topology_error_of(fan_in, topology_fabric(4, 2, CircuitKind::directed));
  EXPECT_NE(msg.find("node 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("in 3"), std::string::npos) << msg;
  EXPECT_NO_THROW(fan_in.check_ports(topology_fabric(4, 3, CircuitKind::directed)));
}

TEST(TopologyCheckPorts, NamesTheFirstOffendingNode) {
  // Node 2 is the first with two out-circuits.
  const Topology t("t", 5, {{0, 1}, {2, 3}, {2, 4}, {4, 0}, {3, 2}});
  const std::string msg = topology_error_of(t, topology_fabric(5, 1, CircuitKind::directed));
  EXPECT_NE(msg.find("node 2 "), std::string::npos) << msg;
}

TEST(TopologyCheckPorts, BidirectionalModeCountsEachTwoWayCircuitOnce) {
  const Topology ring("bidirectional_ring", 8, topology_ring_edges(8, true));
  // Each node ends two two-way circuits.
  const std::string msg = topology_error_of(ring, topology_fabric(8, 1, CircuitKind::bidirectional));
  EXPECT_NE(msg.find("node 0"), std::string::npos) << msg;
  EXPECT_NO_THROW(ring.check_ports(topology_fabric(8, 2, CircuitKind::bidirectional)));
  // A two-way pairing fits one port.
  const Topology pairs("pairs", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  EXPECT_NO_THROW(pairs.check_ports(topology_fabric(4, 1, CircuitKind::bidirectional)));
}

TEST(TopologyCheckPorts, BidirectionalModeRejectsOneWayEdgeNamingNode) {
  const Topology t("oneway", 4, {{0, 1}, {1, 0}, {2, 3}});
  const std::string msg = topology_error_of(t, topology_fabric(4, 1, CircuitKind::bidirectional));
  EXPECT_NE(msg.find("2->3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("node 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no reverse"), std::string::npos) << msg;
  // The same topology is fine for directed circuits.
  EXPECT_NO_THROW(t.check_ports(topology_fabric(4, 1, CircuitKind::directed)));
}

TEST(TopologyCheckPorts, BidirectionalModeRequiresMatchingMultiplicity) {
  const Topology t("uneven", 4, {{0, 1}, {0, 1}, {1, 0}});
  const std::string msg = topology_error_of(t, topology_fabric(4, 2, CircuitKind::bidirectional));
  EXPECT_NE(msg.find("0->1"), std::string::npos) << msg;
}

}  // namespace
}  // namespace photonsim
