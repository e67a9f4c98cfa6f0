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

// The same circuits repeated over the ports they leave free: a pair whose
// GPUs need c_u and c_v circuits (out and in for directed circuits, peers
// for bidirectional ones) gets min(ports / c_u, ports / c_v) parallel
// circuits, so a pairwise exchange on 2 ports puts both on the peer.
Topology parallel_circuits_for_pairs(std::string name, const FabricSpec& fabric, const std::vector<Edge>& pairs);

}  // namespace photonsim
