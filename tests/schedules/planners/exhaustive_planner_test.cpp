// The exhaustive oracle against the two extreme planners it must reproduce.
#include "schedules/planners/exhaustive_planner.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

struct ExhaustivePlannerCase {
  FabricSpec fabric;
  WorkloadSpec workload;
  SynthesisSpec synthesis;
};

ExhaustivePlannerCase make_case(Time alpha_r) {
  ExhaustivePlannerCase s;
  s.fabric = testing_support::test_fabric(6, 2);
  s.fabric.reconfig_delay = alpha_r;
  s.workload = testing_support::test_workload(Collective::broadcast, 1'000'000);
  s.synthesis.algorithm = "binomial";
  s.synthesis.topology.type = "ring";
  s.synthesis.planner_params["candidates"] = "[ring, step]";
  return s;
}

Time predicted(ExhaustivePlannerCase s, const std::string& planner) {
  s.synthesis.planner = planner;
  if (planner != "exhaustive") s.synthesis.planner_params.clear();
  return SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis).prediction().total();
}

TEST(ExhaustivePlanner, FreeReconfigurationGivesEachStepItsBestTopology) {
  const ExhaustivePlannerCase s = make_case(Time::zero());
  // Every step is one hop on its own circuits: nothing beats every_step.
  EXPECT_EQ(predicted(s, "exhaustive"), predicted(s, "every_step"));
  EXPECT_LT(predicted(s, "exhaustive"), predicted(s, "static"));
}

TEST(ExhaustivePlanner, CostlyReconfigurationKeepsTheRing) {
  const ExhaustivePlannerCase s = make_case(Time::ms(100));
  EXPECT_EQ(predicted(s, "exhaustive"), predicted(s, "static"));
}

TEST(ExhaustivePlanner, NeverWorseThanEitherExtreme) {
  for (Time alpha_r : {Time::ns(10), Time::us(1), Time::us(10), Time::us(100), Time::ms(1)}) {
    const ExhaustivePlannerCase s = make_case(alpha_r);
    const Time best = predicted(s, "exhaustive");
    EXPECT_LE(best, predicted(s, "static")) << format_time(alpha_r);
    EXPECT_LE(best, predicted(s, "every_step")) << format_time(alpha_r);
  }
}

TEST(ExhaustivePlanner, RefusesSearchesOverItsLimit) {
  ExhaustivePlannerCase s = make_case(Time::us(1));
  s.synthesis.planner = "exhaustive";
  s.synthesis.planner_params["limit"] = "4";
  try {
    SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("exceed the limit of 4"), std::string::npos) << e.what();
  }
  s.synthesis.planner_params = {{"candidates", "[tours]"}};
  EXPECT_THROW(SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis), Error);
}

}  // namespace
}  // namespace photonsim
