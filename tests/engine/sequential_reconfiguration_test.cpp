// fabric.reconfig_model: {type: sequential, per_port: T} on a whole run: the
// switches a command touches are re-aimed one after another (reconfig_delay
// each) and every port it changes adds per_port. 800 Gbps = 10 ps per byte,
// 500 ns per hop, reconfig_delay 1 us, per_port 1 ns.
#include <gtest/gtest.h>

#include "sim/engine/schedule_execution.h"
#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

FabricSpec sequential(int gpus, int ports) {
  FabricSpec f = fabric(gpus, ports);
  f.reconfig_delay = Time::us(1);
  f.reconfig_model = "sequential";
  f.reconfig_params = {{"per_port", "1ns"}};
  return f;
}

// From no circuits to a ring of 4 on 2 ports per GPU: the ring's 4 circuits
// take port 0 of each GPU, all on switch 0: one switch, 4 ports, dark
// 1 us + 4 ns; then 1000 B over one hop: 10 ns + 500 ns. A second step on
// the ring both ways (8 circuits: both switches, the 4 new ones on switch 1)
// goes dark again for the switches it touches.
TEST(SequentialReconfiguration, ARunIsDarkPerSwitchTouchedPlusPerPortChanged) {
  const Topology ring("ring", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  const Schedule one = schedule(4, {ring}, {Step{0, {transfer(0, 1, 1000)}}}, -1);
  const RunResult r = run_schedule(sequential(4, 2), workload(Bytes(1000)), one);
  EXPECT_EQ(r.completion, Time::ps(1'004'000 + 10'000 + 500'000));
  EXPECT_EQ(r.steps[0].reconfiguration, Time::ps(1'004'000));

  FabricSpec constant = sequential(4, 2);
  constant.reconfig_model = "constant";
  constant.reconfig_params.clear();
  EXPECT_EQ(run_schedule(constant, workload(Bytes(1000)), one).completion, Time::ps(1'000'000 + 10'000 + 500'000));
}

}  // namespace
}  // namespace photonsim
