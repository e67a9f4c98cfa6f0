#include "schedules/synthesizer_registry.h"

#include <algorithm>
#include <memory>

#include "core/error.h"
#include "schedules/algorithms/alltoall_direct.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "topology/step_circuits.h"
#include "topology/component_params.h"

namespace photonsim {

namespace {
template <class Entry>
std::string names_of(const std::vector<Entry>& entries) {
  std::string out;
  for (const Entry& e : entries) out += (out.empty() ? "" : ", ") + e.name;
  return out;
}
// synthesis.static_topology: {type: from_step, step: K}: the circuits step K asks for.
Topology circuits_of_step(const TopologySpec& spec, const StepPattern& pattern, const FabricSpec& fabric) {
  const ComponentParams params("from_step", spec.params, {"step"});
  const int64_t step = params.integer("step", 0);
  if (step < 0 || step >= static_cast<int64_t>(pattern.steps.size())) {
    params.fail("step", "must be in 0.." + std::to_string(pattern.steps.size() - 1) + ", got " +
                            std::to_string(step));
  }
  std::vector<Edge> pairs;
  for (const Transfer& t : pattern.steps[static_cast<size_t>(step)]) pairs.push_back({t.src, t.dst});
  Topology topology = circuits_for_pairs("from_step(" + std::to_string(step) + ")", fabric.gpus, pairs,
                                         fabric.circuits);
  topology.check_ports(fabric);
  return topology;
}

}  // namespace

void SynthesizerRegistry::add_joint_algorithm(std::string name, std::string description,
                                              std::function<std::unique_ptr<JointSynthesizer>()> make_joint,
                                              std::vector<std::string> parameters, std::string usage) {
  AlgorithmEntry entry{std::move(name), {Collective::alltoall}, kJointPlanner, std::move(description),
                       [] { return std::make_unique<AlltoallDirect>(); }, std::move(parameters), std::move(usage)};
  entry.make_joint = std::move(make_joint);
  entry.sized_flows = true;
  algorithms_.push_back(std::move(entry));
}

std::string SynthesizerRegistry::joint_names() const {
  std::string out;
  for (const AlgorithmEntry& e : algorithms_) {
    if (e.make_joint) out += (out.empty() ? "" : ", ") + e.name;
  }
  return out;
}

std::string SynthesizerRegistry::sized_flow_names() const {
  std::string out;
  for (const AlgorithmEntry& e : algorithms_) {
    if (e.sized_flows) out += (out.empty() ? "" : ", ") + e.name;
  }
  return out;
}

std::vector<SynthesizerRegistry::PlanOutcome> SynthesizerRegistry::plan_all(
    const FabricSpec& fabric, const WorkloadSpec& workload, const SynthesisSpec& synthesis, uint64_t seed) const {
  std::vector<PlanOutcome> outcomes;
  if (algorithm(synthesis.algorithm).make_joint) {
    try {
      for (JointPlanner::Candidate& c : joint_candidates(fabric, workload, synthesis, seed)) {
        outcomes.push_back({std::string(kJointPlanner) + " d=" + std::to_string(c.configurations),
                            std::move(c.schedule), "", c.hop_sum, c.construction});
      }
    } catch (const Error& e) {
      outcomes.push_back({kJointPlanner, std::nullopt, e.what()});
    }
    return outcomes;
  }
  for (const PlannerEntry& p : planners_) {
    if (p.name == "exhaustive") continue;  // a test oracle, too slow to try by default
    if (p.name == kJointPlanner) continue;  // only for joint synthesizers, handled above
    SynthesisSpec one = synthesis;
    one.planner = p.name;
    one.planner_params.clear();
    try {
      outcomes.push_back({p.name, synthesize(fabric, workload, one, seed), ""});
    } catch (const Error& e) {
      outcomes.push_back({p.name, std::nullopt, e.what()});
    }
  }
  return outcomes;
}

const SynthesizerRegistry::AlgorithmEntry& SynthesizerRegistry::algorithm(
    const std::string& name) const {
  for (const auto& e : algorithms_) {
    if (e.name == name) return e;
  }
  throw Error("synthesis.algorithm: unknown algorithm " + quoted(name) + " (valid: " +
              names_of(algorithms_) + ")");
}

const SynthesizerRegistry::PlannerEntry& SynthesizerRegistry::planner(const std::string& name) const {
  for (const auto& e : planners_) {
    if (e.name == name) return e;
  }
  throw Error("synthesis.planner: unknown planner " + quoted(name) + " (valid: " + names_of(planners_) +
              ", auto)");
}

SynthesizerRegistry::Prepared SynthesizerRegistry::prepare(const FabricSpec& fabric, const WorkloadSpec& workload,
                                                           const SynthesisSpec& synthesis, uint64_t seed,
                                                           const std::string& planner_name) const {
  Prepared p;
  const AlgorithmEntry& algo = algorithm(synthesis.algorithm);
  p.planner = &planner(planner_name);
  p.algorithm_params = std::make_shared<ComponentParams>(algo.name, synthesis.algorithm_params, algo.parameters, "algorithm");
  if (algo.make_joint) p.joint = algo.make_joint();
  PlanningInput& input = p.input;
  input.fabric = fabric;
  input.workload = workload;
  input.algorithm = algo.name;
  input.planner = p.planner->name;
  input.params = ComponentParams(p.planner->name, synthesis.planner_params, p.planner->parameters, "planner");
  input.seed = seed;
  input.joint = p.joint.get();
  input.algorithm_params = p.algorithm_params.get();
  input.reconfigurations = synthesis.reconfigurations;
  p.pattern = algo.make()->pattern(AlgorithmInput{fabric, workload, *p.algorithm_params, seed});
  const StepPattern& pattern = p.pattern;
  auto make_topology = [&](const TopologySpec& spec, const char* key) -> std::optional<Topology> {
    try {
      if (spec.type == "from_step" && std::string(key) == "synthesis.static_topology") {
        return circuits_of_step(spec, pattern, fabric);
      }
      return topologies_.make(spec, fabric, seed);
    } catch (const Error& e) {
      throw Error(std::string(key) + ": " + e.what());
    }
  };
  input.initial = make_topology(synthesis.topology, "synthesis.topology");
  input.static_topology = synthesis.static_topology
                              ? make_topology(*synthesis.static_topology, "synthesis.static_topology")
                              : input.initial;
  return p;
}

std::vector<JointPlanner::Candidate> SynthesizerRegistry::joint_candidates(const FabricSpec& fabric,
                                                                           const WorkloadSpec& workload,
                                                                           const SynthesisSpec& synthesis,
                                                                           uint64_t seed) const {
  const Prepared prepared = prepare(fabric, workload, synthesis, seed, kJointPlanner);
  return JointPlanner::candidates(prepared.pattern, prepared.input);
}

Schedule SynthesizerRegistry::synthesize(const FabricSpec& fabric, const WorkloadSpec& workload,
                                         const SynthesisSpec& synthesis, uint64_t seed) const {
  const AlgorithmEntry& algo = algorithm(synthesis.algorithm);
  if (std::find(algo.collectives.begin(), algo.collectives.end(), workload.collective) ==
      algo.collectives.end()) {
    std::string valid;
    for (Collective c : algo.collectives) valid += (valid.empty() ? "" : ", ") + std::string(to_string(c));
    throw Error("synthesis.algorithm: '" + algo.name + "' does not implement workload.collective '" +
                to_string(workload.collective) + "' (it implements: " + valid + ")");
  }
  if (workload.distribution != FlowDistribution::uniform && !algo.sized_flows) {
    throw Error("workload.distribution: '" + std::string(to_string(workload.distribution)) + "' needs an algorithm with per-pair flow sizes (valid: " +
                sized_flow_names() + "); '" + algo.name + "' sends equal blocks");
  }
  std::string planner_name = synthesis.planner.empty() ? algo.default_planner : synthesis.planner;
  if (algo.make_joint) {
    if (planner_name == kAutoPlanner) planner_name = kJointPlanner;
    if (planner_name != kJointPlanner) {
      throw Error("synthesis.planner: algorithm '" + algo.name + "' chooses its topologies and rounds itself; it runs with planner 'joint' only (got '" + planner_name + "')");
    }
  } else {
    if (planner_name == kJointPlanner) {
      throw Error("synthesis.planner: planner 'joint' needs an algorithm that chooses topologies and rounds together (valid: " + joint_names() + "); '" + algo.name + "' does not");
    }
    if (synthesis.reconfigurations) {
      throw Error("synthesis.reconfigurations: applies to the joint synthesizers (" + joint_names() + "), not to '" + algo.name + "'");
    }
  }
  if (planner_name == kAutoPlanner) {
    if (!synthesis.planner_params.empty()) {
      throw Error("planner 'auto' has no parameter '" + synthesis.planner_params.begin()->first + "' (valid: none)");
    }
    const std::vector<PlanOutcome> outcomes = plan_all(fabric, workload, synthesis, seed);
    const PlanOutcome* best = nullptr;
    for (const PlanOutcome& o : outcomes) {
      if (o.schedule && (!best || o.schedule->prediction().total() < best->schedule->prediction().total())) best = &o;
    }
    if (!best) throw Error("planner 'auto': no planner could place '" + algo.name + "': " + outcomes.front().error);
    return *best->schedule;
  }
  const Prepared prepared = prepare(fabric, workload, synthesis, seed, planner_name);
  const Schedule planned = prepared.planner->make()->plan(prepared.pattern, prepared.input);
  if (!planned.prediction().steps.empty()) return planned;
  return planned.with_prediction(predict_alpha_beta_congestion(planned, fabric, workload));
}

}  // namespace photonsim
