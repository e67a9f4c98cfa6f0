#include "schedules/alltoall/round_merging.h"

#include "schedules/cost/alpha_beta_congestion_model.h"

namespace photonsim {

namespace {

Time predicted(const StrategyRound& round, const Topology& topology, const FabricSpec& fabric,
               const WorkloadSpec& workload) {
  Step step{0, {}};
  for (const StrategyFlow& f : round.flows) {
    Transfer t;
    t.src = f.src;
    t.dst = f.dst;
    t.bytes = f.bytes;
    if (f.routes.size() == 1) {
      t.path = f.routes.front().path;
    } else if (f.routes.size() > 1) {
      t.routes = f.routes;
    }
    step.transfers.push_back(std::move(t));
  }
  return predict_alpha_beta_congestion_step(step, topology, 0, fabric, workload).total();
}

}  // namespace

AlltoallStrategy merge_rounds_by_prediction(const AlltoallStrategy& strategy, const FabricSpec& fabric,
                                            const WorkloadSpec& workload) {
  AlltoallStrategy out = strategy;
  out.rounds.clear();
  bool merged_any = false;
  for (size_t i = 0; i < strategy.rounds.size();) {
    StrategyRound group = strategy.rounds[i];
    const Topology& topology = strategy.topologies[static_cast<size_t>(group.topology)];
    Time group_time = predicted(group, topology, fabric, workload);
    size_t j = i + 1;
    for (; j < strategy.rounds.size() && strategy.rounds[j].topology == group.topology; ++j) {
      const StrategyRound& next = strategy.rounds[j];
      StrategyRound candidate = group;
      candidate.flows.insert(candidate.flows.end(), next.flows.begin(), next.flows.end());
      const Time together = predicted(candidate, topology, fabric, workload);
      if (together < group_time + predicted(next, topology, fabric, workload)) {
        group = std::move(candidate);
        group_time = together;
        merged_any = true;
      } else {
        out.rounds.push_back(std::move(group));
        group = next;
        group_time = predicted(group, topology, fabric, workload);
      }
    }
    out.rounds.push_back(std::move(group));
    i = j;
  }
  if (merged_any) {
    out.contention_free_rounds = false;
    out.construction += ", rounds merged for chunked flows";
  }
  return out;
}

}  // namespace photonsim
