#pragma once
// Test helper for the AllReduce / reduce-scatter / all-gather algorithm tests:
// schedules built end to end through the registry (planner every_step on
// topology none, which places any pattern) or, for wide sweeps, straight from
// the algorithm through the every_step planner, the verifier's verdict as text,
// per-node byte counts, and edited copies of a good schedule for corruption
// tests.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "schedules/verify/block_verifier.h"
#include "schedules/planners/every_step_planner.h"
#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim::reduction_checks {

// Not a multiple of any n > 1 below 1024, so blocks differ in size and the
// verifier's byte check sees every rounding.
inline constexpr int64_t kOddMessage = 1000003;

inline FabricSpec fabric(int gpus, int ports = 1) {
  FabricSpec f = testing_support::test_fabric(gpus, ports);
  return f;
}

inline WorkloadSpec workload(Collective c, int64_t message = kOddMessage) {
  return testing_support::test_workload(c, message);
}

inline SynthesisSpec synthesis(const std::string& algorithm, std::map<std::string, std::string> params = {},
                               const std::string& planner = "every_step", const std::string& topology = "none") {
  SynthesisSpec s;
  s.algorithm = algorithm;
  s.algorithm_params = std::move(params);
  s.planner = planner;
  s.topology.type = topology;
  return s;
}

inline Schedule synthesize(const SynthesizerRegistry& registry, const std::string& algorithm, int n, Collective c,
                           std::map<std::string, std::string> params = {}, int64_t message = kOddMessage) {
  return registry.synthesize(fabric(n), workload(c, message), synthesis(algorithm, std::move(params)));
}

// The same through the algorithm object and the every_step planner, without
// the registry's cost model: the wide n sweeps stay fast in Debug builds.
inline Schedule planned(const CollectiveAlgorithm& algorithm, const std::string& name, int n, Collective c,
                        std::map<std::string, std::string> params = {}, int64_t message = kOddMessage) {
  PlanningInput input;
  input.fabric = fabric(n);
  input.workload = workload(c, message);
  input.algorithm = name;
  input.planner = "every_step";
  const ComponentParams component(name, std::move(params), algorithm.info().parameters, "algorithm");
  const StepPattern pattern = algorithm.pattern(AlgorithmInput{input.fabric, input.workload, component});
  return EveryStepPlanner().plan(pattern, input);
}

// "ok" or the first violation, so a failing EXPECT shows what broke.
inline std::string verdict(const Schedule& schedule) {
  const Verification v = verify_schedule(schedule);
  return v.ok() ? "ok" : v.violation->describe();
}

// Every n in first..last, or the powers of two in it.
inline std::vector<int> every_n(int first, int last) {
  std::vector<int> out;
  for (int n = first; n <= last; ++n) out.push_back(n);
  return out;
}
inline std::vector<int> powers_of_two(int first, int last) {
  std::vector<int> out;
  for (int n = first; n <= last; n *= 2) out.push_back(n);
  return out;
}

// "" when the verifier proves `algorithm` for every n in `sizes`, else one
// line per failing n with its first violation.
inline std::string failures(const CollectiveAlgorithm& algorithm, const std::string& name,
                            const std::vector<int>& sizes, Collective c,
                            const std::map<std::string, std::string>& params = {}) {
  std::string out;
  for (int n : sizes) {
    const std::string v = verdict(planned(algorithm, name, n, c, params));
    if (v != "ok") out += "n=" + std::to_string(n) + " " + to_string(c) + ": " + v + "\n";
  }
  return out;
}

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A copy of `schedule` with `edit` applied to its parts.
inline Schedule edited(const Schedule& schedule, const std::function<void(ScheduleParts&)>& edit) {
  ScheduleParts p;
  p.collective = schedule.collective();
  p.algorithm = schedule.algorithm();
  p.planner = schedule.planner();
  p.gpus = schedule.gpus();
  p.message = schedule.message();
  p.blocks = schedule.blocks();
  p.root = schedule.root();
  p.initial_topology = schedule.initial_topology();
  p.topologies = schedule.topologies();
  p.steps = schedule.steps();
  edit(p);
  return Schedule(std::move(p));
}

// Bytes node `node` sends in each step of `steps`.
inline std::vector<int64_t> bytes_sent_by(const std::vector<std::vector<Transfer>>& steps, Node node) {
  std::vector<int64_t> out;
  for (const auto& step : steps) {
    int64_t sent = 0;
    for (const Transfer& t : step) {
      if (t.src == node) sent += t.bytes.count();
    }
    out.push_back(sent);
  }
  return out;
}

inline int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

inline bool power_of_two(int n) { return n >= 1 && (n & (n - 1)) == 0; }

inline std::vector<Collective> reduction_collectives() {
  return {Collective::allreduce, Collective::reducescatter, Collective::allgather};
}

}  // namespace photonsim::reduction_checks
