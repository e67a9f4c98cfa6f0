#include "topology/generators.h"

namespace photonsim {

Topology make_complete(const ComponentParams&, const GeneratorContext& context) {
  const int n = context.gpus();
  std::vector<Edge> edges;
  for (int u = 0; u < n; ++u) {
    for (int v = 0; v < n; ++v) {
      if (u != v) edges.push_back({static_cast<Node>(u), static_cast<Node>(v)});
    }
  }
  return Topology("complete", n, std::move(edges));
}

TopologyGenerator complete_generator() {
  return {"complete", "every ordered pair: n-1 circuits per GPU", {}, &make_complete};
}

}  // namespace photonsim
