#include "topology/generators.h"

namespace photonsim {

Topology make_generalized_kautz(const ComponentParams& params, const GeneratorContext& context) {
  const int n = context.gpus();
  const int64_t d = params.integer("degree", context.fabric.ports);
  if (d < 1 || d >= n) {
    params.fail("degree", "must be in 1.." + std::to_string(n - 1) + " for n = " + std::to_string(n) + ", got " +
                              std::to_string(d));
  }
  std::vector<Edge> edges;
  for (int64_t x = 0; x < n; ++x) {
    for (int64_t a = 1; a <= d; ++a) {
      const int64_t y = (((-d * x - a) % n) + n) % n;
      // (d+1)x = -a (mod n) would be a self-loop: that port stays dark.
      if (y != x) edges.push_back({static_cast<Node>(x), static_cast<Node>(y)});
    }
  }
  return Topology("generalized_kautz(" + std::to_string(d) + ")", n, std::move(edges));
}

TopologyGenerator generalized_kautz_generator() {
  return {"generalized_kautz",
          "Imase-Itoh x -> (-D*x - a) mod n, a = 1..D; self-loops dropped (that port stays dark)",
          {ParameterSpec::computed("degree", ParameterType::integer, "fabric.ports", "D, 1 <= D < n")},
          &make_generalized_kautz};
}

}  // namespace photonsim
