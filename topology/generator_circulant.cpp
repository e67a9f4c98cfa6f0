#include "topology/generators.h"

namespace photonsim {

Topology make_circulant(const ComponentParams& params, const GeneratorContext& context) {
  const int n = context.gpus();
  const std::vector<int64_t> generators = params.integers("generators");
  if (generators.empty()) params.fail("generators", "must not be empty");
  const bool bidirectional = params.boolean("bidirectional", context.bidirectional_circuits());
  std::vector<Edge> edges;
  std::string label;
  for (int64_t g : generators) {
    const int64_t step = ((g % n) + n) % n;
    if (step == 0)
      params.fail("generators", std::to_string(g) + " is a multiple of n = " + std::to_string(n) + " (a self-loop)");
    label += (label.empty() ? "" : ",") + std::to_string(g);
    for (int u = 0; u < n; ++u) {
      const Node v = static_cast<Node>((u + step) % n);
      edges.push_back({static_cast<Node>(u), v});
      if (bidirectional && 2 * step != n) edges.push_back({v, static_cast<Node>(u)});
    }
  }
  return Topology("circulant(" + label + ")", n, std::move(edges));
}

TopologyGenerator circulant_generator() {
  return {"circulant",
          "i -> i + g mod n for each generator g; strongly connected iff gcd(n, g1, g2, ...) = 1",
          {ParameterSpec::computed("generators", ParameterType::integers, "", "[g1, g2, ...]"),
           ParameterSpec::computed("bidirectional", ParameterType::boolean, "fabric.circuits is bidirectional",
                                   "add the reverse circuits")},
          &make_circulant};
}

}  // namespace photonsim
