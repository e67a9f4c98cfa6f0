#pragma once
// Contract: each circuit's line rate on a fabric (index i: topology.edges()[i]).
// fabric.bandwidth_scope = circuit: every circuit runs at fabric.bandwidth.
// gpu (PCCL's hardware, sec. 4.2): a GPU's bandwidth B is split over its k =
// fabric.ports transmitters (and receivers), B / k each, and a configuration
// gives each GPU's circuits all of them: a GPU with c circuits out gives each
// floor(k / c) transmitters, the k mod c spare ones one each to its circuits
// to the lowest-numbered peers; receivers are shared out alike over the
// circuits in. A circuit runs at B / k times the lanes both ends give it (the
// smaller share). So a round of one peer per GPU runs at B, a bidirectional
// ring at B / 2, a 3D torus at B / 6. Throws Error if a GPU has more circuits
// than ports (Topology::check_ports) or B is not a multiple of k bps.
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/units.h"
#include "topology/topology.h"

namespace photonsim {

std::vector<Bandwidth> circuit_rates(const Topology& topology, const FabricSpec& fabric);

// Transmitter-receiver lanes per circuit under the gpu scope (at least 1 each).
std::vector<int> circuit_lanes(const Topology& topology, int ports);

}  // namespace photonsim
