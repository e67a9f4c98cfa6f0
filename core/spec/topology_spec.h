#pragma once
// Contract: a topology as YAML names it (synthesis.topology, a planner's
// candidates): the generator's name and its parameters, validated by the
// generator (topology/topology_registry.h), not here.
#include <map>
#include <string>

namespace photonsim {

struct TopologySpec {
  std::string type = "none";                  // generator name; "none" = no circuits
  std::map<std::string, std::string> params;  // generator parameters, validated by it
};

}  // namespace photonsim
