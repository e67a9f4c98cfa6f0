// What a long synthesis tells its WorkProgress: each stage by name, how far
// it is, and nothing that changes the schedule it builds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/work_progress.h"
#include "schedules/model/schedule_io.h"
#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

struct Report {
  std::string stage;
  double done;
  double total;
  WorkTotal kind;
};

struct Recorder : WorkProgress {
  std::vector<Report> reports;
  void progressed(const WorkDone& work) override {
    reports.push_back({std::string(work.stage), work.done, work.total, work.kind});
  }
  std::vector<Report> of(const std::string& stage) const {
    std::vector<Report> out;
    for (const Report& r : reports) {
      if (r.stage == stage) out.push_back(r);
    }
    return out;
  }
};

SynthesisSpec synthesis_progress_synthesis(const std::string& algorithm, const std::string& planner = "") {
  SynthesisSpec s;
  s.algorithm = algorithm;
  s.planner = planner;
  s.topology.type = "none";
  return s;
}

// The schedule with a listener is the schedule without one, byte for byte.
void expect_same_schedule(const FabricSpec& f, const WorkloadSpec& w, const SynthesisSpec& s, Recorder& recorder) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  const Schedule heard = registry.synthesize(f, w, s, 1, &recorder);
  const Schedule quiet = registry.synthesize(f, w, s, 1);
  EXPECT_EQ(serialize_schedule(heard, true), serialize_schedule(quiet, true));
}

TEST(SynthesisProgress, FastCountsItsPermutationsThenPredictsStepByStep) {
  const FabricSpec f = testing_support::test_fabric(16);
  WorkloadSpec w = testing_support::test_workload(Collective::alltoall, 512000);
  w.distribution = FlowDistribution::random;
  Recorder recorder;
  expect_same_schedule(f, w, synthesis_progress_synthesis("fast"), recorder);

  // One report before each term: the terms so far, of at least as many as
  // there turn out to be (the bound never overshoots).
  const std::vector<Report> decomposing = recorder.of("FAST: permutations of the demand");
  ASSERT_GE(decomposing.size(), 15u);        // at least n - 1 permutations
  EXPECT_EQ(decomposing.front().total, 16);  // a row: the 15 others, padding on its diagonal
  for (size_t i = 0; i < decomposing.size(); ++i) {
    EXPECT_EQ(decomposing[i].kind, WorkTotal::at_least);
    EXPECT_EQ(decomposing[i].done, static_cast<double>(i));
    EXPECT_GT(decomposing[i].total, decomposing[i].done);
    EXPECT_LE(decomposing[i].total, static_cast<double>(decomposing.size()));
  }

  // One report per step (each has fewer than 4096 transfers), at its index.
  const Schedule schedule = SynthesizerRegistry::with_builtins().synthesize(f, w, synthesis_progress_synthesis("fast"));
  const size_t steps = schedule.steps().size();
  const std::vector<Report> predicting = recorder.of("predicting the time of " + std::to_string(steps) + " steps");
  ASSERT_EQ(predicting.size(), steps);
  for (size_t s = 0; s < steps; ++s) {
    EXPECT_EQ(predicting[s].done, static_cast<double>(s));
    EXPECT_EQ(predicting[s].total, static_cast<double>(steps));
  }
  // Between the two, the strategy (d topologies: topology none configures each) becomes a schedule.
  const std::string as_schedule = "fast: d = " + std::to_string(schedule.reconfigurations()) + " as a schedule";
  EXPECT_EQ(recorder.of(as_schedule).size(), 1u);
  EXPECT_EQ(recorder.reports.size(), decomposing.size() + 1 + predicting.size());  // nothing else
}

TEST(SynthesisProgress, RdcCountsItsContractionsUpToAtMostNMinusOne) {
  const FabricSpec f = testing_support::test_fabric(16, 2);
  const WorkloadSpec w = testing_support::test_workload(Collective::alltoall, 1000000);
  SynthesisSpec s = synthesis_progress_synthesis("rdc");
  s.algorithm_params["base"] = "circulant";
  Recorder recorder;
  expect_same_schedule(f, w, s, recorder);

  // Every d is outlined (d = 1, 2, ... of at most 15), then only the winner is built.
  const std::vector<Report> outlined = recorder.of("rdc: Circulant topologies outlined (d)");
  const size_t candidates = SynthesizerRegistry::with_builtins().plan_all(f, w, s).size();
  ASSERT_EQ(outlined.size(), candidates);
  for (size_t i = 0; i < outlined.size(); ++i) {
    EXPECT_EQ(outlined[i].done, static_cast<double>(i + 1));
    EXPECT_EQ(outlined[i].total, 15);
    EXPECT_EQ(outlined[i].kind, WorkTotal::at_most);
  }
  const std::vector<Report> built = recorder.of("rdc: Circulant topologies contracted (d)");
  ASSERT_FALSE(built.empty());
  const Schedule schedule = SynthesizerRegistry::with_builtins().synthesize(f, w, s);
  EXPECT_EQ(built.back().done, built.back().total);           // the contractions stop at the winner's d
  EXPECT_EQ(built.back().done, schedule.reconfigurations());  // topology none: every topology is configured
}

TEST(SynthesisProgress, TheAutoPlannerCountsThePlannersItTries) {
  const FabricSpec f = testing_support::test_fabric(8);
  const WorkloadSpec w = testing_support::test_workload(Collective::allreduce, 1000000);
  Recorder recorder;
  expect_same_schedule(f, w, synthesis_progress_synthesis("rhd", "auto"), recorder);
  const std::vector<Report> placing = recorder.of("placing 'rhd' with each planner");
  const size_t planners =
      SynthesizerRegistry::with_builtins().plan_all(f, w, synthesis_progress_synthesis("rhd", "auto")).size();
  ASSERT_EQ(placing.size(), planners);
  for (size_t i = 0; i < placing.size(); ++i) {
    EXPECT_EQ(placing[i].done, static_cast<double>(i));
    EXPECT_EQ(placing[i].total, static_cast<double>(planners));
  }
}

}  // namespace
}  // namespace photonsim
