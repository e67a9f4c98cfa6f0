// TaskGraphExecution: training-iteration graphs on the packet engine, on small
// hand-computed cases (800 Gbps = 100 B/ns, 500 ns per hop, one port).
#include "sim/engine/task_graph_execution.h"

#include <gtest/gtest.h>

#include <iostream>

#include <algorithm>

#include "core/error.h"
#include "core/rng.h"
#include "tests/engine/replay_fixture.h"
#include "tests/support/task_nodes.h"

namespace photonsim {
namespace {

using namespace testing_support;

Time us(int64_t v) { return Time::us(v); }
Time task_graph_execution_ns(int64_t v) { return Time::ns(v); }

TaskNode compute(std::string name, std::vector<int> gpus, Time duration, std::vector<std::string> after = {}) {
  return compute_node(std::move(name), std::move(gpus), duration, std::move(after));
}

TaskNode allreduce(std::string name, std::vector<int> gpus, std::vector<std::string> after = {}) {
  return collective_node(std::move(name), Collective::allreduce, std::move(gpus), Bytes(2'000'000), std::move(after));
}

TaskNode send(std::string name, int src, int dst, std::vector<std::string> after = {}) {
  return send_node(std::move(name), src, dst, Bytes(1'000'000), std::move(after));
}

// Ring AllReduce of 2 MB on two GPUs: reduce-scatter then all-gather, 1 MB
// each way per step on the circuits 0 -> 1 and 1 -> 0: 10 us + 500 ns a step.
Schedule ring_allreduce_2() {
  const Topology ring("ring", 2, {{0, 1}, {1, 0}});
  return schedule(2, {ring},
                  {Step{0, {transfer(0, 1, 1'000'000), transfer(1, 0, 1'000'000)}},
                   Step{0, {transfer(0, 1, 1'000'000), transfer(1, 0, 1'000'000)}}});
}

Schedule one_send() { return schedule(2, {Topology("p2p", 2, {{0, 1}})}, {Step{0, {transfer(0, 1, 1'000'000)}}}); }

struct Graph {
  FabricSpec fabric = testing_support::fabric(4);
  std::vector<TaskNode> nodes;
  Schedule ring = ring_allreduce_2();
  Schedule p2p = one_send();
  Bytes chunk;  // workload.chunk (fabric.packet cuts the chunks)

  GraphResult run() {
    const TaskGraph graph = TaskGraph::build(nodes, fabric.gpus);
    std::vector<GraphNodeWork> work;
    for (const TaskNode& n : graph.nodes()) {
      GraphNodeWork w;
      w.fabric = fabric;
      w.fabric.gpus = 2;
      if (n.kind == TaskKind::collective) {
        w.schedule = &ring;
        for (int g : n.gpus) w.gpus.push_back(static_cast<Node>(g));
      } else if (n.kind == TaskKind::p2p) {
        w.schedule = &p2p;
        w.gpus = {static_cast<Node>(n.src), static_cast<Node>(n.dst)};
      }
      work.push_back(std::move(w));
    }
    return run_task_graph(fabric, Segmentation(chunk, fabric.packet), graph, std::move(work));
  }
};

constexpr int64_t kStepNs = 10'000 + 500;

// A delay (host-side work) holds no GPU: compute on its GPU runs beside it,
// and what waits for it starts when it ends.
TEST(TaskGraphExecution, ADelayHoldsNoGpu) {
  Graph g;
  g.nodes = {delay_node("host", {0}, us(30)), compute("kernel", {0}, us(20)),
             compute("after", {0}, us(5), {"host", "kernel"})};
  const GraphResult r = g.run();
  EXPECT_EQ(r.nodes[1].start, Time::zero());
  EXPECT_EQ(r.nodes[2].start, us(30));
  EXPECT_EQ(r.iteration, us(35));
}

TEST(TaskGraphExecution, ADelayNeedsAPositiveDuration) {
  Graph g;
  g.nodes = {delay_node("host", {}, Time::zero())};
  EXPECT_THROW(g.run(), Error);
}

// The case: 100 us of compute before an AllReduce whose first
// circuits take 50 us to set up. Preconfigured, the setup is hidden.
TEST(TaskGraphExecution, ComputeHidesThePreconfiguredSetup) {
  Graph g;
  g.fabric.reconfig_delay = us(50);
  g.nodes = {compute("c", {0, 1}, us(100)), allreduce("ar", {0, 1}, {"c"})};

  g.fabric.preconfigure = false;
  GraphResult plain = g.run();
  EXPECT_EQ(plain.nodes[1].released, us(100));
  EXPECT_EQ(plain.nodes[1].lit, us(150));
  EXPECT_EQ(plain.nodes[1].start, us(150));
  EXPECT_EQ(plain.nodes[1].exposed_reconfiguration, us(50));
  EXPECT_EQ(plain.iteration, us(150) + task_graph_execution_ns(2 * kStepNs));

  g.fabric.preconfigure = true;
  GraphResult hidden = g.run();
  EXPECT_EQ(hidden.nodes[1].acquired, Time::zero());
  EXPECT_EQ(hidden.nodes[1].lit, us(50));
  EXPECT_EQ(hidden.nodes[1].start, us(100));
  EXPECT_EQ(hidden.nodes[1].exposed_reconfiguration, Time::zero());
  EXPECT_EQ(hidden.nodes[1].hidden_reconfiguration, us(50));
  EXPECT_EQ(hidden.iteration, us(100) + task_graph_execution_ns(2 * kStepNs));
  EXPECT_EQ(hidden.critical_path, (std::vector<uint32_t>{0, 1}));
}

// Only 30 us of compute: 20 us of the 50 us setup stays exposed.
TEST(TaskGraphExecution, ExposesTheSetupComputeCannotHide) {
  Graph g;
  g.fabric.reconfig_delay = us(50);
  g.fabric.preconfigure = true;
  g.nodes = {compute("c", {0, 1}, us(30)), allreduce("ar", {0, 1}, {"c"})};
  GraphResult r = g.run();
  EXPECT_EQ(r.nodes[1].exposed_reconfiguration, us(20));
  EXPECT_EQ(r.nodes[1].hidden_reconfiguration, us(30));
  EXPECT_EQ(r.iteration, us(50) + task_graph_execution_ns(2 * kStepNs));
}

// The second AllReduce on the same GPUs finds its circuits in place: no setup.
TEST(TaskGraphExecution, CircuitsInPlaceAreNotSetUpAgain) {
  Graph g;
  g.fabric.reconfig_delay = us(50);
  g.nodes = {allreduce("a", {0, 1}), compute("c", {0, 1}, us(5), {"a"}), allreduce("b", {0, 1}, {"c"})};
  GraphResult r = g.run();
  EXPECT_EQ(r.nodes[0].reconfigurations, 1);
  EXPECT_EQ(r.nodes[2].reconfigurations, 0);
  EXPECT_EQ(r.nodes[2].start, r.nodes[2].released);
  EXPECT_EQ(r.iteration, us(50) + task_graph_execution_ns(2 * kStepNs) + us(5) + task_graph_execution_ns(2 * kStepNs));
}

// Disjoint groups run at once, each on its own ports.
TEST(TaskGraphExecution, DisjointGroupsShareTheFabric) {
  Graph g;
  g.fabric.reconfig_delay = us(1);
  g.nodes = {allreduce("tp0", {0, 1}), allreduce("tp1", {2, 3})};
  GraphResult r = g.run();
  EXPECT_EQ(r.nodes[0].end, us(1) + task_graph_execution_ns(2 * kStepNs));
  EXPECT_EQ(r.nodes[1].end, us(1) + task_graph_execution_ns(2 * kStepNs));
}

// A send and an AllReduce want GPU 1 at once: PCCL's rule sends first.
TEST(TaskGraphExecution, PeerToPeerGoesFirstUnlessFifo) {
  Graph g;
  g.fabric.reconfig_delay = us(1);
  g.nodes = {allreduce("ar", {0, 1}), send("s", 1, 2)};
  const Time send_time = us(1) + task_graph_execution_ns(kStepNs);  // setup, then 1 MB over one hop
  GraphResult first = g.run();
  EXPECT_EQ(first.nodes[1].start, us(1));
  EXPECT_EQ(first.nodes[1].end, send_time);
  EXPECT_EQ(first.nodes[0].port_wait, send_time);
  EXPECT_EQ(first.iteration, send_time + us(1) + task_graph_execution_ns(2 * kStepNs));
  EXPECT_EQ(first.nodes[0].held_up_by, 1);
  EXPECT_EQ(first.critical_path, (std::vector<uint32_t>{1, 0}));  // the send held the AllReduce up

  g.fabric.priority = CommunicationPriority::fifo;  // equal times: the graph's order
  GraphResult fifo = g.run();
  EXPECT_EQ(fifo.nodes[0].start, us(1));
  EXPECT_EQ(fifo.nodes[1].port_wait, us(1) + task_graph_execution_ns(2 * kStepNs));
}

// A send over a circuit the AllReduce left in place needs no setup; under
// `changed` the AllReduce's spare 1 -> 0 stays lit for the send back.
TEST(TaskGraphExecution, SendsReuseCircuitsInPlace) {
  Graph g;
  g.fabric.reconfig_delay = us(1);
  g.fabric.reconfiguration = ReconfigurationScope::changed;
  g.nodes = {allreduce("ar", {0, 1}), send("s", 1, 0, {"ar"}), send("t", 0, 1, {"s"})};
  GraphResult r = g.run();
  EXPECT_EQ(r.nodes[1].reconfigurations, 0);
  EXPECT_EQ(r.nodes[2].reconfigurations, 0);
  EXPECT_EQ(r.iteration, us(1) + task_graph_execution_ns(2 * kStepNs) + task_graph_execution_ns(2 * kStepNs));
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// Two ports: the send 1 -> 2 takes GPU 1's dark port, so under `changed` the
// AllReduce's circuits stay for its second round; under `all` they go dark.
TEST(TaskGraphExecution, ASendOnASparePortLeavesTheGroupsCircuits) {
  Graph g;
  g.fabric = testing_support::fabric(4, 2);
  g.fabric.reconfig_delay = us(1);
  g.nodes = {allreduce("a", {0, 1}), send("s", 1, 2, {"a"}), allreduce("b", {0, 1}, {"s"})};
  g.fabric.reconfiguration = ReconfigurationScope::changed;
  GraphResult kept = g.run();
  EXPECT_EQ(kept.nodes[1].reconfigurations, 1);
  EXPECT_EQ(kept.nodes[2].reconfigurations, 0);
  EXPECT_EQ(kept.iteration, us(2) + task_graph_execution_ns(2 * kStepNs + kStepNs + 2 * kStepNs));
  g.fabric.reconfiguration = ReconfigurationScope::all;
  GraphResult dark = g.run();
  EXPECT_EQ(dark.nodes[2].reconfigurations, 1);
  EXPECT_EQ(dark.iteration, us(3) + task_graph_execution_ns(2 * kStepNs + kStepNs + 2 * kStepNs));
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// "b" waits for "a" only through compute on other GPUs: its ports are free
// from the start, so its setup runs alongside "a" and hides entirely.
TEST(TaskGraphExecution, PreconfigurationWaitsOnlyForCommunicationOnItsGpus) {
  Graph g;
  g.fabric.reconfig_delay = us(50);
  g.fabric.preconfigure = true;
  g.nodes = {allreduce("a", {0, 1}), compute("c", {2, 3}, us(100), {"a"}), allreduce("b", {2, 3}, {"c"})};
  GraphResult r = g.run();
  EXPECT_EQ(r.nodes[0].end, us(50) + task_graph_execution_ns(2 * kStepNs));
  EXPECT_EQ(r.nodes[2].acquired, Time::zero());
  EXPECT_EQ(r.nodes[2].lit, us(50));
  EXPECT_EQ(r.nodes[2].start, us(150) + task_graph_execution_ns(2 * kStepNs));
  EXPECT_EQ(r.nodes[2].exposed_reconfiguration, Time::zero());
  EXPECT_EQ(r.critical_path, (std::vector<uint32_t>{0, 1, 2}));
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// A send holds its sender's transmitters and its receiver's receivers: GPU 1
// sends to 2 while it receives from 0, but two sends out of GPU 0 take turns.
TEST(TaskGraphExecution, ASendHoldsTransmittersAtOneEndAndReceiversAtTheOther) {
  Graph g;
  g.fabric.reconfig_delay = us(1);
  g.nodes = {send("in", 0, 1), send("out", 1, 2), send("again", 0, 3)};
  GraphResult r = g.run();
  const Time one = us(1) + task_graph_execution_ns(kStepNs);
  EXPECT_EQ(r.nodes[0].end, one);
  EXPECT_EQ(r.nodes[1].end, one);
  EXPECT_EQ(r.nodes[2].port_wait, one);  // GPU 0's transmitter was busy
  EXPECT_EQ(r.nodes[2].end, one + one);
  EXPECT_EQ(r.critical_path, (std::vector<uint32_t>{0, 2}));
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// Two ports (switches), reconfiguration: changed, alpha_r = 50 us. The
// AllReduce "a" on {0, 1} sets up 0 -> 1 and 1 -> 0, both on switch 0 (one
// offset class): 50 us + 2 rounds, 71 us. The send 2 -> 0 takes a dark port
// of GPU 2 whose switch has no circuit into 0: port 1 (GPU 0's receiver on
// switch 0 carries 1 -> 0), so nothing else goes dark: 71 + 50 + 10.5 =
// 131.5 us. "b" finds its circuits in place: 131.5 + 21 = 152.5 us.
TEST(TaskGraphExecution, ASendTakesASwitchWhereItsReceiverIsFree) {
  Graph g;
  g.fabric = testing_support::fabric(4, 2);
  g.fabric.reconfig_delay = us(50);
  g.fabric.reconfiguration = ReconfigurationScope::changed;
  g.nodes = {allreduce("a", {0, 1}), send("s", 2, 0, {"a"}), allreduce("b", {0, 1}, {"s"})};
  GraphResult r = g.run();
  EXPECT_EQ(r.nodes[0].end, us(50) + task_graph_execution_ns(2 * kStepNs));
  EXPECT_EQ(r.nodes[1].end, us(100) + task_graph_execution_ns(3 * kStepNs));
  EXPECT_EQ(r.nodes[2].reconfigurations, 0);
  EXPECT_EQ(r.iteration, us(100) + task_graph_execution_ns(5 * kStepNs));
}

// A circuit into a GPU goes dark when a node needs that GPU's receiver on
// the same switch. As above, then a second send 3 -> 0: GPU 0's receivers
// are taken on both switches (1 -> 0 on switch 0, 2 -> 0 on switch 1), so it
// takes GPU 3's first dark port, 0, and 1 -> 0 goes dark: 131.5 + 50 + 10.5
// = 192 us. "b" must set up 1 -> 0 again: 192 + 50 + 21 = 263 us.
TEST(TaskGraphExecution, ACircuitGoesDarkWhenANodeTakesItsReceiver) {
  Graph g;
  g.fabric = testing_support::fabric(4, 2);
  g.fabric.reconfig_delay = us(50);
  g.fabric.reconfiguration = ReconfigurationScope::changed;
  g.nodes = {allreduce("a", {0, 1}), send("s", 2, 0, {"a"}), send("t", 3, 0, {"s"}), allreduce("b", {0, 1}, {"t"})};
  GraphResult r = g.run();
  EXPECT_EQ(r.nodes[2].end, us(150) + task_graph_execution_ns(4 * kStepNs));
  EXPECT_EQ(r.nodes[3].reconfigurations, 1);
  EXPECT_EQ(r.iteration, us(200) + task_graph_execution_ns(6 * kStepNs));
}

// A node that ends while a reconfiguration of its own is still dark leaves
// that port commanded; a node wanting the circuit it will carry waits for it
// to light. "a" (changed, one port): step 0 sends 0 -> 1 on {0->1} (set up:
// 50 us, then 10.5 us); step 1's configuration adds 1 -> 0, commanded at the
// barrier (60.5 us, lit at 110.5), but step 1 sends only 0 -> 1 again: "a"
// ends at 71 us. The send 1 -> 0 finds GPU 1's port leading to 0 once lit:
// it starts at 110.5 us, not 71, and ends at 121 us.
TEST(TaskGraphExecution, ANodeWaitsForACircuitLeftCommandedByTheNodeBefore) {
  Graph g;
  g.fabric.reconfig_delay = us(50);
  g.fabric.reconfiguration = ReconfigurationScope::changed;
  const Topology one("one", 2, {{0, 1}}), both("both", 2, {{0, 1}, {1, 0}});
  g.ring = schedule(2, {one, both}, {Step{0, {transfer(0, 1, 1'000'000)}}, Step{1, {transfer(0, 1, 1'000'000)}}});
  g.nodes = {allreduce("a", {0, 1}), send("s", 1, 0, {"a"})};
  GraphResult r = g.run();
  EXPECT_EQ(r.nodes[0].end, us(50) + task_graph_execution_ns(2 * kStepNs));
  EXPECT_EQ(r.nodes[1].reconfigurations, 0);
  EXPECT_EQ(r.nodes[1].lit, us(100) + task_graph_execution_ns(kStepNs));
  EXPECT_EQ(r.nodes[1].start, us(100) + task_graph_execution_ns(kStepNs));
  EXPECT_EQ(r.iteration, us(100) + task_graph_execution_ns(2 * kStepNs));
}

// Thousands of sends waiting for the same ports take them one after the
// other in the graph's order (each waiting group of nodes that want the same
// ports looked at through its first), and an AllReduce that wants some of
// those ports waits for all of them under priority p2p, takes them first
// under fifo (the graph's order, it being node 0).
TEST(TaskGraphExecution, ManySendsWaitingForTheSamePortsTakeTurnsInOrder) {
  const int n = 2000;
  Graph g;
  g.fabric.reconfig_delay = us(1);
  g.nodes = {allreduce("ar", {1, 2})};
  for (int i = 0; i < n; ++i) g.nodes.push_back(send("s" + std::to_string(i), 0, 1));
  for (int i = 0; i < n; ++i) g.nodes.push_back(send("t" + std::to_string(i), 2, 3));
  const GraphResult first = g.run();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(first.nodes[static_cast<size_t>(1 + i)].end, us(1) + task_graph_execution_ns((i + 1) * kStepNs)) << i;
    ASSERT_EQ(first.nodes[static_cast<size_t>(1 + n + i)].end, us(1) + task_graph_execution_ns((i + 1) * kStepNs)) << i;
  }
  EXPECT_EQ(first.nodes[0].acquired, us(1) + task_graph_execution_ns(n * kStepNs));
  EXPECT_EQ(first.iteration, us(2) + task_graph_execution_ns((n + 2) * kStepNs));

  g.fabric.priority = CommunicationPriority::fifo;
  const GraphResult fifo = g.run();
  EXPECT_EQ(fifo.nodes[0].start, us(1));
  const Time ar_end = us(1) + task_graph_execution_ns(2 * kStepNs);
  EXPECT_EQ(fifo.nodes[0].end, ar_end);
  EXPECT_EQ(fifo.nodes[1].acquired, ar_end);
  for (int i = 1; i < n; ++i) {
    ASSERT_EQ(fifo.nodes[static_cast<size_t>(1 + i)].end, fifo.nodes[1].end + task_graph_execution_ns(i * kStepNs))
        << i;
  }
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// Preconfiguration never deadlocks. Before, a node could take its ports once
// the communication before it on its own ports had ended: here "v303"
// (6 -> 1, after "v267") held GPU 6's transmitter waiting for "v267" (0 -> 4),
// which waited for GPU 0's transmitter, held by "v239" (0 -> 2) waiting for
// the AllReduce "v225" on {5, 6}, which waited for GPU 6's transmitter: no
// node ended (exit 3, "never ended"; 109 of 300 random 200-node graphs).
// Now a node takes its ports once everything it waits for holds its own (or
// is compute): "v303" waits until "v267" has its ports, "v239" until "v225".
TEST(TaskGraphExecution, PreconfigurationCannotDeadlock) {
  Graph g;
  g.fabric = testing_support::fabric(8, 2);
  g.fabric.reconfig_delay = us(5);
  g.fabric.preconfigure = true;
  g.nodes = {allreduce("v225", {5, 6}), send("v229", 4, 5), send("v239", 0, 2, {"v225"}), send("v251", 0, 7),
             send("v267", 0, 4),        send("v276", 3, 4), send("v303", 6, 1, {"v267"})};
  const GraphResult r = g.run();
  for (const GraphNodeResult& n : r.nodes) EXPECT_GT(n.end, Time::zero());
  // "v303" took GPU 6's transmitter only once "v267" held GPU 0's.
  EXPECT_GE(r.nodes[6].acquired, r.nodes[4].acquired);
  EXPECT_GE(r.nodes[2].acquired, r.nodes[0].acquired);
}

// 60 seeded random nodes on 8 GPUs with 2 ports, preconfigured: computes,
// sends and two-GPU AllReduces.
Graph random_graph(uint64_t seed) {
  Rng rng(seed);
  const auto below = [&](int n) { return static_cast<int>(rng.uniform(static_cast<uint64_t>(n))); };
  Graph g;
  g.fabric = testing_support::fabric(8, 2);
  g.fabric.reconfig_delay = us(5);
  g.fabric.preconfigure = true;
  std::vector<std::string> names, last_compute(8);
  std::string last_collective;
  for (int i = 0; i < 60; ++i) {
    const std::string name = "v" + std::to_string(i);
    std::vector<std::string> after;
    if (!names.empty() && below(10) < 6) {
      for (int k = below(3); k > 0; --k)
        after.push_back(names[static_cast<size_t>(below(static_cast<int>(names.size())))]);
    }
    const int a = below(8), b = (a + 1 + below(7)) % 8;
    switch (below(4)) {
      case 0:  // computes on one GPU, and collectives, are ordered (a valid graph)
        if (!last_compute[static_cast<size_t>(a)].empty()) after.push_back(last_compute[static_cast<size_t>(a)]);
        last_compute[static_cast<size_t>(a)] = name;
        std::sort(after.begin(), after.end());
        after.erase(std::unique(after.begin(), after.end()), after.end());
        g.nodes.push_back(compute(name, {a}, us(1 + below(50)), after));
        break;
      case 3:
        if (!last_collective.empty()) after.push_back(last_collective);
        last_collective = name;
        std::sort(after.begin(), after.end());
        after.erase(std::unique(after.begin(), after.end()), after.end());
        g.nodes.push_back(allreduce(name, {std::min(a, b), std::max(a, b)}, after));
        break;
      default:
        std::sort(after.begin(), after.end());
        after.erase(std::unique(after.begin(), after.end()), after.end());
        g.nodes.push_back(send(name, a, b, after));
    }
    names.push_back(name);
  }
  return g;
}

// The same on seeded random graphs of compute, sends and two-GPU
// AllReduces, under both port priorities: every node ends.
TEST(TaskGraphExecution, PreconfiguredRandomGraphsAlwaysFinish) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Graph g = random_graph(seed);
    for (CommunicationPriority priority : {CommunicationPriority::p2p, CommunicationPriority::fifo}) {
      g.fabric.priority = priority;
      const GraphResult r = g.run();
      for (size_t v = 0; v < r.nodes.size(); ++v) ASSERT_GT(r.nodes[v].end, Time::zero()) << "seed " << seed;
    }
  }
}

// Trains (fidelity packet) against packet by packet (packet_reference) on
// random graphs: every node's figures, the critical path and the network's
// counts are the same; packets and chunks that do and do not divide the
// transfers, both routers, both priorities, preconfiguration, both scopes.
TEST(TaskGraphExecution, RandomGraphsGiveTheReferenceResultsWithTrains) {
  uint64_t reused = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    Graph g = random_graph(seed);
    Rng rng(seed ^ 0x7a175);
    const auto pick = [&](std::initializer_list<int64_t> v) { return *(v.begin() + rng.uniform(v.size())); };
    g.fabric.packet = Bytes(pick({0, 1000, 4096, 333'333}));
    g.chunk = Bytes(pick({0, 65'536, 300'000}));
    g.fabric.router = rng.uniform(2) == 0 ? RouterMode::cut_through : RouterMode::store_and_forward;
    g.fabric.header = Bytes(pick({1, 64}));
    g.fabric.preconfigure = rng.uniform(2) == 0;
    g.fabric.priority = rng.uniform(2) == 0 ? CommunicationPriority::p2p : CommunicationPriority::fifo;
    g.fabric.reconfiguration = rng.uniform(2) == 0 ? ReconfigurationScope::all : ReconfigurationScope::changed;
    g.fabric.packet_engine = PacketEngine::reference;
    const GraphResult reference = g.run();
    g.fabric.packet_engine = PacketEngine::trains;
    const GraphResult trains = g.run();
    ASSERT_EQ(trains.iteration, reference.iteration) << "seed " << seed;
    ASSERT_EQ(trains.nodes.size(), reference.nodes.size()) << "seed " << seed;
    for (size_t v = 0; v < trains.nodes.size(); ++v) {
      ASSERT_TRUE(trains.nodes[v] == reference.nodes[v])
          << "seed " << seed << ", node " << v;
    }
    EXPECT_EQ(trains.critical_path, reference.critical_path) << "seed " << seed;
    EXPECT_EQ(trains.network.packets, reference.network.packets) << "seed " << seed;
    EXPECT_EQ(trains.network.packet_hops, reference.network.packet_hops) << "seed " << seed;
    EXPECT_EQ(trains.network.bytes_delivered, reference.network.bytes_delivered) << "seed " << seed;
    EXPECT_EQ(trains.network.peak_packets_in_flight, reference.network.peak_packets_in_flight) << "seed " << seed;
    reused += trains.network.reused;
  }
  EXPECT_GT(reused, 150u);  // repeated sends and AllReduces on the same circuits are replayed
  std::cout << reused << " windows reused\n";
}

}  // namespace
}  // namespace photonsim
