#pragma once
// Contract: planner `joint`, for the synthesizers that choose topologies and
// rounds together (PlanningInput::joint). The pattern is read as the traffic
// matrix; every d the synthesizer offers (or only synthesis.reconfigurations)
// is built, turned into a Schedule - one step per round, explicit routes,
// block src*n+dst per pair (split pairs travel in pieces) - and predicted by
// alpha_beta_congestion, which on contention-free rounds of one-chunk flows
// is the paper's TotalCost = R*d + T*sum of round hop counts. plan() keeps the
// lowest predicted time (ties: fewer topologies). The first topology is free
// when it equals synthesis.topology; with `none` every one is charged, as
// the paper counts the initial topology as a reconfiguration.
// Parameter `chunks`: `pipelined` (the paper's htsim runs: a round sends all
// its chunks, smaller chunk index first, no barrier between them), `waves`: a
// round of flows of up to c chunks runs as c steps, step j carrying chunk j of
// every flow, so each step is the paper's one-chunk round and the time is
// exactly TotalCost = R*d + T * sum of c * hops on contention-free rounds
// (multipath flows are not cut into waves), or `auto` (default): waves for
// contention-free rounds of equal flows when k > 1, pipelined otherwise.
#include <functional>
#include <vector>

#include "schedules/alltoall/alltoall_strategy.h"
#include "schedules/planners/planner.h"

namespace photonsim {

class JointPlanner : public Planner {
 public:
  struct Candidate {
    int configurations = 0;  // d
    int64_t hop_sum = 0;     // transmission in units of T; -1 when rounds are not contention-free
    std::string construction;
    Schedule schedule;
  };

  Schedule plan(const StepPattern& pattern, const PlanningInput& input) const override;
  // Every d the synthesizer offers (or the requested one), each predicted, in order of d.
  static std::vector<Candidate> candidates(const StepPattern& pattern, const PlanningInput& input);
  // The same, handed over one at a time, so a caller that keeps only some of
  // them holds one schedule at a time (n = 64, k = 2 as chunk waves: 390 MiB
  // for all of them at once).
  static void for_each_candidate(const StepPattern& pattern, const PlanningInput& input,
                                 const std::function<void(Candidate&&)>& visit);
  static Schedule to_schedule(const AlltoallStrategy& strategy, const StepPattern& pattern,
                              const PlanningInput& input);
  static std::vector<std::string> parameters() { return {"chunks"}; }
  static std::string usage() { return "chunks=auto|pipelined|waves (default auto: waves for contention-free rounds of equal flows on k > 1 ports, else pipelined)"; }
};

}  // namespace photonsim
