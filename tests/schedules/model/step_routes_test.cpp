#include "schedules/model/step_routes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"

namespace photonsim {
namespace {

Transfer step_routes_xfer(Node src, Node dst, std::vector<Node> path = {}) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.bytes = Bytes(10);
  t.path = std::move(path);
  return t;
}

// Edge list (sorted): 0:{0,1} 1:{1,2} 2:{2,3} 3:{3,0}
Topology step_routes_ring4() { return Topology("ring", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}); }

TEST(StepRoutes, ShortestPathAsEdgeIndices) {
  const Step step{0, {step_routes_xfer(0, 3), step_routes_xfer(2, 1), step_routes_xfer(1, 2)}};
  const auto routes = route_step(step, step_routes_ring4(), 0);
  ASSERT_EQ(routes.size(), size_t{3});
  EXPECT_EQ(routes[0].links, (LinkRoute{0, 1, 2}));
  EXPECT_EQ(routes[1].links, (LinkRoute{2, 3, 0}));
  EXPECT_EQ(routes[2].links, (LinkRoute{1}));
}

// One circuit out of every GPU: the only path is the walk along them, which
// route_step follows without a search - the same answer the search gives.
TEST(StepRoutes, OneCircuitOutOfEveryGpuIsWalked) {
  // Sorted edges: 0:{0,1} 1:{1,2} 2:{2,0} 3:{3,1}; node 3 starts a tail into the cycle.
  const Topology t("tail", 4, {{0, 1}, {1, 2}, {2, 0}, {3, 1}});
  const Step step{0, {step_routes_xfer(3, 2), step_routes_xfer(2, 1), step_routes_xfer(1, 0), step_routes_xfer(3, 0)}};
  const auto routes = route_step(step, t, 0);
  EXPECT_EQ(routes[0].links, (LinkRoute{3, 1}));
  EXPECT_EQ(routes[1].links, (LinkRoute{2, 0}));
  EXPECT_EQ(routes[2].links, (LinkRoute{1, 2}));
  EXPECT_EQ(routes[3].links, (LinkRoute{3, 1, 2}));
}

TEST(StepRoutes, WalkThatNeverReachesTheDestinationThrowsNamingThePair) {
  // Shift 2 on 6 GPUs: two cycles 0 -> 2 -> 4 and 1 -> 3 -> 5.
  const Topology t("shifted_ring(2)", 6, {{0, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 0}, {5, 1}});
  EXPECT_EQ(route_step(Step{0, {step_routes_xfer(0, 4)}}, t, 0)[0].links, (LinkRoute{0, 2}));
  try {
    route_step(Step{0, {step_routes_xfer(0, 1)}}, t, 7);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "step 7: unroutable transfer 0->1: no route from node 0 to node 1 on topology 'shifted_ring(2)'");
  }
}

TEST(StepRoutes, ExplicitPathIsFollowedHopByHop) {
  // Sorted edges: 0:{0,1} 1:{0,2} 2:{1,2} 3:{2,0}
  const Topology t("tri", 3, {{0, 1}, {1, 2}, {2, 0}, {0, 2}});
  const Step step{0, {step_routes_xfer(0, 2), step_routes_xfer(0, 2, {0, 1, 2})}};
  const auto routes = route_step(step, t, 0);
  EXPECT_EQ(routes[0].links, (LinkRoute{1}));
  EXPECT_EQ(routes[1].links, (LinkRoute{0, 2}));
}

TEST(StepRoutes, ParallelCircuitsAssignedByTransferIndexModMultiplicity) {
  // Sorted edges: 0,1,2:{0,1} 3:{1,0}
  const Topology t("triple", 2, {{0, 1}, {1, 0}, {0, 1}, {0, 1}});
  Step step{0, {}};
  for (int i = 0; i < 7; ++i) step.transfers.push_back(step_routes_xfer(0, 1));
  step.transfers.push_back(step_routes_xfer(1, 0));
  const auto routes = route_step(step, t, 0);
  for (uint32_t i = 0; i < 7; ++i) EXPECT_EQ(routes[i].links, (LinkRoute{i % 3})) << "transfer " << i;
  EXPECT_EQ(routes[7].links, (LinkRoute{3}));
}

TEST(StepRoutes, RoutesOfASplitTakeParallelCircuitsInTurn) {
  // Sorted edges: 0,1:{0,1} 2:{0,2} 3,4:{1,2} 5:{2,0}. Transfer 1 (0 -> 2) splits
  // over 0-1-2, 0-2 and 0-1-2 again: its routes over 0 -> 1 take circuits
  // 1 mod 2 and 2 mod 2, over 1 -> 2 likewise, so the split uses both of each pair.
  const Topology t("doubled", 3, {{0, 1}, {0, 1}, {1, 2}, {1, 2}, {2, 0}, {0, 2}});
  Transfer split = step_routes_xfer(0, 2);
  split.routes = {Route{{0, 1, 2}, Bytes(4)}, Route{{0, 2}, Bytes(2)}, Route{{0, 1, 2}, Bytes(4)}};
  const Step step{0, {step_routes_xfer(2, 0), split}};
  const auto routes = route_step(step, t, 0);
  ASSERT_EQ(routes.size(), 4u);
  EXPECT_EQ(routes[1].links, (LinkRoute{1, 4}));  // turn 0 from transfer index 1
  EXPECT_EQ(routes[2].links, (LinkRoute{2}));
  EXPECT_EQ(routes[3].links, (LinkRoute{0, 3}));  // turn 1: the other circuit of each pair
  EXPECT_EQ(routes[3].bytes, Bytes(4));
}

TEST(StepRoutes, HopThatIsNotACircuitThrows) {
  const Step step{0, {step_routes_xfer(0, 1), step_routes_xfer(0, 2, {0, 2})}};
  try {
    route_step(step, step_routes_ring4(), 5);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("step 5"), std::string::npos) << msg;
    EXPECT_NE(msg.find("transfer 0->2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("hop 0->2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'ring'"), std::string::npos) << msg;
  }
}

TEST(StepRoutes, UnreachableDestinationThrows) {
  const Topology split("split", 4, {{0, 1}, {1, 0}, {2, 3}, {3, 2}});
  const Step step{0, {step_routes_xfer(1, 3)}};
  try {
    route_step(step, split, 2);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("step 2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1->3"), std::string::npos) << msg;
  }
}

// The streaming form hands over route_step's flows, one by one, in order:
// implicit, explicit and multipath transfers alike.
TEST(StepRoutes, ForEachRoutedFlowHandsOverRouteStepsFlows) {
  Transfer split = step_routes_xfer(0, 2);
  split.routes = {Route{{0, 1, 2}, Bytes(4)}, Route{{0, 1, 2}, Bytes(6)}};
  const Step step{0, {step_routes_xfer(0, 3), split, step_routes_xfer(1, 3, {1, 2, 3}), step_routes_xfer(3, 0)}};
  const std::vector<RoutedFlow> listed = route_step(step, step_routes_ring4(), 0);
  std::vector<RoutedFlow> streamed;
  for_each_routed_flow(step, step_routes_ring4(), 0, [&](RoutedFlow&& f) { streamed.push_back(std::move(f)); });
  ASSERT_EQ(streamed.size(), 5U);
  ASSERT_EQ(streamed.size(), listed.size());
  for (size_t i = 0; i < listed.size(); ++i) {
    EXPECT_EQ(streamed[i].transfer, listed[i].transfer);
    EXPECT_EQ(streamed[i].links, listed[i].links);
    EXPECT_EQ(streamed[i].bytes, listed[i].bytes);
  }
  EXPECT_EQ(streamed[1].bytes, Bytes(4));
  EXPECT_EQ(streamed[2].transfer, 1U);
}

TEST(StepRoutes, EmptyStepHasNoRoutes) { EXPECT_TRUE(route_step(Step{0, {}}, step_routes_ring4(), 0).empty()); }

}  // namespace
}  // namespace photonsim
