#pragma once
// Contract: pattern-plus-planner synthesis as a Synthesizer: the collective
// algorithm's StepPattern, placed by the planner (synthesis.planner, else the
// algorithm's default), predicted by the planner's own model or else
// alpha_beta_congestion. Planner `auto` tries every planner but `exhaustive`
// (candidates()) and keeps the lowest predicted time. synthesis.topology is
// what the fabric holds before step 0; synthesis.static_topology (default:
// synthesis.topology) is what `static` keeps, where {type: from_step, step: K}
// means the circuits step K asks for.
#include <memory>
#include <string>
#include <vector>

#include "schedules/algorithms/collective_algorithm.h"
#include "schedules/planners/planner.h"
#include "schedules/synthesis/synthesizer.h"
#include "topology/topology_registry.h"

namespace photonsim {

class PatternSynthesizer : public Synthesizer {
 public:
  struct PlannerChoice {
    PlannerInfo info;
    std::shared_ptr<const Planner> planner;
  };
  PatternSynthesizer(const CollectiveAlgorithm& algorithm, const std::vector<PlannerChoice>& planners,
                     const TopologyRegistry& topologies)
      : algorithm_(algorithm), info_(algorithm.info()), planners_(planners), topologies_(topologies) {}

  static constexpr const char* kAutoPlanner = "auto";
  static PlannerInfo auto_planner_info();

  Schedule synthesize(const SynthesisRequest& request) const override;
  std::vector<PlanCandidate> candidates(const SynthesisRequest& request,
                                        CandidateDetail detail = CandidateDetail::schedules) const override;

 private:
  Schedule plan_with(const PlannerChoice& planner, const SynthesisRequest& request) const;
  const PlannerChoice& planner_named(const std::string& name) const;

  const CollectiveAlgorithm& algorithm_;
  AlgorithmInfo info_;
  const std::vector<PlannerChoice>& planners_;
  const TopologyRegistry& topologies_;
};

}  // namespace photonsim
