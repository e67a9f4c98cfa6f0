// The egress port's choice, hand-computed: what leaves first when packets
// meet at one port in the same picosecond, and the fifo order.
// Every case uses 8 Gbps (1 byte = 1 ns) so the timelines read in bytes.
#include <gtest/gtest.h>

#include <numeric>

#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

FabricSpec one_byte_per_ns(int gpus, int ports, Time latency) {
  FabricSpec f = fabric(gpus, ports);
  f.bandwidth = Bandwidth::bits_per_second(8'000'000'000);
  f.latency = latency;
  return f;
}

Topology circuits(int gpus, std::vector<Edge> edges) { return Topology("hand", gpus, std::move(edges)); }

// Relabels every node of a schedule by `label`: the engine's choices must not
// depend on GPU numbering.
Schedule relabelled(const Schedule& s, const std::vector<Node>& label) {
  ScheduleParts parts = s.parts();
  for (Topology& t : parts.topologies) {
    std::vector<Edge> edges;
    for (const Edge& e : t.edges()) edges.push_back({label[e.first], label[e.second]});
    t = Topology(t.name(), t.gpus(), edges);
  }
  for (Step& step : parts.steps) {
    for (Transfer& tr : step.transfers) {
      tr.src = label[tr.src];
      tr.dst = label[tr.dst];
      for (Node& v : tr.path) v = label[v];
    }
  }
  return Schedule(std::move(parts));
}

std::vector<Node> reversed_labels(int gpus) {
  std::vector<Node> label(static_cast<size_t>(gpus));
  for (int v = 0; v < gpus; ++v) label[static_cast<size_t>(v)] = static_cast<Node>(gpus - 1 - v);
  return label;
}

// Packet A (flow 0's chunk 1, 9 B) and packet B (flow 2's chunk 0, 5 B) both
// land at node 2 at 30 ns, for circuit 2->3, idle since 21 ns. L = 1 ns.
//   flow 0: 0->2->3, 19 B in chunks of 10: chunk 0 on 0->2 [0,10], 2->3
//           [11,21]; chunk 1 waits for flow 1 on 0->2 and goes [20,29],
//           landing at 30 (decided at 20).
//   flow 1: 0->2, 10 B: 0->2 [10,20] (chunk 0 before flow 0's chunk 1).
//   flow 2: 1->4->5->7->8->2->3->6, 5 B: one hop per 6 ns, 8->2 [24,29],
//           landing at 30 (decided at 24, after A).
// Smallest chunk first: B on 2->3 [30,35], 3->6 [36,41], delivered at 42;
// A on 2->3 [35,44], delivered at 45. The step ends at 45 ns. Sending A first
// (the order in which the two landings were decided) would end at 51 ns.
Schedule same_time_arrivals_at_an_idle_port() {
  const Topology t = circuits(9, {{0, 2}, {1, 4}, {4, 5}, {5, 7}, {7, 8}, {8, 2}, {2, 3}, {3, 6}});
  return schedule(
      9, {t},
      {Step{0,
            {transfer(0, 3, 19, {0, 2, 3}), transfer(0, 2, 10, {0, 2}), transfer(1, 6, 5, {1, 4, 5, 7, 8, 2, 3, 6})}}});
}

TEST(EgressOrder, SameTimeArrivalsAtAnIdlePortLeaveSmallestChunkFirst) {
  const RunResult r =
      replay(one_byte_per_ns(9, 2, Time::ns(1)), workload(Bytes(19), Bytes(10)), same_time_arrivals_at_an_idle_port());
  EXPECT_EQ(r.completion, Time::ns(45));
}

TEST(EgressOrder, SameTimeArrivalsDoNotDependOnGpuNumbering) {
  const Schedule s = same_time_arrivals_at_an_idle_port();
  const RunResult r =
      replay(one_byte_per_ns(9, 2, Time::ns(1)), workload(Bytes(19), Bytes(10)), relabelled(s, reversed_labels(9)));
  EXPECT_EQ(r.completion, Time::ns(45));
}

// Two forwarded packets of chunk 0 land at node 2 in the same picosecond for
// the idle circuit 2->3, L = 0:
//   flow 0: 0->1->2->3, 4 B: 0->1 [0,4], 1->2 [4,8], lands at 8 with 1 hop left;
//   flow 1: 5->6->2->3->4, 4 B: 5->6 [0,4], 6->2 [4,8], lands at 8 with 2 left.
// Longer remaining route first: flow 1 on 2->3 [8,12], 3->4 [12,16]; flow 0
// on 2->3 [12,16]. The step ends at 16 ns (flow 0 first: 20 ns).
Schedule equal_chunks_with_different_remaining_routes() {
  const Topology t = circuits(7, {{0, 1}, {1, 2}, {5, 6}, {6, 2}, {2, 3}, {3, 4}});
  return schedule(7, {t}, {Step{0, {transfer(0, 3, 4, {0, 1, 2, 3}), transfer(5, 4, 4, {5, 6, 2, 3, 4})}}});
}

TEST(EgressOrder, EqualChunksAtTheSameTimeGoByTheLongerRemainingRoute) {
  const Schedule s = equal_chunks_with_different_remaining_routes();
  const FabricSpec f = one_byte_per_ns(7, 2, Time::zero());
  EXPECT_EQ(replay(f, workload(Bytes(4)), s).completion, Time::ns(16));
  EXPECT_EQ(replay(f, workload(Bytes(4)), relabelled(s, reversed_labels(7))).completion, Time::ns(16));
}

// Equal chunk, time and remaining route: the smaller flow index (the
// transfer's place in the step) goes first. L = 0, both land at node 2 at
// 12 ns with 2 hops left:
//   flow 0: 0->1->7->2->3->4, 4 B: [0,4], [4,8], [8,12];
//   flow 1: 5->6->2->3->8, 6 B: [0,6], [6,12].
// Flow 0 first: 2->3 [12,16], 3->4 [16,20]; flow 1 2->3 [16,22], 3->8 [22,28]:
// the step ends at 28 ns (flow 1 first: 26 ns).
TEST(EgressOrder, FullTiesGoToTheSmallerFlowIndex) {
  const Topology t = circuits(9, {{0, 1}, {1, 7}, {7, 2}, {5, 6}, {6, 2}, {2, 3}, {3, 4}, {3, 8}});
  const Schedule s =
      schedule(9, {t}, {Step{0, {transfer(0, 4, 4, {0, 1, 7, 2, 3, 4}), transfer(5, 8, 6, {5, 6, 2, 3, 8})}}});
  const FabricSpec f = one_byte_per_ns(9, 2, Time::zero());
  EXPECT_EQ(replay(f, workload(Bytes(6)), s).completion, Time::ns(28));
  EXPECT_EQ(replay(f, workload(Bytes(6)), relabelled(s, reversed_labels(9))).completion, Time::ns(28));
}

}  // namespace
}  // namespace photonsim
