#pragma once
// Contract: the circuits that a set of (src, dst) transfers asks for: one
// circuit per distinct pair, plus its reverse when circuits are bidirectional.
// This is `from_step`: the every_step planner and synthesis.static_topology
// = from_step build their topologies here.
#include <string>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "topology/topology.h"

namespace photonsim {

Topology circuits_for_pairs(std::string name, int gpus, const std::vector<Edge>& pairs, CircuitKind kind);

}  // namespace photonsim
