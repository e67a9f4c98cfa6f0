#include "topology/generators.h"

namespace photonsim {

Topology make_ring(const ComponentParams& params, const GeneratorContext& context) {
  const bool bidirectional = params.boolean("bidirectional", context.bidirectional_circuits());
  const int n = context.gpus();
  std::vector<Edge> edges;
  for (int u = 0; u < n; ++u) {
    const Node v = static_cast<Node>((u + 1) % n);
    edges.push_back({static_cast<Node>(u), v});
    // With n = 2 the forward circuits already join both ways.
    if (bidirectional && n > 2) edges.push_back({v, static_cast<Node>(u)});
  }
  return Topology(bidirectional ? "bidirectional_ring" : "ring", n, std::move(edges));
}

TopologyGenerator ring_generator() {
  return {"ring",
          "cycle 0 -> 1 -> ... -> n-1 -> 0, with the reverse circuits when bidirectional",
          {ParameterSpec::computed("bidirectional", ParameterType::boolean, "fabric.circuits is bidirectional",
                                   "add the reverse circuits")},
          &make_ring};
}

}  // namespace photonsim
