#pragma once
// Contract: algorithms and planners keyed by their YAML names
// (synthesis.algorithm, synthesis.planner). synthesize() is the pure data path
// specs -> pattern -> planned Schedule -> Schedule with Prediction; it throws
// Error for an unknown name (listing the valid ones), a collective the
// algorithm does not implement, or a plan that breaks the fabric's limits.
// Registries are values built by with_builtins(); adding a synthesizer means
// one new file and one add() line in builtin_synthesizers.cpp.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/fabric_spec.h"
#include "core/synthesis_spec.h"
#include "core/workload_spec.h"
#include "schedules/algorithms/collective_algorithm.h"
#include "schedules/alltoall/joint_planner.h"
#include "schedules/alltoall/joint_synthesizer.h"
#include "schedules/planners/planner.h"
#include "schedules/model/schedule.h"
#include "topology/topology_registry.h"

namespace photonsim {

class SynthesizerRegistry {
 public:
  struct AlgorithmEntry {
    std::string name;
    std::vector<Collective> collectives;
    std::string default_planner;
    std::string description;
    std::function<std::unique_ptr<CollectiveAlgorithm>()> make;
    std::vector<std::string> parameters = {};  // accepted parameter keys
    std::string usage = {};                    // one line: parameters with values and defaults
    // Joint synthesizers (planner `joint`) choose topologies and rounds
    // together; `make` then yields the traffic matrix as direct all-to-all.
    std::function<std::unique_ptr<JointSynthesizer>()> make_joint = {};
    bool sized_flows = false;  // accepts workload.distribution other than uniform
  };
  struct PlannerEntry {
    std::string name;
    std::string description;
    std::function<std::unique_ptr<Planner>()> make;
    std::vector<std::string> parameters = {};  // accepted parameter keys
    std::string usage = {};
  };

  static SynthesizerRegistry with_builtins();

  void add_algorithm(AlgorithmEntry entry) { algorithms_.push_back(std::move(entry)); }
  // A joint all-to-all synthesizer: default planner `joint`, per-pair flow sizes.
  void add_joint_algorithm(std::string name, std::string description,
                           std::function<std::unique_ptr<JointSynthesizer>()> make_joint,
                           std::vector<std::string> parameters = {}, std::string usage = {});
  void add_planner(PlannerEntry entry) { planners_.push_back(std::move(entry)); }

  // `seed` feeds randomised topology generators (the experiment seed).
  // Planner `auto` runs every registered planner but `exhaustive` and keeps the
  // lowest predicted time.
  Schedule synthesize(const FabricSpec& fabric, const WorkloadSpec& workload,
                      const SynthesisSpec& synthesis, uint64_t seed = 1) const;

  // What each planner (all but `exhaustive`) makes of this synthesis, or why it cannot.
  struct PlanOutcome {
    std::string planner;
    std::optional<Schedule> schedule;
    std::string error;
    int64_t hop_sum = -1;       // joint synthesizers: transmission in units of T
    std::string construction = {};  // joint synthesizers: how the strategy was built
  };
  // For a joint synthesizer: one outcome per number of topologies d ("joint d=3").
  std::vector<PlanOutcome> plan_all(const FabricSpec& fabric, const WorkloadSpec& workload,
                                    const SynthesisSpec& synthesis, uint64_t seed = 1) const;
  // A joint synthesizer's strategy for every d it builds (or synthesis.reconfigurations), predicted.
  std::vector<JointPlanner::Candidate> joint_candidates(const FabricSpec& fabric, const WorkloadSpec& workload,
                                                        const SynthesisSpec& synthesis, uint64_t seed = 1) const;
  std::string joint_names() const;       // the algorithms with make_joint
  std::string sized_flow_names() const;  // the algorithms accepting workload.distribution
  static constexpr const char* kAutoPlanner = "auto";
  static constexpr const char* kJointPlanner = "joint";

  const std::vector<AlgorithmEntry>& algorithms() const { return algorithms_; }
  const std::vector<PlannerEntry>& planners() const { return planners_; }
  const TopologyRegistry& topologies() const { return topologies_; }

 private:
  // Everything a planner needs, kept alive together.
  struct Prepared {
    const PlannerEntry* planner = nullptr;
    std::shared_ptr<ComponentParams> algorithm_params;
    std::unique_ptr<JointSynthesizer> joint;
    StepPattern pattern;
    PlanningInput input;
  };
  Prepared prepare(const FabricSpec& fabric, const WorkloadSpec& workload, const SynthesisSpec& synthesis,
                   uint64_t seed, const std::string& planner_name) const;
  const AlgorithmEntry& algorithm(const std::string& name) const;
  const PlannerEntry& planner(const std::string& name) const;

  std::vector<AlgorithmEntry> algorithms_;
  std::vector<PlannerEntry> planners_;
  TopologyRegistry topologies_ = TopologyRegistry::with_builtin_generators();
};

}  // namespace photonsim
