#include "schedules/synthesizer_registry.h"

#include <algorithm>

#include "core/error.h"
#include "core/spec/planning_failures.h"
#include "schedules/alltoall/joint_alltoall_synthesizer.h"
#include "schedules/synthesis/physical_feasibility.h"

namespace photonsim {

namespace {

bool any(const SynthesizerRegistry::AlgorithmEntry&) { return true; }
bool joint(const SynthesizerRegistry::AlgorithmEntry& a) { return a.is_joint(); }
bool sized_flows(const SynthesizerRegistry::AlgorithmEntry& a) { return a.info.sized_flows; }

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::string SynthesizerRegistry::algorithm_names(bool (*keep)(const AlgorithmEntry&)) const {
  std::vector<std::string> names;
  for (const AlgorithmEntry& a : algorithms_) {
    if (keep(a)) names.push_back(a.info.name);
  }
  return joined(names);
}

std::vector<PlannerInfo> SynthesizerRegistry::planner_infos() const {
  std::vector<PlannerInfo> out{JointAlltoallSynthesizer::planner_info()};
  for (const PlannerEntry& p : planners_) out.push_back(p.info);
  out.push_back(PatternSynthesizer::auto_planner_info());
  return out;
}

const SynthesizerRegistry::AlgorithmEntry& SynthesizerRegistry::algorithm(const std::string& name) const {
  for (const AlgorithmEntry& a : algorithms_) {
    if (a.info.name == name) return a;
  }
  throw Error("synthesis.algorithm: unknown algorithm " + quoted(name) + " (valid: " + algorithm_names(any) + ")");
}

void SynthesizerRegistry::check_planner(const AlgorithmEntry& algorithm, const SynthesisSpec& synthesis) const {
  const std::string joint_planner = JointAlltoallSynthesizer::planner_info().name;
  const std::string& name = synthesis.planner.empty() ? algorithm.info.default_planner : synthesis.planner;
  if (algorithm.is_joint()) {
    if (name != joint_planner && name != PatternSynthesizer::kAutoPlanner) {
      throw Error("synthesis.planner: algorithm '" + algorithm.info.name +
                  "' chooses its topologies and rounds itself; it runs with planner 'joint' only (got '" + name + "')");
    }
    if (synthesis.static_topology) {
      throw Error("synthesis.static_topology: algorithm '" + algorithm.info.name +
                  "' chooses its own topologies; synthesis.topology is what the fabric holds before the first");
    }
    return;
  }
  if (name == joint_planner) {
    throw Error(
        "synthesis.planner: planner 'joint' needs an algorithm that chooses topologies and rounds together (valid: " +
        algorithm_names(joint) + "); '" + algorithm.info.name + "' does not");
  }
  if (synthesis.reconfigurations) {
    throw Error("synthesis.reconfigurations: applies to the joint synthesizers (" + algorithm_names(joint) +
                "), not to '" + algorithm.info.name + "'");
  }
  if (name == PatternSynthesizer::kAutoPlanner) return;
  std::vector<std::string> valid;
  for (const PlannerInfo& p : planner_infos()) {
    if (p.name == name) return;
    valid.push_back(p.name);
  }
  throw Error("synthesis.planner: unknown planner " + quoted(name) + " (valid: " + joined(valid) + ")");
}

std::unique_ptr<Synthesizer> SynthesizerRegistry::synthesizer(const WorkloadSpec& workload,
                                                              const SynthesisSpec& synthesis) const {
  const AlgorithmEntry& algo = algorithm(synthesis.algorithm);
  const std::vector<Collective>& collectives = algo.info.collectives;
  if (std::find(collectives.begin(), collectives.end(), workload.collective) == collectives.end()) {
    std::string valid;
    for (Collective c : collectives) valid += (valid.empty() ? "" : ", ") + std::string(to_string(c));
    throw Error("synthesis.algorithm: '" + algo.info.name + "' does not implement workload.collective '" +
                to_string(workload.collective) + "' (it implements: " + valid + ")");
  }
  if (workload.distribution != FlowDistribution::uniform && !algo.info.sized_flows) {
    throw Error("workload.distribution: '" + std::string(to_string(workload.distribution)) +
                "' needs an algorithm with per-pair flow sizes (valid: " + algorithm_names(sized_flows) + "); '" +
                algo.info.name + "' sends equal blocks");
  }
  check_planner(algo, synthesis);
  if (algo.is_joint()) return std::make_unique<JointAlltoallSynthesizer>(*algo.joint, topologies_);
  return std::make_unique<PatternSynthesizer>(*algo.algorithm, planners_, topologies_);
}

Schedule SynthesizerRegistry::synthesize(const FabricSpec& fabric, const WorkloadSpec& workload,
                                         const SynthesisSpec& synthesis, uint64_t seed, WorkProgress* progress) const {
  const std::unique_ptr<Synthesizer> chosen = synthesizer(workload, synthesis);
  // Every planner plans on the switches that survive the failures known now;
  // the physical layer is the configured fabric's (its transceivers and MZIs).
  const FabricSpec planned = planning_fabric(fabric);
  return chosen->synthesize(SynthesisRequest{planned, workload, synthesis, seed, physical_layer_of(fabric), progress});
}

Schedule SynthesizerRegistry::synthesize_point_to_point(const FabricSpec& fabric, Bytes bytes) const {
  if (!point_to_point_) throw Error("no point-to-point synthesizer is registered");
  FabricSpec pair = planning_fabric(fabric);
  pair.gpus = 2;
  WorkloadSpec workload;
  workload.message = bytes;
  const SynthesisSpec synthesis;
  return point_to_point_->synthesize(SynthesisRequest{pair, workload, synthesis, 1, nullptr});
}

std::vector<PlanCandidate> SynthesizerRegistry::plan_all(const FabricSpec& fabric, const WorkloadSpec& workload,
                                                         const SynthesisSpec& synthesis, uint64_t seed,
                                                         CandidateDetail detail, WorkProgress* progress) const {
  const std::unique_ptr<Synthesizer> chosen = synthesizer(workload, synthesis);
  const FabricSpec planned = planning_fabric(fabric);
  return chosen->candidates(SynthesisRequest{planned, workload, synthesis, seed, physical_layer_of(fabric), progress},
                            detail);
}

}  // namespace photonsim
