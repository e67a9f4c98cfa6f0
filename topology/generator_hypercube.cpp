#include "topology/generators.h"

namespace photonsim {

Topology make_hypercube(const ComponentParams& params, const GeneratorContext& context) {
  const int n = context.gpus();
  if ((n & (n - 1)) != 0) params.fail("needs a power-of-two number of GPUs, fabric.gpus is " + std::to_string(n));
  std::vector<Edge> edges;
  for (int u = 0; u < n; ++u) {
    for (int bit = 1; bit < n; bit <<= 1) edges.push_back({static_cast<Node>(u), static_cast<Node>(u ^ bit)});
  }
  return Topology("hypercube", n, std::move(edges));
}

TopologyGenerator hypercube_generator() {
  return {"hypercube", "i <-> i xor 2^k for every bit k", {}, &make_hypercube, "n a power of two"};
}

}  // namespace photonsim
