#pragma once
// Contract: the ring 0 -> 1 -> ... -> n-1 -> 0 (the all-to-all paper's base
// n-cycle for k = 1), plus the reverse circuits when `bidirectional` is true.
#include "core/fabric_spec.h"
#include "core/synthesis_spec.h"
#include "topology/topology.h"

namespace photonsim {

Topology make_ring(const TopologySpec& spec, const FabricSpec& fabric);

}  // namespace photonsim
