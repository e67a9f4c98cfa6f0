#include <numeric>

#include "topology/generators.h"

namespace photonsim {

Topology make_shifted_ring(const ComponentParams& params, const GeneratorContext& context) {
  const int n = context.gpus();
  const int64_t shift = params.integer("shift", 1);
  if (shift % n == 0) params.fail("shift", "must not be a multiple of n = " + std::to_string(n));
  const bool bidirectional = params.boolean("bidirectional", context.bidirectional_circuits());
  std::vector<Node> base(static_cast<size_t>(n));
  std::iota(base.begin(), base.end(), Node{0});
  if (params.has("base")) {
    const std::vector<int64_t> given = params.integers("base");
    if (given.size() != base.size()) {
      params.fail("base", "must list all " + std::to_string(n) + " nodes once, got " + std::to_string(given.size()) +
                              " entries");
    }
    std::vector<bool> seen(base.size(), false);
    for (size_t i = 0; i < given.size(); ++i) {
      if (given[i] < 0 || given[i] >= n || seen[static_cast<size_t>(given[i])]) {
        params.fail("base", "must be a permutation of 0.." + std::to_string(n - 1));
      }
      seen[static_cast<size_t>(given[i])] = true;
      base[i] = static_cast<Node>(given[i]);
    }
  }
  const int64_t s = ((shift % n) + n) % n;
  std::vector<Edge> edges;
  for (int i = 0; i < n; ++i) {
    const Node u = base[static_cast<size_t>(i)];
    const Node v = base[static_cast<size_t>((i + s) % n)];
    edges.push_back({u, v});
    if (bidirectional && 2 * s != n) edges.push_back({v, u});
  }
  return Topology("shifted_ring(" + std::to_string(shift) + ")", n, std::move(edges));
}

TopologyGenerator shifted_ring_generator() {
  return {"shifted_ring",
          "sigma_i -> sigma_{i+S}: the all-to-all paper's S-shifted ring (Fig. 6)",
          {ParameterSpec::integer("shift", 1, "S"),
           ParameterSpec::computed("base", ParameterType::integers, "0..n-1", "the sequence sigma_1..sigma_n"),
           ParameterSpec::computed("bidirectional", ParameterType::boolean, "fabric.circuits is bidirectional",
                                   "add the reverse circuits")},
          &make_shifted_ring};
}

}  // namespace photonsim
