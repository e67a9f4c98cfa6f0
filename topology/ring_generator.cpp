#include "topology/ring_generator.h"

#include "core/error.h"

namespace photonsim {

Topology make_ring(const TopologySpec& spec, const FabricSpec& fabric) {
  bool bidirectional = fabric.circuits == CircuitKind::bidirectional;
  for (const auto& [key, value] : spec.params) {
    if (key != "bidirectional") {
      throw Error("topology 'ring' has no parameter '" + key + "' (valid: bidirectional)");
    }
    if (value == "true") {
      bidirectional = true;
    } else if (value == "false") {
      bidirectional = false;
    } else {
      throw Error("topology 'ring' parameter 'bidirectional' must be true or false, got '" +
                  value + "'");
    }
  }
  const int n = fabric.gpus;
  std::vector<Edge> edges;
  for (int u = 0; u < n; ++u) {
    const Node v = static_cast<Node>((u + 1) % n);
    edges.push_back({static_cast<Node>(u), v});
    if (bidirectional && n > 2) edges.push_back({v, static_cast<Node>(u)});
  }
  return Topology(bidirectional ? "bidirectional_ring" : "ring", n, std::move(edges));
}

}  // namespace photonsim
