#include "schedules/model/schedule.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "core/error.h"

namespace photonsim {

namespace {

Topology ring4() { return Topology("ring", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}); }
Topology pairs4() { return Topology("pairs", 4, {{0, 2}, {1, 3}, {2, 0}, {3, 1}}); }

Transfer schedule_xfer(Node src, Node dst, int64_t bytes = 100, std::vector<Node> path = {}) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.bytes = Bytes(bytes);
  t.path = std::move(path);
  t.blocks = {src * 4 + dst};
  return t;
}

ScheduleParts base() {
  ScheduleParts p;
  p.collective = Collective::alltoall;
  p.algorithm = "direct";
  p.planner = "static";
  p.gpus = 4;
  p.message = Bytes(100);
  p.topologies = {ring4(), pairs4()};
  p.steps = {Step{0, {schedule_xfer(0, 1), schedule_xfer(1, 2)}}, Step{1, {schedule_xfer(0, 2)}}};
  return p;
}

std::string schedule_error_of(ScheduleParts p) {
  try {
    Schedule s(std::move(p));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Schedule, AccessorsReturnTheParts) {
  ScheduleParts p = base();
  p.initial_topology = 1;
  const Schedule s(p);
  EXPECT_EQ(s.collective(), Collective::alltoall);
  EXPECT_EQ(s.algorithm(), "direct");
  EXPECT_EQ(s.planner(), "static");
  EXPECT_EQ(s.gpus(), 4);
  EXPECT_EQ(s.message(), Bytes(100));
  EXPECT_EQ(s.initial_topology(), 1);
  ASSERT_EQ(s.topologies().size(), size_t{2});
  EXPECT_EQ(s.topologies()[1].name(), "pairs");
  ASSERT_EQ(s.steps().size(), size_t{2});
  EXPECT_EQ(s.steps()[0].transfers.size(), size_t{2});
  EXPECT_EQ(s.steps()[1].transfers[0].blocks, (std::vector<uint32_t>{2}));
  EXPECT_TRUE(s.prediction().steps.empty());
}

TEST(Schedule, BadStepTopologyIndexRejected) {
  ScheduleParts p = base();
  p.steps[1].topology = 2;
  std::string msg = schedule_error_of(p);
  EXPECT_NE(msg.find("step 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("topology index 2"), std::string::npos) << msg;
  p.steps[1].topology = -1;
  EXPECT_NE(schedule_error_of(p).find("topology index -1"), std::string::npos);
}

TEST(Schedule, BadInitialTopologyRejected) {
  ScheduleParts p = base();
  p.initial_topology = 2;
  EXPECT_NE(schedule_error_of(p).find("initial_topology 2"), std::string::npos);
  p.initial_topology = -2;
  EXPECT_NE(schedule_error_of(p).find("initial_topology -2"), std::string::npos);
}

TEST(Schedule, NodeOutOfRangeRejected) {
  ScheduleParts p = base();
  p.steps[0].transfers.push_back(schedule_xfer(3, 4));
  std::string msg = schedule_error_of(p);
  EXPECT_NE(msg.find("step 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("3->4"), std::string::npos) << msg;
  p = base();
  p.steps[1].transfers.push_back(schedule_xfer(9, 0));
  EXPECT_NE(schedule_error_of(p).find("9->0"), std::string::npos);
}

TEST(Schedule, SelfTransferRejected) {
  ScheduleParts p = base();
  p.steps[1].transfers.push_back(schedule_xfer(2, 2));
  const std::string msg = schedule_error_of(p);
  EXPECT_NE(msg.find("step 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("node 2 to itself"), std::string::npos) << msg;
}

TEST(Schedule, NegativeBytesRejected) {
  ScheduleParts p = base();
  p.steps[0].transfers[0].bytes = Bytes(-1);
  EXPECT_NE(schedule_error_of(p).find("negative"), std::string::npos);
}

TEST(Schedule, ExplicitPathMustRunFromSrcToDst) {
  ScheduleParts p = base();
  p.steps[0].transfers.push_back(schedule_xfer(0, 2, 10, {1, 2}));
  EXPECT_NE(schedule_error_of(p).find("does not run from src to dst"), std::string::npos);
  p = base();
  p.steps[0].transfers.push_back(schedule_xfer(0, 2, 10, {0, 1}));
  EXPECT_NE(schedule_error_of(p).find("does not run from src to dst"), std::string::npos);
  p = base();
  p.steps[0].transfers.push_back(schedule_xfer(0, 2, 10, {0, 7, 2}));
  EXPECT_NE(schedule_error_of(p).find("path names node 7"), std::string::npos);
  p = base();
  p.steps[0].transfers.push_back(schedule_xfer(0, 2, 10, {0, 1, 2}));
  EXPECT_EQ(schedule_error_of(p), "");
}

TEST(Schedule, TopologyWithWrongGpuCountRejected) {
  ScheduleParts p = base();
  p.topologies.push_back(Topology("big", 5, {{0, 4}}));
  EXPECT_NE(schedule_error_of(p).find("'big' has 5 GPUs"), std::string::npos);
}

TEST(Schedule, TooFewGpusRejected) {
  ScheduleParts p;
  p.gpus = 1;
  EXPECT_NE(schedule_error_of(p).find("at least 2"), std::string::npos);
}

TEST(Schedule, PredictionMustMatchStepCount) {
  ScheduleParts p = base();
  p.prediction.steps.resize(1);
  EXPECT_NE(schedule_error_of(p).find("prediction has 1 steps"), std::string::npos);
}

TEST(Schedule, ReconfigurationsWithNoInitialTopology) {
  ScheduleParts p = base();
  p.initial_topology = -1;
  p.steps = {Step{0, {schedule_xfer(0, 1)}}, Step{0, {schedule_xfer(1, 2)}}, Step{1, {schedule_xfer(0, 2)}},
             Step{1, {schedule_xfer(1, 3)}}, Step{0, {schedule_xfer(2, 3)}}};
  const Schedule s(p);
  EXPECT_TRUE(s.reconfigures_before(0));
  EXPECT_FALSE(s.reconfigures_before(1));
  EXPECT_TRUE(s.reconfigures_before(2));
  EXPECT_FALSE(s.reconfigures_before(3));
  EXPECT_TRUE(s.reconfigures_before(4));
  EXPECT_EQ(s.reconfigurations(), 3);
}

TEST(Schedule, ReconfigurationsWithGivenInitialTopology) {
  ScheduleParts p = base();
  p.initial_topology = 0;
  p.steps = {Step{0, {schedule_xfer(0, 1)}}, Step{1, {schedule_xfer(0, 2)}}};
  const Schedule s(p);
  EXPECT_FALSE(s.reconfigures_before(0));
  EXPECT_TRUE(s.reconfigures_before(1));
  EXPECT_EQ(s.reconfigurations(), 1);
  p.initial_topology = 1;
  const Schedule t(p);
  EXPECT_TRUE(t.reconfigures_before(0));
  EXPECT_EQ(t.reconfigurations(), 2);
}

TEST(Schedule, ReconfigurationComparesCircuitsNotNames) {
  ScheduleParts p = base();
  // Two entries with identical circuits but different names.
  p.topologies = {ring4(), Topology("same_ring_other_name", 4, {{3, 0}, {2, 3}, {1, 2}, {0, 1}})};
  p.initial_topology = 1;
  p.steps = {Step{0, {schedule_xfer(0, 1)}}, Step{1, {schedule_xfer(1, 2)}}};
  const Schedule s(p);
  EXPECT_FALSE(s.reconfigures_before(0));
  EXPECT_FALSE(s.reconfigures_before(1));
  EXPECT_EQ(s.reconfigurations(), 0);
}

TEST(Schedule, NoStepsMeansNoReconfigurations) {
  ScheduleParts p = base();
  p.steps.clear();
  const Schedule s(p);
  EXPECT_EQ(s.reconfigurations(), 0);
}

TEST(Schedule, WithPredictionKeepsEverythingElse) {
  const Schedule s(base());
  Prediction pred;
  pred.model = "test_model";
  pred.steps = {StepPrediction{Time::ns(1), Time::ns(2), Time::ns(3), Time::ns(4)},
                StepPrediction{Time::zero(), Time::ns(2), Time::ns(5), Time::us(1)}};
  const Schedule t = s.with_prediction(pred);
  EXPECT_EQ(t.prediction().model, "test_model");
  ASSERT_EQ(t.prediction().steps.size(), size_t{2});
  EXPECT_EQ(t.prediction().steps[0].total(), Time::ns(10));
  EXPECT_EQ(t.prediction().total(), Time::ns(10 + 1007));
  EXPECT_EQ(t.steps().size(), s.steps().size());
  EXPECT_EQ(t.topologies(), s.topologies());
  EXPECT_EQ(t.algorithm(), s.algorithm());
  // The original is unchanged (value semantics).
  EXPECT_TRUE(s.prediction().steps.empty());
  // A prediction with the wrong number of steps is rejected.
  pred.steps.pop_back();
  EXPECT_THROW(s.with_prediction(pred), Error);
}

}  // namespace
}  // namespace photonsim
