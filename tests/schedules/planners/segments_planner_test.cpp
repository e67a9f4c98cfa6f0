// ReTri section 3.4: balanced segments and R* against the paper's closed form.
#include "schedules/planners/segments_planner.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "schedules/synthesizer_registry.h"

namespace photonsim {
namespace {

TEST(SegmentsPlanner, SegmentsDifferInLengthByAtMostOne) {
  EXPECT_EQ(SegmentsPlanner::segment_starts(5, 0), (std::vector<size_t>{0}));
  EXPECT_EQ(SegmentsPlanner::segment_starts(5, 1), (std::vector<size_t>{0, 3}));
  EXPECT_EQ(SegmentsPlanner::segment_starts(6, 2), (std::vector<size_t>{0, 2, 4}));
  EXPECT_EQ(SegmentsPlanner::segment_starts(7, 2), (std::vector<size_t>{0, 3, 5}));
  EXPECT_EQ(SegmentsPlanner::segment_starts(4, 3), (std::vector<size_t>{0, 1, 2, 3}));
}

struct SegmentsPlannerCase {
  FabricSpec fabric;
  WorkloadSpec workload;
  SynthesisSpec synthesis;
};

// ReTri's evaluation fabric: 400 Gbps, 1 us per hop, 1.7 us per phase; packet = chunk = transfer.
SegmentsPlannerCase retri_case(int n, Time delta, int64_t message) {
  SegmentsPlannerCase s;
  s.fabric.gpus = n;
  s.fabric.ports = 2;
  s.fabric.circuits = CircuitKind::bidirectional;
  s.fabric.bandwidth = Bandwidth::bits_per_second(400'000'000'000);
  s.fabric.latency = Time::us(1);
  s.fabric.step_overhead = Time::ns(1700);
  s.fabric.reconfig_delay = delta;
  s.workload.collective = Collective::alltoall;
  s.workload.message = Bytes(message);
  s.synthesis.algorithm = "retri";
  s.synthesis.planner = "retri_segments";
  s.synthesis.topology.type = "ring";
  return s;
}

// C(R) of ReTri section 3.4 with balanced segments, m = the per-node buffer (n blocks).
Time closed_form(const SegmentsPlannerCase& s, int phases, int reconfigurations) {
  const int n = s.fabric.gpus;
  const Time y = s.fabric.latency + s.fabric.bandwidth.serialization(s.workload.message * (n / 3));
  Time total = s.fabric.step_overhead * phases + s.fabric.reconfig_delay * reconfigurations;
  const std::vector<size_t> starts =
      SegmentsPlanner::segment_starts(static_cast<size_t>(phases), static_cast<size_t>(reconfigurations));
  for (size_t j = 0; j < starts.size(); ++j) {
    const size_t end = j + 1 < starts.size() ? starts[j + 1] : static_cast<size_t>(phases);
    int64_t power = 1;
    for (size_t t = starts[j]; t < end; ++t) power *= 3;
    total += y * ((power - 1) / 2);
  }
  return total;
}

TEST(SegmentsPlanner, EveryRMatchesReTriClosedForm) {
  for (auto [n, phases] : {std::pair{27, 3}, std::pair{81, 4}}) {
    for (int r = 0; r < phases; ++r) {
      SegmentsPlannerCase s = retri_case(n, Time::us(20), 1'000'000);
      s.synthesis.planner_params["reconfigurations"] = std::to_string(r);
      const Schedule plan = SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis);
      EXPECT_EQ(plan.reconfigurations(), r) << "n=" << n;
      EXPECT_EQ(plan.prediction().total(), closed_form(s, phases, r)) << "n=" << n << " R=" << r;
    }
  }
}

TEST(SegmentsPlanner, ChoosesTheArgminOfTheClosedForm) {
  for (Time delta : {Time::us(1), Time::us(100), Time::ms(1), Time::ms(50), Time::ms(150)}) {
    for (int64_t message : {int64_t{1'000}, int64_t{1'000'000}, int64_t{256'000'000}}) {
      const SegmentsPlannerCase s = retri_case(81, delta, message);
      const Schedule plan = SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis);
      int best_r = 0;
      for (int r = 1; r < 4; ++r) {
        if (closed_form(s, 4, r) < closed_form(s, 4, best_r)) best_r = r;
      }
      EXPECT_EQ(plan.reconfigurations(), best_r) << format_time(delta) << " m=" << message;
      EXPECT_EQ(plan.prediction().total(), closed_form(s, 4, best_r));
    }
  }
}

TEST(SegmentsPlanner, UnconfiguredStartPaysForTheFirstRing) {
  SegmentsPlannerCase s = retri_case(27, Time::us(20), 1'000'000);
  s.synthesis.topology.type = "none";
  s.synthesis.planner_params["reconfigurations"] = "0";
  const Schedule plan = SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis);
  EXPECT_EQ(plan.reconfigurations(), 1);
  EXPECT_EQ(plan.prediction().total(), closed_form(s, 3, 0) + Time::us(20));
}

TEST(SegmentsPlanner, BridgeSegmentsUseStrideTwoSubrings) {
  SegmentsPlannerCase s = retri_case(16, Time::us(5), 1'000'000);
  s.synthesis.algorithm = "bridge";
  s.synthesis.planner = "bridge_segments";
  s.synthesis.planner_params["reconfigurations"] = "3";
  const Schedule plan = SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis);
  ASSERT_EQ(plan.steps().size(), 4u);
  EXPECT_EQ(plan.reconfigurations(), 3);
  EXPECT_EQ(plan.topologies()[static_cast<size_t>(plan.steps()[3].topology)].name(), "subrings(8)");
}

TEST(SegmentsPlanner, RejectsPatternsItCannotSegment) {
  SegmentsPlannerCase s = retri_case(27, Time::us(5), 1000);
  s.synthesis.algorithm = "direct";
  try {
    SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("+-3^k"), std::string::npos) << e.what();
  }
  s.synthesis.algorithm = "retri";
  s.synthesis.planner_params["reconfigurations"] = "3";
  EXPECT_THROW(SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis), Error);
}

}  // namespace
}  // namespace photonsim
