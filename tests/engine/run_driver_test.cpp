// The RunDriver lets the network's delivered flows go whenever it injects
// into a network with nothing under way (a barrier step after the last one,
// a graph node after a chain's end), with either data plane: memory follows
// the flows under way, not every flow of the run, and ids keep counting.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/segmentation.h"
#include "core/spec/fabric_spec.h"
#include "sim/engine/run_driver.h"
#include "sim/engine/run_policy.h"
#include "tests/support/test_fabric.h"

namespace photonsim {
namespace {

// Injects `steps` rounds of two flows around a 3-GPU ring, each round once
// the last is delivered, from inside the delivery (as a barrier does).
class RoundsPolicy final : public RunPolicy {
 public:
  RoundsPolicy(RunDriver& driver, int steps) : driver_(driver), id_(driver.enlist(*this)), steps_(steps) {}

  void start() { inject(Time::zero()); }
  void on_timer(Time, uint64_t) override {}
  void on_flow_delivered(uint32_t, Time now) override {
    if (--in_flight_ > 0) return;
    ends.push_back(now);
    if (static_cast<int>(firsts.size()) < steps_) inject(now);
  }

  std::vector<uint32_t> firsts;  // the first id of each round
  std::vector<size_t> held;      // the flows the network held after each injection
  std::vector<Time> ends;        // when each round's last flow arrived

 private:
  void inject(Time now) {
    std::vector<FlowSpec> flows{FlowSpec{Bytes(3000), {0, 1}}, FlowSpec{Bytes(2000), {2}}};
    in_flight_ = 2;
    firsts.push_back(driver_.inject(id_, std::move(flows), now));
    held.push_back(driver_.network().flows_held());
  }

  RunDriver& driver_;
  uint32_t id_;
  int steps_;
  int in_flight_ = 0;
};

class RunDriverForgetting : public ::testing::TestWithParam<PacketEngine> {};

TEST_P(RunDriverForgetting, DeliveredFlowsGoBeforeTheNextInjection) {
  FabricSpec fabric = testing_support::test_fabric(3);
  fabric.packet = Bytes(1000);
  fabric.packet_engine = GetParam();
  RunDriver driver(fabric, Segmentation(Bytes(0), fabric.packet));
  for (uint32_t g = 0; g < 3; ++g)
    driver.fabric_switch().connect({g, g, static_cast<int>((g + 1) % 3), {}}, Time::zero());
  RoundsPolicy rounds(driver, 4);
  rounds.start();
  driver.run();
  const NetworkStats stats = driver.finish();
  EXPECT_EQ(rounds.firsts, (std::vector<uint32_t>{0, 2, 4, 6}));
  EXPECT_EQ(rounds.held, (std::vector<size_t>{2, 2, 2, 2}));
  // A round: the 3-packet flow's last packet cut at 20-30 ns, forwarded at
  // 530-540 ns, landed at 1040 ns (10 ps a byte, 500 ns a hop).
  EXPECT_EQ(rounds.ends, (std::vector<Time>{Time::ns(1040), Time::ns(2080), Time::ns(3120), Time::ns(4160)}));
  EXPECT_EQ(stats.bytes_delivered, 4 * 5000);
  EXPECT_EQ(stats.packet_hops, 4u * (3 * 2 + 2));
  EXPECT_EQ(driver.network().flows_held(), 2u);
}

INSTANTIATE_TEST_SUITE_P(BothDataPlanes, RunDriverForgetting,
                         ::testing::Values(PacketEngine::trains, PacketEngine::reference), [](const auto& param_info) {
                           return param_info.param == PacketEngine::trains ? "trains" : "reference";
                         });

}  // namespace
}  // namespace photonsim
