#pragma once
// Test helper: schedules for the block verifier, built as the registry builds
// them (the registered algorithm, its declared parameters, planner
// every_step, no initial circuits, 4 ports, so a step is split only when a
// node talks to more than 4 peers, which merely delays transfers) but without
// the cost model's prediction, which routes every transfer and would
// dominate sweeps over n; and the parts of a schedule to rebuild a corrupted
// copy from.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "schedules/verify/block_verifier.h"
#include "schedules/planners/every_step_planner.h"
#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {

struct VerificationCase {
  std::string algorithm;
  int gpus = 2;
  Collective collective = Collective::alltoall;
  Bytes message = Bytes(1000);
  Bytes chunk = Bytes(0);
  int root = 0;
  std::map<std::string, std::string> params = {};
};

inline Schedule synthesize_for_verification(const VerificationCase& c) {
  PlanningInput input;
  input.fabric = testing_support::test_fabric(c.gpus, 4);
  input.workload.collective = c.collective;
  input.workload.message = c.message;
  input.workload.chunk = c.chunk;
  input.workload.root = c.root;
  input.algorithm = c.algorithm;
  input.planner = "every_step";
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (const auto& entry : registry.algorithms()) {
    if (entry.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
    if (entry.info.name != c.algorithm) continue;
    const ComponentParams params(entry.info.name, c.params, entry.info.parameters, "algorithm");
    const StepPattern pattern = entry.algorithm->pattern(AlgorithmInput{input.fabric, input.workload, params});
    return EveryStepPlanner().plan(pattern, input);
  }
  throw std::logic_error("no registered algorithm '" + c.algorithm + "'");
}

// The nodes block (src, dst) visits, phase by phase (src first).
inline std::vector<Node> route_of(const StepPattern& p, int n, Node src, Node dst) {
  const uint32_t block = src * static_cast<uint32_t>(n) + dst;
  std::vector<Node> route = {src};
  for (const auto& step : p.steps) {
    for (const Transfer& t : step) {
      for (uint32_t b : t.blocks) {
        if (b == block) {
          EXPECT_EQ(t.src, route.back());
          route.push_back(t.dst);
        }
      }
    }
  }
  return route;
}

// The full data path for an all-to-all algorithm: registry, its default planner
// (static) on a bidirectional ring with 2 ports, the cost model, the verifier.
inline void expect_all_to_all_runs_on_a_static_ring(const std::string& algorithm, int gpus) {
  FabricSpec f = testing_support::test_fabric(gpus, 2, CircuitKind::bidirectional);
  const WorkloadSpec w = testing_support::test_workload(Collective::alltoall, 1000);
  SynthesisSpec s;
  s.algorithm = algorithm;
  s.topology.type = "ring";
  const Schedule schedule = SynthesizerRegistry::with_builtins().synthesize(f, w, s);
  EXPECT_EQ(schedule.planner(), "static");
  EXPECT_EQ(schedule.algorithm(), algorithm);
  EXPECT_EQ(schedule.reconfigurations(), 0);
  EXPECT_EQ(schedule.prediction().steps.size(), schedule.steps().size());
  EXPECT_TRUE(verify_schedule(schedule).ok());
}

inline ScheduleParts parts_of(const Schedule& s) { return s.parts(); }

}  // namespace photonsim
