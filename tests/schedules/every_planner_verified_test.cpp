// Every registered pattern algorithm placed by every registered planner (and
// `auto`) is proven by the block verifier: a planner splits rounds, regroups
// transfers, routes them over several paths and chooses topologies, and none
// of that may change what the schedule delivers. The GPU counts cover powers
// of two and three and sizes that are neither; a planner may refuse an
// algorithm (segments planners take only their own), but only with an Error.
// Cases come from the registry, so a new planner or algorithm is covered
// without editing this file. (Every n in 2..130 with every_step:
// every_algorithm_verified_test.cpp.)
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "schedules/synthesizer_registry.h"
#include "schedules/verify/block_verifier.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

std::vector<std::string> planners() {
  std::vector<std::string> out;
  for (const PlannerInfo& p : SynthesizerRegistry::with_builtins().planner_infos()) {
    // `joint` is the joint all-to-all synthesizers' own (verified at every n
    // by every_algorithm_verified_test.cpp); it places no pattern algorithm.
    if (p.name != "joint") out.push_back(p.name);
  }
  return out;
}

class EveryPlannerVerified : public testing::TestWithParam<std::string> {};

TEST_P(EveryPlannerVerified, EveryAlgorithmItPlacesIsProven) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  int proven = 0;
  for (const auto& algorithm : registry.algorithms()) {
    if (algorithm.is_joint() || algorithm.info.reads_file) continue;
    for (Collective collective : algorithm.info.collectives) {
      for (int n : {2, 3, 5, 8, 9, 12, 16}) {
        for (int ports : {1, 2}) {
          if (!algorithm.supports(n, ports)) continue;
          FabricSpec f = testing_support::test_fabric(n, ports);
          f.reconfig_delay = Time::us(1);
          const WorkloadSpec w = testing_support::test_workload(collective, int64_t{1000} * n + 7, n - 1);
          SynthesisSpec s;
          s.algorithm = algorithm.info.name;
          s.planner = GetParam();
          s.topology.type = "ring";
          if (s.planner == "exhaustive") s.planner_params["limit"] = "2000";
          const std::string what = algorithm.info.name + " / " + to_string(collective) + " / " + s.planner +
                                   " / n=" + std::to_string(n) + " / ports=" + std::to_string(ports);
          std::optional<Schedule> schedule;
          try {
            schedule = registry.synthesize(f, w, s);
          } catch (const Error&) {
            continue;  // refused in one line: not this test's concern
          }
          const Verification v = verify_schedule(*schedule);
          EXPECT_TRUE(v.ok()) << what << ": " << (v.ok() ? "" : v.violation->describe());
          ++proven;
        }
      }
    }
  }
  EXPECT_GT(proven, 0) << GetParam() << " placed nothing";
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryPlannerVerified, testing::ValuesIn(planners()),
                         [](const testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace photonsim
