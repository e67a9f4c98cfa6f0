#include <algorithm>
#include <set>

#include "topology/balanced_factors.h"
#include "topology/generators.h"

namespace photonsim {

namespace {

std::vector<int> dimensions_of(const ComponentParams& params, int n) {
  std::vector<int> dims;
  if (params.has("dims")) {
    dims = params.dimensions("dims");
    if (params.has("dimensions") && params.integer("dimensions") != static_cast<int64_t>(dims.size())) {
      params.fail("dimensions", "disagrees with dims");
    }
  } else {
    const int64_t count = params.integer("dimensions", 2);
    if (count != 2 && count != 3) params.fail("dimensions", "must be 2 or 3, got " + std::to_string(count));
    dims = balanced_factors(n, static_cast<int>(count));
  }
  int64_t product = 1;
  for (int d : dims) product *= d;
  if (product != n) {
    std::string text;
    for (int d : dims) text += (text.empty() ? "" : "x") + std::to_string(d);
    params.fail("dims", text + " has " + std::to_string(product) + " nodes but fabric.gpus is " + std::to_string(n));
  }
  return dims;
}

Topology lattice(const ComponentParams& params, const GeneratorContext& context, bool wrap) {
  const int n = context.gpus();
  const std::vector<int> dims = dimensions_of(params, n);
  std::vector<int> stride(dims.size(), 1);
  for (size_t k = dims.size() - 1; k > 0; --k) stride[k - 1] = stride[k] * dims[k];
  std::set<Edge> unique;
  std::vector<Edge> edges;
  for (int u = 0; u < n; ++u) {
    for (size_t k = 0; k < dims.size(); ++k) {
      const int coordinate = (u / stride[k]) % dims[k];
      for (int direction : {+1, -1}) {
        int next = coordinate + direction;
        if (next < 0 || next >= dims[k]) {
          if (!wrap) continue;
          next = (next + dims[k]) % dims[k];
        }
        if (next == coordinate) continue;
        const Edge e{static_cast<Node>(u), static_cast<Node>(u + (next - coordinate) * stride[k])};
        // In a dimension of size 2 the wrap-around link is the direct link: one circuit.
        if (unique.insert(e).second) edges.push_back(e);
      }
    }
  }
  std::string name = wrap ? "torus(" : "grid(";
  for (size_t k = 0; k < dims.size(); ++k) name += (k ? "x" : "") + std::to_string(dims[k]);
  return Topology(name + ")", n, std::move(edges));
}

}  // namespace

Topology make_torus(const ComponentParams& params, const GeneratorContext& context) {
  return lattice(params, context, true);
}

Topology make_grid(const ComponentParams& params, const GeneratorContext& context) {
  return lattice(params, context, false);
}

TopologyGenerator torus_generator() {
  return {
      "torus",
      "2D/3D torus, row-major ids, links to +-1 in each dimension with wrap-around",
      {ParameterSpec::computed("dims", ParameterType::dimensions, "factored from n", "the shape, multiplying to n"),
       ParameterSpec::computed("dimensions", ParameterType::integer, "2", "2 or 3: the most balanced factors of n")},
      &make_torus};
}

TopologyGenerator grid_generator() {
  return {"grid", "2D/3D grid: a torus without the wrap-around links", torus_generator().parameters, &make_grid};
}

}  // namespace photonsim
