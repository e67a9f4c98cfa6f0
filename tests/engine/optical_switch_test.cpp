// The fabric's control plane: reconfiguration models by name, and the
// switch's commands on a Network (dark at once, lit the model's delay later).
#include "sim/engine/switch/optical_switch.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/event_list.h"
#include "sim/engine/network/network.h"
#include "sim/engine/switch/reconfiguration_models.h"
#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

TEST(ReconfigurationModels, ConstantIsTheDefaultAndTheOnlyDelayIsAlphaR) {
  ASSERT_FALSE(reconfiguration_models().empty());
  EXPECT_EQ(reconfiguration_models().front().name, "constant");
  const auto model = make_reconfiguration_model("constant");
  for (size_t ports : {0u, 1u, 7u, 4096u}) {
    std::vector<PortCommand> changed(ports);
    for (size_t i = 0; i < ports; ++i) changed[i] = {static_cast<uint32_t>(i), static_cast<Node>(i), 0, std::nullopt};
    EXPECT_EQ(model->dark_time(SwitchCommand{Time::us(5), changed, 1, 4096}), Time::us(5)) << ports;
  }
  EXPECT_EQ(FabricSpec{}.reconfig_model, "constant");
}

TEST(ReconfigurationModels, AnUnknownNameListsTheValidOnes) {
  try {
    make_reconfiguration_model("teleport");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "fabric.reconfig_model: unknown model 'teleport' (valid: constant)");
  }
  FabricSpec f = fabric(4);
  f.reconfig_model = "teleport";
  EventList events;
  Network network(f, Segmentation(Bytes(0), Bytes(0)), events);
  EXPECT_THROW(OpticalSwitch(f, network, 4), Error);
}

// Two ports of a 4-GPU ring commanded at 2 us with alpha_r = 3 us: dark at
// once, lit at 5 us; commanded again at 4 us (still dark), lit at 7 us. The
// switch says where each port leads (lit or commanded); the Network carries
// packets only over what the switch has lit.
TEST(OpticalSwitch, CommandsLightTheModelsDelayAfterTheLatestCommand) {
  FabricSpec f = fabric(4);
  f.reconfig_delay = Time::us(3);
  EventList events;
  Network network(f, Segmentation(Bytes(0), Bytes(0)), events);
  OpticalSwitch fabric_switch(f, network, 4);
  EXPECT_EQ(fabric_switch.leads_to(0), -1);
  EXPECT_FALSE(network.lit(0));
  for (uint32_t u = 0; u < 4; ++u) {
    fabric_switch.connect({u, u, static_cast<int>((u + 1) % 4), std::nullopt}, Time::zero());
  }
  EXPECT_TRUE(network.lit(0));
  const std::vector<OpticalSwitch::PortCommand> two{{0, 0, 2, std::nullopt}, {2, 2, 0, std::nullopt}};
  EXPECT_EQ(fabric_switch.command(two, 1, Time::us(2)), Time::us(5));
  EXPECT_FALSE(network.lit(0));
  EXPECT_FALSE(network.lit(2));
  EXPECT_TRUE(network.lit(1));
  EXPECT_EQ(fabric_switch.leads_to(0), 2);  // commanded there
  EXPECT_TRUE(fabric_switch.commanded(0));
  EXPECT_EQ(fabric_switch.command(std::span(two).first(1), 2, Time::us(4)), Time::us(7));
  fabric_switch.settle(2, Time::us(5));
  EXPECT_TRUE(network.lit(2));
  EXPECT_FALSE(fabric_switch.commanded(2));
  fabric_switch.settle(0, Time::us(5));
  EXPECT_FALSE(network.lit(0));  // its newer command lights it at 7 us
  EXPECT_EQ(fabric_switch.lights_at(0), Time::us(7));
  fabric_switch.settle(0, Time::us(7));
  EXPECT_TRUE(network.lit(0));
  EXPECT_EQ(fabric_switch.leads_to(0), 2);
  fabric_switch.disconnect(1, Time::us(8));
  EXPECT_FALSE(network.lit(1));
  EXPECT_EQ(fabric_switch.leads_to(1), -1);
  // A command of no ports (from no circuits to none) takes its time too.
  EXPECT_EQ(fabric_switch.command({}, 3, Time::us(8)), Time::us(11));
}

}  // namespace
}  // namespace photonsim
