#include "schedules/every_step_planner.h"

#include <algorithm>
#include <set>

#include "schedules/topology_catalog.h"
#include "topology/step_circuits.h"

namespace photonsim {

namespace {

// First-fit packing of a step's transfers into groups whose circuits fit the ports.
std::vector<std::vector<Transfer>> split_to_ports(const std::vector<Transfer>& transfers,
                                                  const FabricSpec& fabric) {
  struct Group {
    std::vector<Transfer> transfers;
    std::set<Edge> circuits;
    std::vector<int> out, in;
  };
  const bool bidirectional = fabric.circuits == CircuitKind::bidirectional;
  std::vector<Group> groups;
  for (const Transfer& t : transfers) {
    Group* home = nullptr;
    for (Group& g : groups) {
      if (g.circuits.count({t.src, t.dst}) ||
          (bidirectional && g.circuits.count({t.dst, t.src}))) {
        home = &g;
        break;
      }
      const bool fits = bidirectional
                            ? g.out[t.src] < fabric.ports && g.out[t.dst] < fabric.ports
                            : g.out[t.src] < fabric.ports && g.in[t.dst] < fabric.ports;
      if (fits) {
        home = &g;
        break;
      }
    }
    if (!home) {
      groups.push_back(Group{{}, {}, std::vector<int>(static_cast<size_t>(fabric.gpus), 0),
                             std::vector<int>(static_cast<size_t>(fabric.gpus), 0)});
      home = &groups.back();
    }
    if (!home->circuits.count({t.src, t.dst}) &&
        !(bidirectional && home->circuits.count({t.dst, t.src}))) {
      home->circuits.insert({t.src, t.dst});
      ++home->out[t.src];
      ++home->in[t.dst];
      if (bidirectional) {
        home->circuits.insert({t.dst, t.src});
        ++home->out[t.dst];
        ++home->in[t.src];
      }
    }
    home->transfers.push_back(t);
  }
  std::vector<std::vector<Transfer>> out;
  for (Group& g : groups) out.push_back(std::move(g.transfers));
  return out;
}

Topology circuits_of(const std::vector<Transfer>& transfers, const FabricSpec& fabric,
                     size_t step_index) {
  std::vector<Edge> pairs;
  for (const Transfer& t : transfers) pairs.push_back({t.src, t.dst});
  return circuits_for_pairs("step" + std::to_string(step_index), fabric.gpus, pairs, fabric.circuits);
}

}  // namespace

Schedule EveryStepPlanner::plan(const StepPattern& pattern, const PlanningInput& input) const {
  TopologyCatalog catalog;
  ScheduleParts parts;
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  for (const auto& step : pattern.steps) {
    for (auto& group : split_to_ports(step, input.fabric)) {
      Topology topology = circuits_of(group, input.fabric, parts.steps.size());
      topology.check_ports(input.fabric);
      parts.steps.push_back(Step{catalog.index_of(topology), std::move(group)});
    }
  }
  parts.collective = input.workload.collective;
  parts.algorithm = input.algorithm;
  parts.planner = input.planner;
  parts.gpus = input.fabric.gpus;
  parts.message = input.workload.message;
  parts.blocks = pattern.blocks;
  parts.root = input.workload.root;
  parts.topologies = catalog.take();
  return Schedule(std::move(parts));
}

}  // namespace photonsim
