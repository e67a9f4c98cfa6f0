// fabric.failures, kind straggler (docs/model.md "Failures"): a compute node
// takes its duration times the largest slowdown among its GPUs, rounded to
// the picosecond (nearest, ties away from zero, for the slowdown's exact
// double); the iteration, every node's times, the critical path and the
// analytical prediction all see it. 800 Gbps = 100 B/ns, 500 ns per hop, one
// port, no reconfiguration delay: a ring AllReduce of 2 MB on two GPUs takes
// 2 x (10 us + 500 ns) = 21 us.
#include <gtest/gtest.h>

#include <vector>

#include "core/error.h"
#include "core/spec/graph_node_error.h"
#include "sim/engine/compute_slowdown.h"
#include "sim/engine/task_graph_execution.h"
#include "tests/engine/replay_fixture.h"
#include "tests/support/task_nodes.h"

namespace photonsim {
namespace {

using namespace testing_support;

Time straggler_us(int64_t v) { return Time::us(v); }
Time straggler_ps(int64_t v) { return Time::ps(v); }

constexpr int64_t kStragglerRingPs = 21'000'000;  // the AllReduce: 2 steps of 10.5 us

Failure straggler(int gpu, double slowdown) {
  Failure f;
  f.kind = FailureKind::straggler;
  f.gpu = gpu;
  f.slowdown = slowdown;
  return f;
}

Schedule straggler_ring_allreduce() {
  const Topology ring("ring", 2, {{0, 1}, {1, 0}});
  return schedule(2, {ring},
                  {Step{0, {transfer(0, 1, 1'000'000), transfer(1, 0, 1'000'000)}},
                   Step{0, {transfer(0, 1, 1'000'000), transfer(1, 0, 1'000'000)}}});
}

struct StragglerGraph {
  FabricSpec fabric = testing_support::fabric(4);
  std::vector<TaskNode> nodes;
  Schedule ring = straggler_ring_allreduce();

  GraphResult run(GraphTiming timing = GraphTiming::packet) {
    const TaskGraph graph = TaskGraph::build(nodes, fabric.gpus);
    std::vector<GraphNodeWork> work;
    for (const TaskNode& n : graph.nodes()) {
      GraphNodeWork w;
      w.fabric = fabric;
      w.fabric.gpus = 2;
      if (n.kind == TaskKind::collective) {
        w.schedule = &ring;
        for (int g : n.gpus) w.gpus.push_back(static_cast<Node>(g));
        w.predicted = straggler_ps(kStragglerRingPs);  // what the analytical timing charges it
      }
      work.push_back(std::move(w));
    }
    return run_task_graph(fabric, Segmentation(Bytes(0), fabric.packet), graph, std::move(work), nullptr, timing);
  }
};

// Two forward passes (10 us each, GPUs 0 and 1), the AllReduce after both,
// a backward pass on both GPUs after it (4 us). Healthy: 10 + 21 + 4 = 35 us,
// critical path f0 (the first of two equal ends), ar, b. GPU 1 at 1.5x: f1
// takes 15 us, the AllReduce runs 15..36 us, b (on GPUs 0 and 1, so at its
// slowest GPU's pace) 6 us: 42 us, critical path f1, ar, b; the straggler
// slowed 2 nodes by 5 + 2 = 7 us.
TEST(FailureStraggler, SlowsTheComputeOnItsGpuAndMovesTheCriticalPath) {
  StragglerGraph g;
  g.nodes = {compute_node("f0", {0}, straggler_us(10)), compute_node("f1", {1}, straggler_us(10)),
             collective_node("ar", Collective::allreduce, {0, 1}, Bytes(2'000'000), {"f0", "f1"}),
             compute_node("b", {0, 1}, straggler_us(4), {"ar"})};
  const GraphResult healthy = g.run();
  EXPECT_EQ(healthy.iteration, straggler_us(35));
  EXPECT_EQ(healthy.critical_path, (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_TRUE(healthy.failures.empty());

  g.fabric.failures.entries = {straggler(1, 1.5)};
  for (const GraphTiming timing : {GraphTiming::packet, GraphTiming::analytical}) {
    const GraphResult r = g.run(timing);
    EXPECT_EQ(r.nodes[0].end, straggler_us(10));
    EXPECT_EQ(r.nodes[1].start, Time::zero());
    EXPECT_EQ(r.nodes[1].end, straggler_us(15));
    EXPECT_EQ(r.nodes[2].released, straggler_us(15));
    EXPECT_EQ(r.nodes[2].start, straggler_us(15));
    EXPECT_EQ(r.nodes[2].end, straggler_us(36));
    EXPECT_EQ(r.nodes[3].start, straggler_us(36));
    EXPECT_EQ(r.nodes[3].end, straggler_us(42));
    EXPECT_EQ(r.iteration, straggler_us(42));
    EXPECT_EQ(r.critical_path, (std::vector<uint32_t>{1, 2, 3}));
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_EQ(r.failures[0].entry, 0u);
    EXPECT_EQ(r.failures[0].kind, FailureKind::straggler);
    EXPECT_EQ(r.failures[0].nodes, 2u);
    EXPECT_EQ(r.failures[0].slowed_compute, straggler_us(7));
  }
}

// A node on two stragglers takes the larger slowdown, charged to its entry;
// a delay (host-side work) is never slowed; a straggler whose GPU computes
// nothing is reported with zeros. GPU 0 at 2x, GPU 1 at 3x, GPU 3 at 4x
// (no compute there): c on {0, 1} takes 3 us, d (a delay on GPU 0) 1 us,
// e on {0} 2 us after c: 5 us.
TEST(FailureStraggler, ANodeTakesItsSlowestGpusPace) {
  StragglerGraph g;
  g.fabric.failures.entries = {straggler(0, 2), straggler(1, 3), straggler(3, 4)};
  g.nodes = {compute_node("c", {0, 1}, straggler_us(1)), delay_node("d", {0}, straggler_us(1)),
             compute_node("e", {0}, straggler_us(1), {"c"})};
  const GraphResult r = g.run();
  EXPECT_EQ(r.nodes[0].end, straggler_us(3));
  EXPECT_EQ(r.nodes[1].end, straggler_us(1));
  EXPECT_EQ(r.nodes[2].start, straggler_us(3));
  EXPECT_EQ(r.nodes[2].end, straggler_us(5));
  ASSERT_EQ(r.failures.size(), 3u);
  EXPECT_EQ(r.failures[0].nodes, 1u);  // e
  EXPECT_EQ(r.failures[0].slowed_compute, straggler_us(1));
  EXPECT_EQ(r.failures[1].nodes, 1u);  // c
  EXPECT_EQ(r.failures[1].slowed_compute, straggler_us(2));
  EXPECT_EQ(r.failures[2].entry, 2u);
  EXPECT_EQ(r.failures[2].nodes, 0u);
  EXPECT_EQ(r.failures[2].slowed_compute, Time::zero());
}

// The rounding: the exact product of the duration and the slowdown's double,
// to the nearest picosecond, ties away from zero. 1.5 and 1.25 are exact
// doubles (7.5 -> 8, 4.5 -> 5, 2.5 -> 3); 1.3 is 1.3000000000000000444...
// (1000 ps -> 1300); 1.15 is 1.149999999999999911... so 10 ps gives
// 11.4999... -> 11, not the decimal tie 11.5 -> 12.
TEST(FailureStraggler, RoundsToTheNearestPicosecondTiesAwayFromZero) {
  EXPECT_EQ(ComputeSlowdown::scaled(straggler_ps(5), 1.5), straggler_ps(8));
  EXPECT_EQ(ComputeSlowdown::scaled(straggler_ps(3), 1.5), straggler_ps(5));
  EXPECT_EQ(ComputeSlowdown::scaled(straggler_ps(2), 1.25), straggler_ps(3));
  EXPECT_EQ(ComputeSlowdown::scaled(straggler_ps(1000), 1.3), straggler_ps(1300));
  EXPECT_EQ(ComputeSlowdown::scaled(straggler_ps(10), 1.15), straggler_ps(11));
  EXPECT_EQ(ComputeSlowdown::scaled(straggler_ps(7), 1.0), straggler_ps(7));
  EXPECT_EQ(ComputeSlowdown::scaled(Time::zero(), 1e6), Time::zero());
  EXPECT_EQ(ComputeSlowdown::scaled(straggler_ps(4'611'686'018'427'387'903), 2.0),
            straggler_ps(9'223'372'036'854'775'806));
  EXPECT_EQ(ComputeSlowdown::scaled(Time::max(), 2.0), std::nullopt);
  EXPECT_EQ(ComputeSlowdown::scaled(straggler_ps(9'223'372'036'854'775'000), 1.5), std::nullopt);
}

// A compute node whose slowed duration passes the time range names the node.
TEST(FailureStraggler, ASlowdownPastTheTimeRangeNamesTheNode) {
  StragglerGraph g;
  g.fabric.failures.entries = {straggler(2, 1e6)};
  g.nodes = {compute_node("long", {2}, Time::ms(20'000'000))};
  try {
    g.run();
    FAIL() << "no error";
  } catch (const GraphNodeError& e) {
    EXPECT_EQ(e.node(), "long");
    EXPECT_NE(std::string(e.what()).find("straggler's slowdown"), std::string::npos) << e.what();
  }
}

// A slow reconfiguration names a step of one schedule; a task graph's steps
// are its nodes': refused, naming the entry.
TEST(FailureStraggler, ASlowReconfigurationInATaskGraphIsRefused) {
  StragglerGraph g;
  Failure slow;
  slow.kind = FailureKind::reconfiguration;
  slow.step = 1;
  slow.extra_delay = straggler_us(1);
  g.fabric.failures.entries = {straggler(0, 2), slow};
  g.nodes = {compute_node("c", {0}, straggler_us(1))};
  try {
    g.run();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("fabric.failures[1] (reconfiguration, step 1): ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace photonsim
