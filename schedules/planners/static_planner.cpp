#include "schedules/planners/static_planner.h"

#include <map>

#include "core/error.h"
#include "schedules/model/topology_catalog.h"
#include "topology/shortest_path_router.h"

namespace photonsim {

std::vector<std::vector<Transfer>> rounds_by_hops(const StepPattern& pattern, const Topology& topology,
                                                  const std::string& planner) {
  ShortestPathRouter router(topology);
  std::map<int, std::vector<Transfer>> by_hops;
  for (const auto& step : pattern.steps) {
    for (const Transfer& t : step) {
      const int hops = router.hops(t.src, t.dst);
      if (hops < 0) {
        throw Error("planner '" + planner + "': no route from node " + std::to_string(t.src) + " to node " +
                    std::to_string(t.dst) + " on topology '" + topology.name() + "'");
      }
      by_hops[hops].push_back(t);
    }
  }
  std::vector<std::vector<Transfer>> rounds;
  rounds.reserve(by_hops.size());
  for (auto& [hops, transfers] : by_hops) rounds.push_back(std::move(transfers));
  return rounds;
}

PlannerInfo StaticPlanner::info() const {
  return {"static", "every step on one topology (synthesis.static_topology or synthesis.topology)"};
}

Schedule StaticPlanner::plan(const StepPattern& pattern, const PlanningInput& input) const {
  if (!input.static_topology) {
    throw Error(
        "planner 'static' needs a topology: set synthesis.topology or "
        "synthesis.static_topology to a topology other than none");
  }
  const Topology& topology = *input.static_topology;
  topology.check_ports(input.fabric);
  TopologyCatalog catalog;
  ScheduleParts parts = schedule_header(pattern, input);
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  const int index = catalog.index_of(topology);

  if (pattern.independent_steps) {
    for (auto& transfers : rounds_by_hops(pattern, topology, "static"))
      parts.steps.push_back(Step{index, std::move(transfers)});
  } else {
    for (const auto& step : pattern.steps) parts.steps.push_back(Step{index, step});
  }
  parts.topologies = catalog.take();
  return Schedule(std::move(parts));
}

}  // namespace photonsim
