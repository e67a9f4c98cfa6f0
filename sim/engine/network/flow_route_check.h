#pragma once
// Contract: the one check of a flow's route that every data plane makes when
// the flow is added: each circuit installed and lit, each starting where the
// previous one ends, and a route for any bytes; std::logic_error naming the
// flow (`id`) otherwise, so a packet only ever travels on lit circuits, from
// where it is. `circuit(c)` gives circuit c's {lit, from, to}.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/engine/network/flow_spec.h"
#include "topology/topology.h"

namespace photonsim {

struct RoutedCircuit {
  bool lit;
  Node from;
  Node to;
};

template <typename CircuitOf>
void check_flow_route(const FlowSpec& spec, uint32_t id, size_t circuits, CircuitOf circuit_of) {
  for (size_t hop = 0; hop < spec.route.size(); ++hop) {
    const uint32_t circuit = spec.route[hop];
    if (circuit >= circuits) throw std::logic_error("flow routed over a circuit not installed");
    const RoutedCircuit here = circuit_of(circuit);
    if (!here.lit) {
      throw std::logic_error("flow " + std::to_string(id) + " routed over dark circuit " + std::to_string(circuit));
    }
    if (hop == 0) continue;
    const RoutedCircuit previous = circuit_of(spec.route[hop - 1]);
    if (previous.to != here.from) {
      throw std::logic_error("flow " + std::to_string(id) + ": hop " + std::to_string(hop) + " leaves node " +
                             std::to_string(here.from) + " but the packet is at node " + std::to_string(previous.to));
    }
  }
  if (spec.bytes.count() > 0 && spec.route.empty()) {
    throw std::logic_error("flow " + std::to_string(id) + " carries bytes but has no route");
  }
}

}  // namespace photonsim
