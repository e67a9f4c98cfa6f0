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
    EXPECT_EQ(std::string(e.what()), "fabric.reconfig_model: unknown model 'teleport' (valid: constant, sequential)");
  }
  FabricSpec f = fabric(4);
  f.reconfig_model = "teleport";
  EventList events;
  Network network(f, Segmentation(Bytes(0), Bytes(0)), events);
  EXPECT_THROW(OpticalSwitch(f, network, 4), Error);
}

// sequential: reconfig_delay per optical switch the command touches (port p
// of every GPU is on switch p; at least one), plus per_port per port changed.
TEST(ReconfigurationModels, SequentialChargesEachSwitchTouchedAndEachPortChanged) {
  const auto model = make_reconfiguration_model("sequential", {{"per_port", "250ps"}});
  const auto dark = [&](std::vector<uint32_t> slots, size_t ports_per_gpu) {
    std::vector<PortCommand> changed;
    for (uint32_t slot : slots) changed.push_back({slot, static_cast<Node>(slot / ports_per_gpu), 0, std::nullopt});
    return model->dark_time(SwitchCommand{Time::us(2), changed, ports_per_gpu, 4 * ports_per_gpu});
  };
  EXPECT_EQ(dark({}, 2), Time::us(2));                                // nothing changes: one pass
  EXPECT_EQ(dark({0, 2}, 2), Time::ps(2000000 + 2 * 250));            // port 0 of GPUs 0 and 1: switch 0
  EXPECT_EQ(dark({0, 1, 3}, 2), Time::ps(2 * 2000000 + 3 * 250));     // switches 0 and 1
  EXPECT_EQ(dark({1, 4, 6, 7}, 4), Time::ps(4 * 2000000 + 4 * 250));  // switches 1, 0, 2 and 3
  // Without per_port, on one port per GPU, it is the constant model.
  const auto plain = make_reconfiguration_model("sequential");
  const std::vector<PortCommand> three{{0, 0, 1, std::nullopt}, {1, 1, 2, std::nullopt}, {2, 2, 0, std::nullopt}};
  EXPECT_EQ(plain->dark_time(SwitchCommand{Time::us(2), three, 1, 3}), Time::us(2));
}

TEST(ReconfigurationModels, AModelDeclaresItsParametersAndRefusesOthers) {
  const std::vector<ReconfigurationModelInfo> models = reconfiguration_models();
  ASSERT_EQ(models.size(), 2u);
  EXPECT_TRUE(models[0].parameters.empty());
  ASSERT_EQ(models[1].parameters.size(), 1u);
  EXPECT_EQ(models[1].parameters[0].name, "per_port");
  EXPECT_EQ(models[1].parameters[0].kind, "time");
  EXPECT_EQ(models[1].parameters[0].default_value, "0ps");
  try {
    make_reconfiguration_model("sequential", {{"per_prot", "1ns"}});
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "fabric.reconfig_model: model 'sequential' has no parameter 'per_prot' (valid: per_port)");
  }
  try {
    make_reconfiguration_model("constant", {{"per_port", "1ns"}});
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "fabric.reconfig_model: model 'constant' has no parameter 'per_port' (valid: none)");
  }
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
