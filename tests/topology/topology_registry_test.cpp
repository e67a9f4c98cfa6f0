#include "topology/topology_registry.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

FabricSpec topology_registry_fabric(int gpus, int ports, CircuitKind circuits) {
  FabricSpec f = testing_support::test_fabric(gpus, ports, circuits);
  return f;
}

TopologySpec topology_registry_spec(const std::string& type, std::map<std::string, std::string> params = {}) {
  TopologySpec s;
  s.type = type;
  s.params = std::move(params);
  return s;
}

std::string topology_registry_error_of(const TopologySpec& s, const FabricSpec& f) {
  try {
    TopologyRegistry::with_builtin_generators().make(s, f);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(TopologyRegistry, BuiltinNames) {
  const auto registry = TopologyRegistry::with_builtin_generators();
  EXPECT_EQ(registry.names(),
            "none, ring, shifted_ring, circulant, generalized_kautz, de_bruijn, torus, grid, "
            "hypercube, complete, subrings, random_regular, from_edges, from_step");
}

TEST(TopologyRegistry, NoneGivesNullopt) {
  const auto registry = TopologyRegistry::with_builtin_generators();
  EXPECT_FALSE(
      registry.make(topology_registry_spec("none"), topology_registry_fabric(8, 1, CircuitKind::directed)).has_value());
  EXPECT_FALSE(registry.make(TopologySpec{}, topology_registry_fabric(8, 1, CircuitKind::directed)).has_value());
}

TEST(TopologyRegistry, NoneRejectsParameters) {
  const std::string msg = topology_registry_error_of(topology_registry_spec("none", {{"bidirectional", "true"}}),
                                                     topology_registry_fabric(8, 2, CircuitKind::directed));
  EXPECT_NE(msg.find("bidirectional"), std::string::npos) << msg;
}

TEST(TopologyRegistry, RingDefaultsToUnidirectionalOnDirectedFabric) {
  const auto t = TopologyRegistry::with_builtin_generators().make(
      topology_registry_spec("ring"), topology_registry_fabric(8, 1, CircuitKind::directed));
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->name(), "ring");
  EXPECT_EQ(t->gpus(), 8);
  EXPECT_EQ(t->edges().size(), size_t{8});
  for (Node u = 0; u < 8; ++u) EXPECT_EQ(t->multiplicity(u, (u + 1) % 8), 1);
  EXPECT_EQ(t->multiplicity(1, 0), 0);
}

TEST(TopologyRegistry, RingDefaultsToBidirectionalOnBidirectionalFabric) {
  const auto t = TopologyRegistry::with_builtin_generators().make(
      topology_registry_spec("ring"), topology_registry_fabric(8, 2, CircuitKind::bidirectional));
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->name(), "bidirectional_ring");
  EXPECT_EQ(t->edges().size(), size_t{16});
  for (Node u = 0; u < 8; ++u) {
    EXPECT_EQ(t->multiplicity(u, (u + 1) % 8), 1);
    EXPECT_EQ(t->multiplicity((u + 1) % 8, u), 1);
  }
}

TEST(TopologyRegistry, RingBidirectionalParameterOverridesFabric) {
  const auto registry = TopologyRegistry::with_builtin_generators();
  const auto both = registry.make(topology_registry_spec("ring", {{"bidirectional", "true"}}),
                                  topology_registry_fabric(8, 2, CircuitKind::directed));
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(both->edges().size(), size_t{16});
  const auto one = registry.make(topology_registry_spec("ring", {{"bidirectional", "false"}}),
                                 topology_registry_fabric(8, 2, CircuitKind::directed));
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->edges().size(), size_t{8});
}

TEST(TopologyRegistry, UnidirectionalRingOnBidirectionalFabricFailsPortCheck) {
  // One-way circuits cannot exist on a bidirectional fabric.
  const std::string msg = topology_registry_error_of(topology_registry_spec("ring", {{"bidirectional", "false"}}),
                                                     topology_registry_fabric(8, 2, CircuitKind::bidirectional));
  EXPECT_NE(msg.find("no reverse"), std::string::npos) << msg;
}

TEST(TopologyRegistry, MakeChecksPorts) {
  // A bidirectional ring needs two ports per node.
  const std::string msg = topology_registry_error_of(topology_registry_spec("ring", {{"bidirectional", "true"}}),
                                                     topology_registry_fabric(8, 1, CircuitKind::directed));
  EXPECT_NE(msg.find("node 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fabric.ports is 1"), std::string::npos) << msg;
}

TEST(TopologyRegistry, TwoNodeBidirectionalRingIsOnePair) {
  const auto t = TopologyRegistry::with_builtin_generators().make(
      topology_registry_spec("ring"), topology_registry_fabric(2, 1, CircuitKind::bidirectional));
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->edges(), (std::vector<Edge>{{0, 1}, {1, 0}}));
}

TEST(TopologyRegistry, BadParameterNameListsValidOnes) {
  const std::string msg = topology_registry_error_of(topology_registry_spec("ring", {{"stride", "2"}}),
                                                     topology_registry_fabric(8, 1, CircuitKind::directed));
  EXPECT_NE(msg.find("'stride'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("valid: bidirectional"), std::string::npos) << msg;
}

TEST(TopologyRegistry, BadParameterValue) {
  const std::string msg = topology_registry_error_of(topology_registry_spec("ring", {{"bidirectional", "yes"}}),
                                                     topology_registry_fabric(8, 2, CircuitKind::directed));
  EXPECT_NE(msg.find("'bidirectional'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'yes'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("true or false"), std::string::npos) << msg;
}

TEST(TopologyRegistry, UnknownNameListsValidNames) {
  const std::string msg = topology_registry_error_of(topology_registry_spec("tours"),
                                                     topology_registry_fabric(8, 1, CircuitKind::directed));
  EXPECT_NE(msg.find("unknown topology 'tours'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("valid: none, ring, shifted_ring, circulant"), std::string::npos) << msg;
  EXPECT_NE(msg.find("torus"), std::string::npos) << msg;
}

TEST(TopologyRegistry, CustomGeneratorsCanBeAdded) {
  auto registry = TopologyRegistry::with_builtin_generators();
  registry.add({"star", "everyone to 0", {}, [](const ComponentParams&, const GeneratorContext& context) {
                  std::vector<Edge> e;
                  for (int u = 1; u < context.gpus(); ++u) e.push_back({static_cast<Node>(u), 0});
                  return Topology("star", context.gpus(), e);
                }});
  EXPECT_EQ(registry.names().substr(registry.names().size() - 6), ", star");
  EXPECT_NO_THROW(registry.make(topology_registry_spec("star"), topology_registry_fabric(4, 3, CircuitKind::directed)));
  // The registry checks the generator's output against the ports.
  EXPECT_THROW(registry.make(topology_registry_spec("star"), topology_registry_fabric(4, 2, CircuitKind::directed)),
               Error);
}

}  // namespace
}  // namespace photonsim
