#pragma once
// Contract: which synthesizer builds the schedule (YAML `synthesis.*`).
// Names are validated by the registries that own them, not here.
#include <map>
#include <optional>
#include <string>

#include "core/spec/topology_spec.h"

namespace photonsim {

struct SynthesisSpec {
  std::string algorithm;
  // Algorithm parameters (synthesis.algorithm given as a map {type: NAME, ...}),
  // validated by the algorithm.
  std::map<std::string, std::string> algorithm_params;
  std::string planner;  // empty = the algorithm's default planner
  // Planner parameters (synthesis.planner given as a map {type: NAME, ...}).
  std::map<std::string, std::string> planner_params;
  // What the fabric holds before the first step; "none" = no circuits, so the
  // first step's configuration is a charged reconfiguration.
  TopologySpec topology;
  // The topology a static planner runs every step on; unset = `topology`.
  // Lets a schedule start unconfigured and still run on one fixed topology
  // (the all-to-all paper's Figure 4 counts that first setup as a reconfiguration).
  std::optional<TopologySpec> static_topology;
  // How many topologies a joint synthesizer configures (the all-to-all
  // paper's d, the initial one included); unset = auto: the d with the lowest
  // predicted time for fabric.reconfig_delay.
  std::optional<int> reconfigurations;
};

}  // namespace photonsim
