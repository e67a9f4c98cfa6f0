#pragma once
// Test helper: schedules for the block verifier, built as the registry builds
// them (the registered algorithm, its declared parameters, planner
// every_step, no initial circuits, 4 ports, so a step is split only when a
// node talks to more than 4 peers, which merely delays transfers) but without
// the cost model's prediction, which routes every transfer and would
// dominate sweeps over n; and the parts of a schedule to rebuild a corrupted
// copy from.
#include <map>
#include <stdexcept>
#include <string>

#include "schedules/block_verifier.h"
#include "schedules/every_step_planner.h"
#include "schedules/synthesizer_registry.h"

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
  input.fabric.gpus = c.gpus;
  input.fabric.ports = 4;
  input.fabric.bandwidth = Bandwidth::bits_per_second(800'000'000'000);
  input.fabric.latency = Time::ns(500);
  input.workload.collective = c.collective;
  input.workload.message = c.message;
  input.workload.chunk = c.chunk;
  input.workload.root = c.root;
  input.algorithm = c.algorithm;
  input.planner = "every_step";
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (const auto& entry : registry.algorithms()) {
    if (entry.name != c.algorithm) continue;
    const ComponentParams params(entry.name, c.params, entry.parameters, "algorithm");
    const StepPattern pattern = entry.make()->pattern(AlgorithmInput{input.fabric, input.workload, params});
    return EveryStepPlanner().plan(pattern, input);
  }
  throw std::logic_error("no registered algorithm '" + c.algorithm + "'");
}

inline ScheduleParts parts_of(const Schedule& s) { return s.parts(); }

}  // namespace photonsim
