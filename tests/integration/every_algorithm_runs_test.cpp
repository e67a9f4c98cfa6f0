// Every registered algorithm runs end to end (synthesis, verification,
// packet-level replay) with the static planner on a ring and with
// every_step, for every collective it implements.
#include <gtest/gtest.h>

#include <iostream>
#include <optional>

#include "core/error.h"

#include "schedules/verify/block_verifier.h"
#include "schedules/synthesizer_registry.h"
#include "sim/engine/schedule_execution.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

TEST(EveryAlgorithm, RunsWithStaticAndEveryStepPlanners) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (const auto& algorithm : registry.algorithms()) {
    if (algorithm.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
    if (algorithm.is_joint()) continue;       // planner `joint` only: JointAlgorithms below
    for (Collective collective : algorithm.info.collectives) {
      for (const char* planner : {"static", "every_step"}) {
        FabricSpec f = testing_support::test_fabric(8, 2);
        f.reconfig_delay = Time::us(1);
        const WorkloadSpec w = testing_support::test_workload(collective, 1'000'000, 3);
        SynthesisSpec s;
        s.algorithm = algorithm.info.name;
        s.planner = planner;
        s.topology.type = std::string(planner) == "static" ? "ring" : "none";
        s.topology.params["bidirectional"] = "true";
        if (std::string(planner) == "every_step") s.topology.params.clear();
        const std::string what = algorithm.info.name + " / " + to_string(collective) + " / " + planner;
        const Schedule schedule = registry.synthesize(f, w, s);
        const Verification v = verify_schedule(schedule);
        ASSERT_TRUE(v.ok()) << what << ": " << v.violation->describe();
        const RunResult r = run_schedule(f, w, schedule);
        EXPECT_EQ(r.network.bytes_delivered, r.network.bytes_injected) << what;
        EXPECT_GT(r.completion, Time::zero()) << what;
        EXPECT_EQ(r.steps.size(), schedule.steps().size()) << what;
      }
    }
  }
}

TEST(EveryAlgorithm, JointAlgorithmsRunWithEveryWorkloadDistribution) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (const auto& algorithm : registry.algorithms()) {
    if (algorithm.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
    if (!algorithm.is_joint()) continue;
    for (int ports : {1, 2, 3}) {
      for (FlowDistribution distribution :
           {FlowDistribution::uniform, FlowDistribution::random, FlowDistribution::zipf}) {
        FabricSpec f = testing_support::test_fabric(8, ports);
        f.reconfig_delay = Time::us(1);
        using namespace testing_support;
        const WorkloadSpec w =
            with_distribution(with_chunk(test_workload(Collective::alltoall, 1'000'000), 250'000), distribution);
        SynthesisSpec s;
        s.algorithm = algorithm.info.name;
        const std::string what =
            algorithm.info.name + " / k=" + std::to_string(ports) + " / " + to_string(distribution);
        const Schedule schedule = registry.synthesize(f, w, s, 7);
        EXPECT_EQ(schedule.planner(), "joint") << what;
        const Verification v = verify_schedule(schedule);
        ASSERT_TRUE(v.ok()) << what << ": " << v.violation->describe();
        const RunResult r = run_schedule(f, w, schedule);
        EXPECT_EQ(r.network.bytes_delivered, r.network.bytes_injected) << what;
        EXPECT_EQ(r.steps.size(), schedule.steps().size()) << what;
      }
    }
  }
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// Every algorithm at every n from 2 to 17 and a few beyond (27, 32, 64), with
// every_step and with the static planner on a bidirectional ring: it
// either runs (verified, replayed, bytes conserved) or refuses that n with an
// Error that names it. Each must run at n = 8 and n = 16.
TEST(EveryAlgorithm, RunsOrRefusesEveryGpuCountFrom2To64) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  std::vector<int> counts;
  for (int n = 2; n <= 17; ++n) counts.push_back(n);
  for (int n : {27, 32, 64}) counts.push_back(n);
  for (const auto& algorithm : registry.algorithms()) {
    if (algorithm.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
    for (Collective collective : algorithm.info.collectives) {
      for (const char* planner : {"every_step", "static"}) {
        if (algorithm.is_joint() && std::string(planner) == "static") continue;  // planner `joint` only
        std::string supported;
        for (int n : counts) {
          FabricSpec f = testing_support::test_fabric(n, 2);
          f.reconfig_delay = Time::us(1);
          const WorkloadSpec w = testing_support::test_workload(collective, 60'000, n / 2);
          SynthesisSpec s;
          s.algorithm = algorithm.info.name;
          if (!algorithm.is_joint()) s.planner = planner;
          if (s.planner == "static") s.topology = TopologySpec{"ring", {{"bidirectional", "true"}}};
          const std::string what =
              algorithm.info.name + " / " + to_string(collective) + " / " + planner + " / n=" + std::to_string(n);
          std::optional<Schedule> schedule;
          try {
            schedule = registry.synthesize(f, w, s);
          } catch (const Error& e) {
            const std::string why = e.what();
            EXPECT_TRUE(why.find("n = " + std::to_string(n)) != std::string::npos ||
                        why.find(std::to_string(n) + " GPUs") != std::string::npos ||
                        why.find("gpus") != std::string::npos)
                << what << ": refused without naming the GPU count: " << why;
            EXPECT_TRUE(n != 8 && n != 16) << what << ": " << why;
            continue;
          }
          const Verification v = verify_schedule(*schedule);
          ASSERT_TRUE(v.ok()) << what << ": " << v.violation->describe();
          const RunResult r = run_schedule(f, w, *schedule);
          EXPECT_EQ(r.network.bytes_delivered, r.network.bytes_injected) << what;
          EXPECT_EQ(r.steps.size(), schedule->steps().size()) << what;
          supported += " " + std::to_string(n);
        }
        std::cout << "[ supported ] " << algorithm.info.name << " / " << to_string(collective) << " / " << planner
                  << ":" << supported << "\n";
      }
    }
  }
}

}  // namespace
}  // namespace photonsim
