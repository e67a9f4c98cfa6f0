#include "topology/generators.h"

namespace photonsim {

Topology make_de_bruijn(const ComponentParams& params, const GeneratorContext& context) {
  const int n = context.gpus();
  const int64_t d = params.integer("degree", context.fabric.ports);
  if (d < 1 || d >= n) {
    params.fail("degree", "must be in 1.." + std::to_string(n - 1) + " for n = " + std::to_string(n) + ", got " +
                              std::to_string(d));
  }
  std::vector<Edge> edges;
  for (int64_t x = 0; x < n; ++x) {
    for (int64_t a = 0; a < d; ++a) {
      const int64_t y = (d * x + a) % n;
      // (d-1)x + a = 0 (mod n) would be a self-loop (e.g. 0 -> 0): that port stays dark.
      if (y != x) edges.push_back({static_cast<Node>(x), static_cast<Node>(y)});
    }
  }
  return Topology("de_bruijn(" + std::to_string(d) + ")", n, std::move(edges));
}

TopologyGenerator de_bruijn_generator() {
  return {"de_bruijn",
          "generalized de Bruijn x -> (D*x + a) mod n, a = 0..D-1; self-loops dropped",
          {ParameterSpec::computed("degree", ParameterType::integer, "fabric.ports", "D, 1 <= D < n")},
          &make_de_bruijn};
}

}  // namespace photonsim
