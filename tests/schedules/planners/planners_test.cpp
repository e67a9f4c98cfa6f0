// Planners: StaticPlanner and EveryStepPlanner.
#include <gtest/gtest.h>

#include "tests/schedules/pattern_of.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "schedules/algorithms/alltoall_direct.h"
#include "schedules/algorithms/broadcast_binomial.h"
#include "schedules/model/step_routes.h"
#include "schedules/planners/every_step_planner.h"
#include "schedules/planners/static_planner.h"
#include "schedules/synthesizer_registry.h"
#include "topology/shortest_path_router.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

FabricSpec planners_fabric(int gpus, int ports = 1, CircuitKind circuits = CircuitKind::directed) {
  FabricSpec f = testing_support::test_fabric(gpus, ports, circuits);
  return f;
}

// Most cases here move 4 MB.
WorkloadSpec planners_workload(Collective c, int64_t message = 4000000, int root = 0) {
  return testing_support::test_workload(c, message, root);
}

SynthesisSpec planners_synthesis(const std::string& algorithm, const std::string& planner, const std::string& topology,
                                 std::optional<std::string> static_topology = std::nullopt) {
  SynthesisSpec s;
  s.algorithm = algorithm;
  s.planner = planner;
  s.topology.type = topology;
  if (static_topology) s.static_topology = TopologySpec{*static_topology, {}};
  return s;
}

Topology planners_uni_ring(int n) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
  return Topology("ring", n, e);
}

Transfer planners_xfer(Node src, Node dst) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.bytes = Bytes(100);
  t.blocks = {0};
  return t;
}

PlanningInput input(const FabricSpec& f, std::optional<Topology> initial = std::nullopt,
                    std::optional<Topology> fixed = std::nullopt) {
  PlanningInput in;
  in.fabric = f;
  in.workload = planners_workload(Collective::alltoall, 100);
  in.algorithm = "hand";
  in.planner = "test";
  in.initial = std::move(initial);
  in.static_topology = std::move(fixed);
  return in;
}

// Multiset of (src, dst) over all steps.
std::multiset<std::pair<Node, Node>> flows(const Schedule& s) {
  std::multiset<std::pair<Node, Node>> out;
  for (const Step& step : s.steps()) {
    for (const Transfer& t : step.transfers) out.insert({t.src, t.dst});
  }
  return out;
}

// ---- static -------------------------------------------------------------------

TEST(StaticPlanner, UnidirectionalRingGroupsDirectFlowsByHopCount) {
  const int n = 8;
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize(
      planners_fabric(n), planners_workload(Collective::alltoall), planners_synthesis("direct", "", "ring"));
  EXPECT_EQ(s.planner(), "static");
  EXPECT_EQ(s.algorithm(), "direct");
  ASSERT_EQ(s.topologies().size(), size_t{1});
  EXPECT_EQ(s.topologies()[0], planners_uni_ring(n));
  EXPECT_EQ(s.initial_topology(), 0);
  EXPECT_EQ(s.reconfigurations(), 0);
  ASSERT_EQ(s.steps().size(), static_cast<size_t>(n - 1));
  for (size_t r = 0; r < s.steps().size(); ++r) {
    const int h = static_cast<int>(r) + 1;
    EXPECT_EQ(s.steps()[r].topology, 0);
    // Round h holds exactly the n flows i -> i + h.
    std::set<std::pair<Node, Node>> got, want;
    for (const Transfer& t : s.steps()[r].transfers) got.insert({t.src, t.dst});
    for (Node i = 0; i < static_cast<Node>(n); ++i) want.insert({i, (i + static_cast<Node>(h)) % n});
    EXPECT_EQ(got, want) << "round " << r;
    EXPECT_EQ(s.steps()[r].transfers.size(), static_cast<size_t>(n));
  }
}

TEST(StaticPlanner, BidirectionalRingGivesFourRounds) {
  const int n = 8;
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize(planners_fabric(n, 2, CircuitKind::bidirectional),
                                                                     planners_workload(Collective::alltoall),
                                                                     planners_synthesis("direct", "static", "ring"));
  ASSERT_EQ(s.steps().size(), size_t{4});
  const ShortestPathRouter router(s.topologies()[0]);
  const std::vector<size_t> sizes{16, 16, 16, 8};
  for (size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(s.steps()[r].transfers.size(), sizes[r]) << "round " << r;
    for (const Transfer& t : s.steps()[r].transfers) {
      EXPECT_EQ(router.hops(t.src, t.dst), static_cast<int>(r) + 1);
    }
  }
  EXPECT_EQ(flows(s).size(), size_t{56});
}

TEST(StaticPlanner, RegroupingKeepsEveryFlowOnce) {
  for (int n : {3, 5, 8}) {
    const Schedule s = SynthesizerRegistry::with_builtins().synthesize(
        planners_fabric(n), planners_workload(Collective::alltoall), planners_synthesis("direct", "", "ring"));
    const auto all = flows(s);
    EXPECT_EQ(all.size(), static_cast<size_t>(n * (n - 1)));
    const std::set<std::pair<Node, Node>> distinct(all.begin(), all.end());
    EXPECT_EQ(distinct.size(), all.size());
  }
}

TEST(StaticPlanner, NoTopologyThrowsNamingStaticTopology) {
  try {
    SynthesizerRegistry::with_builtins().synthesize(planners_fabric(8), planners_workload(Collective::alltoall),
                                                    planners_synthesis("direct", "static", "none"));
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("synthesis.static_topology"), std::string::npos) << msg;
    EXPECT_NE(msg.find("static"), std::string::npos) << msg;
  }
}

TEST(StaticPlanner, StartsUnconfiguredWithStaticTopology) {
  const Schedule s =
      SynthesizerRegistry::with_builtins().synthesize(planners_fabric(8), planners_workload(Collective::alltoall),
                                                      planners_synthesis("direct", "static", "none", "ring"));
  EXPECT_EQ(s.initial_topology(), -1);
  ASSERT_EQ(s.topologies().size(), size_t{1});
  EXPECT_EQ(s.steps().size(), size_t{7});
  EXPECT_TRUE(s.reconfigures_before(0));
  EXPECT_EQ(s.reconfigurations(), 1);
}

TEST(StaticPlanner, InitialDifferentFromStaticTopologyReconfiguresOnce) {
  const Topology initial = planners_uni_ring(4);
  const Topology fixed("other", 4, {{0, 2}, {2, 1}, {1, 3}, {3, 0}});
  const StepPattern pattern = pattern_of(AlltoallDirect(), planners_fabric(4), planners_workload(Collective::alltoall));
  const Schedule s = StaticPlanner().plan(pattern, input(planners_fabric(4), initial, fixed));
  ASSERT_EQ(s.topologies().size(), size_t{2});
  EXPECT_EQ(s.initial_topology(), 0);
  for (const Step& step : s.steps()) EXPECT_EQ(step.topology, 1);
  EXPECT_EQ(s.reconfigurations(), 1);
  // Hop counts on "other": 0->2->1->3->0 is a 4-cycle, so hops are 1, 2, 3.
  EXPECT_EQ(s.steps().size(), size_t{3});
}

TEST(StaticPlanner, SameInitialAndStaticTopologyIsListedOnce) {
  const Topology ring = planners_uni_ring(4);
  const Topology renamed("renamed", 4, ring.edges());
  const StepPattern pattern = pattern_of(AlltoallDirect(), planners_fabric(4), planners_workload(Collective::alltoall));
  const Schedule s = StaticPlanner().plan(pattern, input(planners_fabric(4), ring, renamed));
  EXPECT_EQ(s.topologies().size(), size_t{1});
  EXPECT_EQ(s.reconfigurations(), 0);
}

TEST(StaticPlanner, DependentStepsAreKeptInOrder) {
  const int n = 6;
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize(
      planners_fabric(n), planners_workload(Collective::allreduce, 6000), planners_synthesis("ring", "", "ring"));
  EXPECT_EQ(s.planner(), "static");
  ASSERT_EQ(s.steps().size(), static_cast<size_t>(2 * (n - 1)));
  for (size_t i = 0; i < s.steps().size(); ++i) {
    EXPECT_EQ(s.steps()[i].topology, 0);
    EXPECT_EQ(s.steps()[i].transfers.size(), static_cast<size_t>(n));
    EXPECT_EQ(s.steps()[i].transfers[0].op, i < static_cast<size_t>(n - 1) ? TransferOp::reduce : TransferOp::copy);
  }
}

TEST(StaticPlanner, UnreachableFlowThrows) {
  const Topology split("split", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  const StepPattern pattern = pattern_of(AlltoallDirect(), planners_fabric(4), planners_workload(Collective::alltoall));
  try {
    StaticPlanner().plan(pattern, input(planners_fabric(4), std::nullopt, split));
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("no route"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'split'"), std::string::npos) << msg;
  }
}

TEST(StaticPlanner, ChecksPortsOfTheStaticTopology) {
  const Topology star("star", 4, {{0, 1}, {0, 2}, {0, 3}, {1, 0}, {2, 0}, {3, 0}});
  const StepPattern pattern = pattern_of(AlltoallDirect(), planners_fabric(4), planners_workload(Collective::alltoall));
  EXPECT_THROW(StaticPlanner().plan(pattern, input(planners_fabric(4, 1), std::nullopt, star)), Error);
  EXPECT_NO_THROW(StaticPlanner().plan(pattern, input(planners_fabric(4, 3), std::nullopt, star)));
}

// ---- every_step ------------------------------------------------------------------

TEST(EveryStepPlanner, BinomialStepsGetTheirOwnCircuits) {
  const int n = 8;
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize(
      planners_fabric(n), planners_workload(Collective::broadcast, 4000000, 0),
      planners_synthesis("binomial", "", "none"));
  EXPECT_EQ(s.planner(), "every_step");
  EXPECT_EQ(s.initial_topology(), -1);
  ASSERT_EQ(s.steps().size(), size_t{3});
  ASSERT_EQ(s.topologies().size(), size_t{3});
  for (size_t i = 0; i < s.steps().size(); ++i) {
    const Step& step = s.steps()[i];
    std::vector<Edge> want;
    for (const Transfer& t : step.transfers) want.push_back({t.src, t.dst});
    std::sort(want.begin(), want.end());
    EXPECT_EQ(s.topologies()[static_cast<size_t>(step.topology)].edges(), want) << "step " << i;
  }
  EXPECT_EQ(s.reconfigurations(), 3);
}

TEST(EveryStepPlanner, ReconfigurationsEqualStepsWithTopologyNone) {
  for (int n = 2; n <= 17; ++n) {
    const Schedule s = SynthesizerRegistry::with_builtins().synthesize(
        planners_fabric(n), planners_workload(Collective::broadcast, 1000, n / 3),
        planners_synthesis("binomial", "every_step", "none"));
    EXPECT_EQ(s.reconfigurations(), static_cast<int>(s.steps().size())) << "n=" << n;
  }
}

TEST(EveryStepPlanner, BidirectionalCircuitsIncludeReverse) {
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize(
      planners_fabric(4, 1, CircuitKind::bidirectional), planners_workload(Collective::broadcast, 1000),
      planners_synthesis("binomial", "every_step", "none"));
  ASSERT_EQ(s.steps().size(), size_t{2});
  EXPECT_EQ(s.topologies()[static_cast<size_t>(s.steps()[0].topology)].edges(), (std::vector<Edge>{{0, 1}, {1, 0}}));
  EXPECT_EQ(s.topologies()[static_cast<size_t>(s.steps()[1].topology)].edges(),
            (std::vector<Edge>{{0, 2}, {1, 3}, {2, 0}, {3, 1}}));
}

TEST(EveryStepPlanner, SplitsAStepThatExceedsThePorts) {
  StepPattern pattern;
  pattern.steps = {{planners_xfer(0, 1), planners_xfer(0, 2), planners_xfer(0, 3)}};
  const Schedule one_port = EveryStepPlanner().plan(pattern, input(planners_fabric(4, 1)));
  ASSERT_EQ(one_port.steps().size(), size_t{3});
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(one_port.steps()[i].transfers.size(), size_t{1});
    EXPECT_EQ(one_port.steps()[i].transfers[0].dst, static_cast<Node>(i + 1));
  }
  EXPECT_EQ(one_port.reconfigurations(), 3);

  const Schedule two_ports = EveryStepPlanner().plan(pattern, input(planners_fabric(4, 2)));
  ASSERT_EQ(two_ports.steps().size(), size_t{2});
  EXPECT_EQ(two_ports.steps()[0].transfers.size(), size_t{2});
  EXPECT_EQ(two_ports.steps()[1].transfers.size(), size_t{1});
  EXPECT_EQ(two_ports.steps()[1].transfers[0].dst, Node{3});
}

TEST(EveryStepPlanner, SplitsOnInDegreeToo) {
  StepPattern pattern;
  pattern.steps = {{planners_xfer(1, 0), planners_xfer(2, 0), planners_xfer(3, 0)}};
  const Schedule s = EveryStepPlanner().plan(pattern, input(planners_fabric(4, 1)));
  EXPECT_EQ(s.steps().size(), size_t{3});
}

TEST(EveryStepPlanner, FirstFitReusesEarlierGroupsAndSharedCircuits) {
  StepPattern pattern;
  // 0->1 and 0->2 conflict; 2->3 fits the first group; a second 0->1 reuses its circuit.
  pattern.steps = {{planners_xfer(0, 1), planners_xfer(0, 2), planners_xfer(2, 3), planners_xfer(0, 1)}};
  const Schedule s = EveryStepPlanner().plan(pattern, input(planners_fabric(4, 1)));
  ASSERT_EQ(s.steps().size(), size_t{2});
  std::vector<std::pair<Node, Node>> first, second;
  for (const Transfer& t : s.steps()[0].transfers) first.push_back({t.src, t.dst});
  for (const Transfer& t : s.steps()[1].transfers) second.push_back({t.src, t.dst});
  EXPECT_EQ(first, (std::vector<std::pair<Node, Node>>{{0, 1}, {2, 3}, {0, 1}}));
  EXPECT_EQ(second, (std::vector<std::pair<Node, Node>>{{0, 2}}));
  EXPECT_EQ(s.topologies()[static_cast<size_t>(s.steps()[0].topology)].multiplicity(0, 1), 1);
}

TEST(EveryStepPlanner, BidirectionalPairSharesOneCircuit) {
  StepPattern pattern;
  pattern.steps = {{planners_xfer(0, 1), planners_xfer(1, 0)}};
  const Schedule s = EveryStepPlanner().plan(pattern, input(planners_fabric(4, 1, CircuitKind::bidirectional)));
  ASSERT_EQ(s.steps().size(), size_t{1});
  EXPECT_EQ(s.steps()[0].transfers.size(), size_t{2});
  // With directed circuits the pair also fits (out 1, in 1 per node).
  const Schedule d = EveryStepPlanner().plan(pattern, input(planners_fabric(4, 1)));
  EXPECT_EQ(d.steps().size(), size_t{1});
}

TEST(EveryStepPlanner, ParallelPutsTheFreePortsOnEachPairAndStripesItsTransfer) {
  StepPattern pattern;
  // A pairwise exchange (0 <-> 1, 2 <-> 3) on 2 bidirectional ports: each pair
  // gets both ports. On 3 directed ports, a GPU sending or receiving on 2 of
  // them leaves its pairs 3 / 2 = 1 circuit; lone pairs get 3.
  pattern.steps = {{planners_xfer(0, 1), planners_xfer(1, 0), planners_xfer(2, 3), planners_xfer(3, 2)}};
  PlanningInput in = input(planners_fabric(4, 2, CircuitKind::bidirectional));
  in.params = ComponentParams("every_step", {{"parallel", "true"}}, EveryStepPlanner().info().parameters, "planner");
  const Schedule s = EveryStepPlanner().plan(pattern, in);
  ASSERT_EQ(s.steps().size(), size_t{1});
  const Topology& t = s.topologies()[static_cast<size_t>(s.steps()[0].topology)];
  EXPECT_EQ(t.multiplicity(0, 1), 2);
  EXPECT_EQ(t.multiplicity(1, 0), 2);
  EXPECT_EQ(t.multiplicity(3, 2), 2);
  for (const Transfer& x : s.steps()[0].transfers) {
    ASSERT_EQ(x.routes.size(), size_t{2});
    EXPECT_EQ(x.routes[0].bytes, Bytes(50));
    EXPECT_EQ(x.routes[1].bytes, Bytes(50));
  }
  const std::vector<RoutedFlow> routed = route_step(s.steps()[0], t, 0);
  ASSERT_EQ(routed.size(), size_t{8});
  for (size_t i = 0; i < 8; i += 2) EXPECT_NE(routed[i].links, routed[i + 1].links) << "transfer " << i / 2;

  pattern.steps = {{planners_xfer(0, 2), planners_xfer(0, 3), planners_xfer(1, 2)}};
  in.fabric = planners_fabric(4, 3);
  const Schedule d = EveryStepPlanner().plan(pattern, in);
  const Topology& u = d.topologies()[static_cast<size_t>(d.steps()[0].topology)];
  EXPECT_EQ(u.multiplicity(0, 2), 1);  // min(3 / 2 out of 0, 3 / 2 into 2)
  EXPECT_EQ(u.multiplicity(0, 3), 1);  // min(3 / 2, 3 / 1)
  EXPECT_EQ(u.multiplicity(1, 2), 1);  // 3 / 2 into 2
  EXPECT_TRUE(d.steps()[0].transfers[0].routes.empty());

  pattern.steps = {{planners_xfer(0, 1), planners_xfer(2, 3)}};
  const Schedule three = EveryStepPlanner().plan(pattern, in);
  EXPECT_EQ(three.topologies()[static_cast<size_t>(three.steps()[0].topology)].multiplicity(2, 3), 3);
  EXPECT_EQ(three.steps()[0].transfers[1].routes[0].bytes, Bytes(34));  // 100 = 34 + 33 + 33
  // Without the parameter: one circuit per pair, transfers whole.
  const Schedule plain = EveryStepPlanner().plan(pattern, input(planners_fabric(4, 3)));
  EXPECT_EQ(plain.topologies()[static_cast<size_t>(plain.steps()[0].topology)].multiplicity(2, 3), 1);
  EXPECT_TRUE(plain.steps()[0].transfers[1].routes.empty());
}

TEST(EveryStepPlanner, DirectAlltoallSplitsRespectPorts) {
  for (CircuitKind kind : {CircuitKind::directed, CircuitKind::bidirectional}) {
    for (int ports : {1, 2}) {
      const FabricSpec f = planners_fabric(6, ports, kind);
      const Schedule s =
          EveryStepPlanner().plan(pattern_of(AlltoallDirect(), f, planners_workload(Collective::alltoall)), input(f));
      EXPECT_EQ(flows(s).size(), size_t{30});
      for (const Step& step : s.steps()) {
        const Topology& t = s.topologies()[static_cast<size_t>(step.topology)];
        EXPECT_NO_THROW(t.check_ports(f));
        for (const Transfer& x : step.transfers) EXPECT_EQ(t.multiplicity(x.src, x.dst), 1);
      }
    }
  }
}

TEST(EveryStepPlanner, BidirectionalDirectAlltoallFirstFitCount) {
  // n = 4, one port, two-way circuits: round i->i+1 needs two matchings, round
  // i->i+2 is already a matching (pairs {0,2}, {1,3}), round i->i-1 needs two.
  const FabricSpec f = planners_fabric(4, 1, CircuitKind::bidirectional);
  const Schedule s =
      EveryStepPlanner().plan(pattern_of(AlltoallDirect(), f, planners_workload(Collective::alltoall)), input(f));
  EXPECT_EQ(s.steps().size(), size_t{5});
}

TEST(EveryStepPlanner, IdenticalConsecutiveStepsShareAConfiguration) {
  StepPattern pattern;
  pattern.steps = {
      {planners_xfer(0, 1), planners_xfer(2, 3)}, {planners_xfer(2, 3), planners_xfer(0, 1)}, {planners_xfer(1, 2)}};
  const Schedule s = EveryStepPlanner().plan(pattern, input(planners_fabric(4, 1)));
  ASSERT_EQ(s.steps().size(), size_t{3});
  EXPECT_EQ(s.steps()[0].topology, s.steps()[1].topology);
  EXPECT_NE(s.steps()[1].topology, s.steps()[2].topology);
  EXPECT_EQ(s.topologies().size(), size_t{2});
  EXPECT_EQ(s.reconfigurations(), 2);
}

TEST(EveryStepPlanner, InitialTopologyMatchingFirstStepIsFree) {
  StepPattern pattern;
  pattern.steps = {{planners_xfer(0, 1), planners_xfer(2, 3)}, {planners_xfer(1, 2)}};
  const Topology initial("preset", 4, {{0, 1}, {2, 3}});
  const Schedule s = EveryStepPlanner().plan(pattern, input(planners_fabric(4, 1), initial));
  EXPECT_EQ(s.initial_topology(), 0);
  EXPECT_EQ(s.steps()[0].topology, 0);
  EXPECT_FALSE(s.reconfigures_before(0));
  EXPECT_EQ(s.reconfigurations(), 1);
}

}  // namespace
}  // namespace photonsim
