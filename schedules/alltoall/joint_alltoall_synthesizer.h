#pragma once
// Contract: joint all-to-all synthesis (the all-to-all paper) as a
// Synthesizer: the traffic matrix comes from the workload
// (alltoall_flow_sizes), the JointSynthesizer builds a strategy for every d it
// offers (or only synthesis.reconfigurations), each becomes a Schedule
// (strategy_schedule) predicted by alpha_beta_congestion - on contention-free
// rounds of one-chunk flows the paper's TotalCost = R*d + T*sum of round hop
// counts. synthesize() keeps the lowest predicted time (ties: fewer
// topologies); where the JointSynthesizer outlines its strategies
// (strategy_outline.h), d is chosen from the outlines' estimates and only the
// winner is built - O(rounds) memory per d instead of every route - and the
// winner's full prediction must equal its estimate (std::logic_error if not). The first topology is free when it equals synthesis.topology;
// with `none` every one is charged, as the paper counts the initial topology
// as a reconfiguration. Its planner is `joint`, whose one parameter is
// `chunks` (strategy_schedule.h).
#include <functional>
#include <optional>
#include <vector>

#include "schedules/algorithms/algorithm_info.h"
#include "schedules/alltoall/joint_synthesizer.h"
#include "schedules/planners/planner_info.h"
#include "schedules/synthesis/synthesizer.h"
#include "topology/topology_registry.h"

namespace photonsim {

class JointAlltoallSynthesizer : public Synthesizer {
 public:
  JointAlltoallSynthesizer(const JointSynthesizer& strategies, const TopologyRegistry& topologies)
      : strategies_(strategies), info_(strategies.info()), topologies_(topologies) {}

  static PlannerInfo planner_info();

  Schedule synthesize(const SynthesisRequest& request) const override;
  // One candidate per d, in order of d; a failure is one candidate with its error.
  // Summaries come from the outlines where there are some (nothing is built).
  std::vector<PlanCandidate> candidates(const SynthesisRequest& request,
                                        CandidateDetail detail = CandidateDetail::schedules) const override;
  // The same, handed over one at a time, so a caller keeping some of them holds
  // one schedule at a time (n = 64, k = 2 as chunk waves: 390 MiB for all at once).
  // Throws Error when no strategy can be built.
  void for_each_candidate(const SynthesisRequest& request, const std::function<void(PlanCandidate&&)>& visit) const;
  Schedule best_realisable(const SynthesisRequest& request) const;

 private:
  class Prepared;
  struct Outlined {
    int configurations = 0;
    Time estimated;
  };
  PlanCandidate candidate(AlltoallStrategy&& strategy, const Prepared& prepared) const;
  bool outlined_candidates(const Prepared& prepared, std::vector<PlanCandidate>& out) const;
  std::optional<Outlined> best_outlined(const Prepared& prepared) const;
  [[noreturn]] void no_strategy_for(const Prepared& prepared) const;

  const JointSynthesizer& strategies_;
  AlgorithmInfo info_;
  const TopologyRegistry& topologies_;
};

}  // namespace photonsim
