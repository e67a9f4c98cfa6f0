#pragma once
// Contract: a joint all-to-all synthesizer (the all-to-all paper and its
// baselines) chooses topologies and rounds together from the traffic matrix.
// configuration_counts() lists the numbers of configured topologies d it can
// build for this input (ascending); build(d) returns a strategy with exactly
// d topologies, every pair's demand delivered, every topology within
// fabric.ports. The joint planner picks d (synthesis.reconfigurations, or the
// lowest predicted time) and turns the strategy into a Schedule. Both throw
// Error for inputs the construction cannot handle, naming what is supported.
// info() and supports() describe it to the registry, as for a
// CollectiveAlgorithm (its collective is all-to-all, its planner `joint`).
// for_each_strategy() hands the same strategies, in the same order, one at a
// time, so a caller that predicts and drops each holds one strategy's memory
// instead of every d's; a synthesizer that can build its strategies one by one
// overrides it (the default builds them all, then hands them out).
// for_each_outline() describes the same strategies, in the same order, by
// their rounds' shapes (strategy_outline.h) where the synthesizer can do so
// without building them, and returns false (visiting nothing) where it cannot.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/units.h"
#include "core/work_progress.h"
#include "core/spec/workload_spec.h"
#include "schedules/algorithms/algorithm_info.h"
#include "schedules/alltoall/alltoall_strategy.h"
#include "schedules/alltoall/strategy_outline.h"
#include "topology/component_params.h"
#include "topology/topology.h"

namespace photonsim {

struct JointInput {
  const FabricSpec& fabric;
  const WorkloadSpec& workload;
  const std::vector<Bytes>& demand;  // row-major n x n bytes, zero diagonal
  const ComponentParams& params;     // the algorithm's validated parameters
  uint64_t seed = 1;
  WorkProgress* progress = nullptr;  // hears how a long construction advances
  int gpus() const { return fabric.gpus; }
  Bytes demand_at(Node s, Node t) const { return demand[static_cast<size_t>(s) * static_cast<size_t>(gpus()) + t]; }
  bool uniform() const;  // every off-diagonal entry equal
};

class JointSynthesizer {
 public:
  virtual ~JointSynthesizer() = default;
  virtual AlgorithmInfo info() const = 0;
  virtual bool supports(int gpus, int ports) const = 0;
  virtual std::vector<AlltoallStrategy> strategies(const JointInput& input, std::optional<int> only) const = 0;
  virtual void for_each_strategy(const JointInput& input, std::optional<int> only,
                                 const std::function<void(AlltoallStrategy&&)>& visit) const {
    for (AlltoallStrategy& s : strategies(input, only)) visit(std::move(s));
  }
  virtual bool for_each_outline(const JointInput& /*input*/, std::optional<int> /*only*/,
                                const std::function<void(StrategyOutline&&)>& /*visit*/) const {
    return false;
  }
};

}  // namespace photonsim
