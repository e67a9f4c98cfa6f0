#include "schedules/planners/every_step_planner.h"

#include <cstdint>
#include <string>
#include <vector>

#include "schedules/planners/port_split.h"
#include "schedules/model/topology_catalog.h"
#include "topology/step_circuits.h"

namespace photonsim {

PlannerInfo EveryStepPlanner::info() const {
  return {"every_step",
          "each step on its own circuits, split when over the port limit",
          {ParameterSpec::boolean("parallel", false,
                                  "repeat each pair's circuit over the ports the step leaves free and split its "
                                  "transfer over them (Harvest's BvN with integer x_{u,v})")}};
}

namespace {

Topology circuits_of(const std::vector<Transfer>& transfers, const FabricSpec& fabric, size_t step_index,
                     bool parallel) {
  std::vector<Edge> pairs;
  for (const Transfer& t : transfers) pairs.push_back({t.src, t.dst});
  std::string name = "step" + std::to_string(step_index);
  return parallel ? parallel_circuits_for_pairs(std::move(name), fabric, pairs)
                  : circuits_for_pairs(std::move(name), fabric.gpus, pairs, fabric.circuits);
}

// A direct transfer over k parallel circuits as k routes of equal bytes (the
// remainder on the first), which step_routes puts on the k circuits in turn.
void stripe_over_parallel_circuits(std::vector<Transfer>& transfers, const Topology& topology) {
  for (Transfer& t : transfers) {
    const int k = topology.multiplicity(t.src, t.dst);
    if (k < 2 || !t.path.empty() || !t.routes.empty() || t.bytes.count() == 0) continue;
    const int64_t share = t.bytes.count() / k;
    for (int r = 0; r < k; ++r) {
      t.routes.push_back(Route{{t.src, t.dst}, Bytes(share + (r == 0 ? t.bytes.count() - share * k : 0))});
    }
  }
}

}  // namespace

Schedule EveryStepPlanner::plan(const StepPattern& pattern, const PlanningInput& input) const {
  const bool parallel = input.params.boolean("parallel", false);
  TopologyCatalog catalog;
  ScheduleParts parts = schedule_header(pattern, input);
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  for (const auto& step : pattern.steps) {
    for (auto& group : split_to_ports(step, input.fabric)) {
      Topology topology = circuits_of(group, input.fabric, parts.steps.size(), parallel);
      topology.check_ports(input.fabric);
      if (parallel) stripe_over_parallel_circuits(group, topology);
      parts.steps.push_back(Step{catalog.index_of(topology), std::move(group)});
    }
  }
  parts.topologies = catalog.take();
  return Schedule(std::move(parts));
}

}  // namespace photonsim
