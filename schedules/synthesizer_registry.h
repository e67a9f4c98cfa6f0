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
#include "schedules/collective_algorithm.h"
#include "schedules/planner.h"
#include "schedules/schedule.h"
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
  };
  std::vector<PlanOutcome> plan_all(const FabricSpec& fabric, const WorkloadSpec& workload,
                                    const SynthesisSpec& synthesis, uint64_t seed = 1) const;
  static constexpr const char* kAutoPlanner = "auto";

  const std::vector<AlgorithmEntry>& algorithms() const { return algorithms_; }
  const std::vector<PlannerEntry>& planners() const { return planners_; }
  const TopologyRegistry& topologies() const { return topologies_; }

 private:
  const AlgorithmEntry& algorithm(const std::string& name) const;
  const PlannerEntry& planner(const std::string& name) const;

  std::vector<AlgorithmEntry> algorithms_;
  std::vector<PlannerEntry> planners_;
  TopologyRegistry topologies_ = TopologyRegistry::with_builtin_generators();
};

}  // namespace photonsim
