// What run_schedule records on request: per port busy and dark spans,
// each with its step, and per transfer when it was injected and delivered.
#include <gtest/gtest.h>

#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

Topology shift_ring(int gpus, int shift) {
  std::vector<Edge> edges;
  for (int u = 0; u < gpus; ++u) edges.push_back({static_cast<Node>(u), static_cast<Node>((u + shift) % gpus)});
  return Topology("ring+" + std::to_string(shift), gpus, edges);
}

// Two steps on 4 GPUs, a reconfiguration between them: 1000 bytes take 10 ns
// to send and arrive 500 ns later; the second step waits 10 us dark.
TEST(Timeline, BusySpansCarryTheirStepAndDarkSpansTheReconfiguration) {
  FabricSpec f = fabric(4);
  f.reconfig_delay = Time::us(10);
  Step s0{0, {}}, s1{1, {}};
  for (Node u = 0; u < 4; ++u) {
    s0.transfers.push_back(transfer(u, (u + 1) % 4, 1000));
    s1.transfers.push_back(transfer(u, (u + 2) % 4, 1000));
  }
  const Schedule s = schedule(4, {shift_ring(4, 1), shift_ring(4, 2)}, {s0, s1});
  Timeline timeline;
  const RunResult r = run_schedule(f, workload(Bytes(1000)), s, nullptr, &timeline);
  ASSERT_EQ(r.steps.size(), 2u);
  ASSERT_EQ(timeline.ports.size(), 4u);
  const std::vector<PortSpan>& gpu0 = timeline.ports[0].spans;
  ASSERT_EQ(gpu0.size(), 3u);
  EXPECT_EQ(gpu0[0].activity, PortActivity::busy);
  EXPECT_EQ(gpu0[0].step, 0u);
  EXPECT_EQ(gpu0[0].peer, 1u);
  EXPECT_EQ(gpu0[0].begin, Time::zero());
  EXPECT_EQ(gpu0[0].end, Time::ns(10));
  EXPECT_EQ(gpu0[1].activity, PortActivity::dark);
  EXPECT_EQ(gpu0[1].step, 1u);
  EXPECT_EQ(gpu0[1].peer, 2u);
  EXPECT_EQ(gpu0[1].begin, Time::ns(510));
  EXPECT_EQ(gpu0[1].end, Time::ns(10510));
  EXPECT_EQ(gpu0[2].activity, PortActivity::busy);
  EXPECT_EQ(gpu0[2].step, 1u);
  EXPECT_EQ(gpu0[2].begin, Time::ns(10510));
  ASSERT_EQ(timeline.transfers.size(), 8u);
  EXPECT_EQ(timeline.transfers[4].step, 1u);
  EXPECT_EQ(timeline.transfers[4].injected, Time::ns(10510));
  EXPECT_EQ(timeline.transfers[4].delivered, Time::ns(11020));
  EXPECT_EQ(r.completion, Time::ns(11020));
}

}  // namespace
}  // namespace photonsim
