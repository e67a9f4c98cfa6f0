#pragma once
// Contract: a planner places a StepPattern on the fabric: it decides which
// topology each step runs on (a reconfiguration wherever it changes) and
// returns the Schedule. A planner with its own cost model (Harvest, PCCL,
// ReTri segments) returns the Schedule with that model's Prediction, one
// entry per step; otherwise it leaves the prediction empty and the
// synthesizer applies alpha_beta_congestion. It throws Error when the
// pattern cannot be placed under the port limits.
#include <memory>
#include <optional>
#include <string>

#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/schedule.h"
#include "schedules/model/step_pattern.h"
#include "schedules/planners/planner_info.h"
#include "topology/component_params.h"
#include "topology/physical/physical_layer.h"
#include "topology/topology.h"

namespace photonsim {

struct PlanningInput {
  FabricSpec fabric;
  WorkloadSpec workload;
  std::string algorithm;
  std::string planner;
  ComponentParams params{"", {}, std::vector<ParameterSpec>{}, "planner"};  // the planner's validated parameters
  uint64_t seed = 1;                                                        // the experiment seed
  std::optional<Topology> initial;                                          // what the fabric holds before step 0
  std::optional<Topology> static_topology;                                  // for planners that keep one topology
  // fabric.physical's hardware: a configuration it cannot route does not
  // exist for any planner; null = every configuration within the ports does.
  std::shared_ptr<const PhysicalLayer> physical;
};

// Why `topology` does not exist on the input's hardware; empty when it does
// (always, without fabric.physical).
inline std::optional<std::string> unrealisable(const PlanningInput& input, const Topology& topology) {
  if (!input.physical) return std::nullopt;
  return input.physical->why_not(topology);
}

// The parts every planned schedule shares (collective, names, size, blocks,
// root), so a planner only adds its topologies and steps.
inline ScheduleParts schedule_header(const StepPattern& pattern, const PlanningInput& input) {
  ScheduleParts parts;
  parts.collective = input.workload.collective;
  parts.algorithm = input.algorithm;
  parts.planner = input.planner;
  parts.gpus = input.fabric.gpus;
  parts.message = input.workload.message;
  parts.blocks = pattern.blocks;
  parts.block_sizes = pattern.block_sizes;
  parts.block_parts = pattern.block_parts;
  parts.custom = pattern.custom;
  parts.root = input.workload.root;
  return parts;
}

class Planner {
 public:
  virtual ~Planner() = default;
  virtual PlannerInfo info() const = 0;
  virtual Schedule plan(const StepPattern& pattern, const PlanningInput& input) const = 0;
};

}  // namespace photonsim
