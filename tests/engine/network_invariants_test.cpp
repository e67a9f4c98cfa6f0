// The invariants the engine checks on every run, driven on the Network itself.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/engine/network/network.h"
#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using namespace testing_support;

struct Bench {
  FabricSpec f = fabric(4);
  EventList events;
  Network network{f, Segmentation(Bytes(0), Bytes(1000)), events};
  // Circuits 0: 0->1, 1: 1->2, 2: 2->3, each on its GPU's port 0, lit as the
  // switch lights them. Throws std::logic_error while packets are in flight.
  void light_line() {
    network.reset_circuits(3);
    for (uint32_t i = 0; i < 3; ++i) network.light(i, i, i + 1, 0, f.bandwidth, events.now());
  }
};

TEST(NetworkInvariants, ARouteMustChainFromCircuitToCircuit) {
  Bench b;
  b.light_line();
  EXPECT_THROW(b.network.add_flows({FlowSpec{Bytes(10), {0, 2}}}, Time::zero()), std::logic_error);
  b.network.add_flows({FlowSpec{Bytes(10), {0, 1, 2}}}, Time::zero());
  b.events.run();
  EXPECT_TRUE(b.network.all_delivered());
  EXPECT_NO_THROW(b.network.check_conservation());
}

TEST(NetworkInvariants, ARouteMayOnlyUseInstalledCircuits) {
  Bench b;
  b.light_line();
  try {
    b.network.add_flows({FlowSpec{Bytes(10), {0, 1, 3}}}, Time::zero());
    FAIL() << "a circuit that is not lit was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("not installed"), std::string::npos) << e.what();
  }
}

TEST(NetworkInvariants, NoReconfigurationWhilePacketsAreOnTheCircuits) {
  Bench b;
  b.light_line();
  b.network.add_flows({FlowSpec{Bytes(5000), {0, 1}}}, Time::zero());
  b.events.run(Time::ns(100));  // the first packets are on their way
  EXPECT_FALSE(b.network.all_delivered());
  EXPECT_THROW(b.light_line(), std::logic_error);
  b.events.run();
  EXPECT_TRUE(b.network.all_delivered());
  EXPECT_NO_THROW(b.light_line());
}

TEST(NetworkInvariants, ConservationFailsWhilePacketsAreLeft) {
  Bench b;
  b.light_line();
  b.network.add_flows({FlowSpec{Bytes(3000), {1, 2}}, FlowSpec{Bytes(5000), {0, 1, 2}}}, Time::zero());
  b.events.run(Time::ns(50));  // part way: packets are still in flight
  try {
    b.network.check_conservation();
    FAIL() << "a step with packets in flight passed the conservation check";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("packets left"), std::string::npos) << e.what();
  }
  b.events.run();
  EXPECT_NO_THROW(b.network.check_conservation());
  EXPECT_EQ(b.network.stats().bytes_delivered, 8000);
}

TEST(NetworkInvariants, ConservationNamesAFlowNotDelivered) {
  Bench b;
  b.light_line();
  b.network.add_flows({FlowSpec{Bytes(3000), {1, 2}}}, Time::us(1));
  try {
    b.network.check_conservation();  // before the flows start: nothing was sent
    FAIL() << "an undelivered flow passed the conservation check";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()), "flow 0 of 3000 bytes: 0 injected, 0 delivered");
  }
}

// A task graph's nodes come and go: delivered flows may be let go (only
// once nothing is under way), and the next flows keep counting their ids.
TEST(NetworkInvariants, DeliveredFlowsMayBeForgottenOnceNothingIsUnderWay) {
  Bench b;
  b.light_line();
  EXPECT_EQ(b.network.add_flows({FlowSpec{Bytes(3000), {0, 1}}, FlowSpec{Bytes(10), {2}}}, Time::zero()), 0u);
  EXPECT_FALSE(b.network.forget_delivered_flows());  // their start is still to come
  b.events.run(Time::ns(50));
  EXPECT_FALSE(b.network.forget_delivered_flows());  // packets in flight
  b.events.run();
  const Time first_done = b.network.flow_delivered_at(0);
  EXPECT_GT(first_done, Time::zero());
  EXPECT_TRUE(b.network.forget_delivered_flows());
  EXPECT_EQ(b.network.add_flows({FlowSpec{Bytes(10), {1, 2}}}, first_done), 2u);
  b.events.run();
  EXPECT_TRUE(b.network.all_delivered());
  EXPECT_GT(b.network.flow_delivered_at(2), first_done);
  EXPECT_EQ(b.network.flow_route(2), (std::vector<uint32_t>{1, 2}));
  EXPECT_NO_THROW(b.network.check_conservation());
}

}  // namespace
}  // namespace photonsim
