#include <algorithm>
#include <numeric>
#include <set>

#include "core/rng.h"
#include "core/shuffle.h"
#include "topology/generators.h"

namespace photonsim {

namespace {

// A uniformly random permutation without fixed points (rejection sampling:
// about e tries on average), drawn with Fisher-Yates from `rng`.
std::vector<Node> random_derangement(int n, Rng& rng) {
  std::vector<Node> p(static_cast<size_t>(n));
  for (;;) {
    std::iota(p.begin(), p.end(), Node{0});
    shuffle_with(p, rng);
    bool fixed_point = false;
    for (size_t i = 0; i < p.size(); ++i) fixed_point = fixed_point || p[i] == i;
    if (!fixed_point) return p;
  }
}

}  // namespace

Topology make_random_regular(const ComponentParams& params, const GeneratorContext& context) {
  const int n = context.gpus();
  const int64_t degree = params.integer("degree", context.fabric.ports);
  if (degree < 1 || degree >= n) {
    params.fail("degree", "must be in 1.." + std::to_string(n - 1) + ", got " + std::to_string(degree));
  }
  const uint64_t seed = static_cast<uint64_t>(params.integer("seed", static_cast<int64_t>(context.seed)));
  Rng rng(seed);
  std::set<Edge> used;
  std::vector<Edge> edges;
  constexpr int kTriesPerPermutation = 200;
  for (int64_t layer = 0; layer < degree; ++layer) {
    // Prefer a derangement that adds no parallel circuit; after many tries accept one
    // anyway, so the result is always degree-regular (a multigraph in the worst case).
    std::vector<Node> chosen;
    for (int attempt = 0; attempt < kTriesPerPermutation; ++attempt) {
      std::vector<Node> p = random_derangement(n, rng);
      bool clash = false;
      for (int u = 0; u < n && !clash; ++u) clash = used.count({static_cast<Node>(u), p[static_cast<size_t>(u)]}) > 0;
      chosen = std::move(p);
      if (!clash) break;
    }
    for (int u = 0; u < n; ++u) {
      const Edge e{static_cast<Node>(u), chosen[static_cast<size_t>(u)]};
      used.insert(e);
      edges.push_back(e);
    }
  }
  return Topology("random_regular(" + std::to_string(degree) + ",seed=" + std::to_string(seed) + ")", n,
                  std::move(edges));
}

TopologyGenerator random_regular_generator() {
  return {"random_regular",
          "union of D seeded random derangements (an expander), avoiding parallel circuits",
          {ParameterSpec::computed("degree", ParameterType::integer, "fabric.ports", "D"),
           ParameterSpec::computed("seed", ParameterType::integer, "the experiment seed", "the derangements' seed")},
          &make_random_regular};
}

}  // namespace photonsim
