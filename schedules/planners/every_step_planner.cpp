#include "schedules/planners/every_step_planner.h"

#include "schedules/planners/port_split.h"
#include "schedules/model/topology_catalog.h"
#include "topology/step_circuits.h"

namespace photonsim {

PlannerInfo EveryStepPlanner::info() const {
  return {"every_step", "each step on its own circuits, split when over the port limit"};
}

namespace {

Topology circuits_of(const std::vector<Transfer>& transfers, const FabricSpec& fabric, size_t step_index) {
  std::vector<Edge> pairs;
  for (const Transfer& t : transfers) pairs.push_back({t.src, t.dst});
  return circuits_for_pairs("step" + std::to_string(step_index), fabric.gpus, pairs, fabric.circuits);
}

}  // namespace

Schedule EveryStepPlanner::plan(const StepPattern& pattern, const PlanningInput& input) const {
  TopologyCatalog catalog;
  ScheduleParts parts = schedule_header(pattern, input);
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  for (const auto& step : pattern.steps) {
    for (auto& group : split_to_ports(step, input.fabric)) {
      Topology topology = circuits_of(group, input.fabric, parts.steps.size());
      topology.check_ports(input.fabric);
      parts.steps.push_back(Step{catalog.index_of(topology), std::move(group)});
    }
  }
  parts.topologies = catalog.take();
  return Schedule(std::move(parts));
}

}  // namespace photonsim
