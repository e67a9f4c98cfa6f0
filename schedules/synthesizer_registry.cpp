#include "schedules/synthesizer_registry.h"

#include <algorithm>

#include "core/error.h"
#include "schedules/alpha_beta_congestion_model.h"

namespace photonsim {

namespace {
template <class Entry>
std::string names_of(const std::vector<Entry>& entries) {
  std::string out;
  for (const Entry& e : entries) out += (out.empty() ? "" : ", ") + e.name;
  return out;
}
}  // namespace

const SynthesizerRegistry::AlgorithmEntry& SynthesizerRegistry::algorithm(
    const std::string& name) const {
  for (const auto& e : algorithms_) {
    if (e.name == name) return e;
  }
  throw Error("synthesis.algorithm: unknown algorithm '" + name + "' (valid: " +
              names_of(algorithms_) + ")");
}

const SynthesizerRegistry::PlannerEntry& SynthesizerRegistry::planner(const std::string& name) const {
  for (const auto& e : planners_) {
    if (e.name == name) return e;
  }
  throw Error("synthesis.planner: unknown planner '" + name + "' (valid: " + names_of(planners_) +
              ")");
}

Schedule SynthesizerRegistry::synthesize(const FabricSpec& fabric, const WorkloadSpec& workload,
                                         const SynthesisSpec& synthesis) const {
  const AlgorithmEntry& algo = algorithm(synthesis.algorithm);
  if (std::find(algo.collectives.begin(), algo.collectives.end(), workload.collective) ==
      algo.collectives.end()) {
    std::string valid;
    for (Collective c : algo.collectives) valid += (valid.empty() ? "" : ", ") + std::string(to_string(c));
    throw Error("synthesis.algorithm: '" + algo.name + "' does not implement workload.collective '" +
                to_string(workload.collective) + "' (it implements: " + valid + ")");
  }
  const std::string planner_name = synthesis.planner.empty() ? algo.default_planner : synthesis.planner;
  const PlannerEntry& plan = planner(planner_name);

  PlanningInput input;
  input.fabric = fabric;
  input.workload = workload;
  input.algorithm = algo.name;
  input.planner = plan.name;
  auto make_topology = [&](const TopologySpec& spec, const char* key) {
    try {
      return topologies_.make(spec, fabric);
    } catch (const Error& e) {
      throw Error(std::string(key) + ": " + e.what());
    }
  };
  input.initial = make_topology(synthesis.topology, "synthesis.topology");
  input.static_topology = synthesis.static_topology
                              ? make_topology(*synthesis.static_topology, "synthesis.static_topology")
                              : input.initial;

  const StepPattern pattern = algo.make()->pattern(fabric, workload);
  const Schedule planned = plan.make()->plan(pattern, input);
  return planned.with_prediction(predict_alpha_beta_congestion(planned, fabric, workload));
}

}  // namespace photonsim
