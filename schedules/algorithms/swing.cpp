#include "schedules/algorithms/swing.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "schedules/algorithms/butterfly.h"

namespace photonsim {

AlgorithmInfo Swing::info() const {
  return {
      "swing",  {Collective::allreduce, Collective::reducescatter, Collective::allgather},
      "static", "Swing: log2 n steps per half, peer u +- rho(s), rho = 1, -1, 3, -5, ...; halves the data each step",
      {ParameterSpec::computed("dims", ParameterType::dimensions, "n (one dimension)",
                               "a torus AxB[xC] of powers of two multiplying to n: each step pairs peers along one "
                               "dimension, the dimensions in turn (Swing's multi-dimensional variant)"),
       ParameterSpec::boolean("multiport", false,
                              "AllReduce only: 2 x (number of dims) planes, each on its share of the data, starting "
                              "in a different dimension, half of them mirrored (peers u -+ rho), so a step uses "
                              "every port of the torus (Swing's multi-port variant, Harvest Fig. 8)")},
      "n a power of two"};
}

bool Swing::supports(int gpus, int /*ports*/) const { return gpus >= 2 && (gpus & (gpus - 1)) == 0; }

int Swing::rho(int step) {
  int64_t power = 1;  // (-2)^(step+1)
  for (int i = 0; i <= step; ++i) power *= -2;
  return static_cast<int>((1 - power) / 3);
}

int Swing::peer(int node, int step, int n) {
  const int offset = node % 2 == 0 ? rho(step) : -rho(step);
  return ((node + offset) % n + n) % n;
}

std::vector<Swing::DimensionStep> Swing::dimension_steps(const std::vector<int>& dims, int first) {
  const int rank = static_cast<int>(dims.size());
  std::vector<int> left(dims.size());
  int total = 0;
  for (size_t d = 0; d < dims.size(); ++d) {
    while ((2 << left[d]) <= dims[d]) ++left[d];  // log2 of the dimension
    total += left[d];
  }
  std::vector<DimensionStep> out;
  std::vector<int> done(dims.size(), 0);
  int cursor = first % rank;
  while (static_cast<int>(out.size()) < total) {
    while (done[static_cast<size_t>(cursor)] == left[static_cast<size_t>(cursor)]) cursor = (cursor + 1) % rank;
    out.push_back({cursor, done[static_cast<size_t>(cursor)]++});
    cursor = (cursor + 1) % rank;
  }
  return out;
}

int Swing::torus_peer(int node, const std::vector<int>& dims, DimensionStep step, bool mirrored) {
  int stride = 1;
  for (size_t d = dims.size(); d-- > static_cast<size_t>(step.dimension) + 1;) stride *= dims[d];
  const int size = dims[static_cast<size_t>(step.dimension)];
  const int x = (node / stride) % size;
  const int offset = (x % 2 == 0) != mirrored ? rho(step.within) : -rho(step.within);
  return node + ((((x + offset) % size) + size) % size - x) * stride;
}

StepPattern Swing::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  if (n < 2 || (n & (n - 1)) != 0) {
    input.params.fail("needs n to be a power of two >= 2 (2, 4, 8, ...), got n = " + std::to_string(n));
  }
  const bool multiport = input.params.boolean("multiport", false);
  if (!input.params.has("dims") && !multiport) {
    const Butterfly butterfly(n, [n](int rank, int step) { return peer(rank, step, n); });
    StepPattern pattern;
    pattern.blocks = static_cast<uint32_t>(n);
    pattern.steps =
        butterfly.phases(Butterfly::one_block_per_node(n, input.workload.message), input.workload.collective);
    return pattern;
  }
  std::vector<int> dims = input.params.has("dims") ? input.params.dimensions("dims") : std::vector<int>{n};
  int64_t product = 1;
  std::string text;
  for (int d : dims) {
    product *= d;
    text += (text.empty() ? "" : "x") + std::to_string(d);
  }
  for (int d : dims) {
    if (d < 2 || (d & (d - 1)) != 0) input.params.fail("dims", "needs every dimension a power of two >= 2, got " + text);
  }
  if (product != n) {
    input.params.fail("dims", "needs n to be the product of the torus dims: " + text + " has " +
                                  std::to_string(product) + " nodes but fabric.gpus is " + std::to_string(n));
  }
  if (multiport && input.workload.collective != Collective::allreduce) {
    input.params.fail("multiport", "is for allreduce only (each plane reduces its share of every block's data, "
                                   "which a reduce-scatter's or all-gather's block numbering cannot name)");
  }
  // Plane c starts in dimension c mod D; planes D..2D-1 mirror planes 0..D-1.
  const int rank = static_cast<int>(dims.size());
  const int planes = multiport ? 2 * rank : 1;
  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n * planes);
  for (int c = 0; c < planes; ++c) {
    const std::vector<DimensionStep> order = dimension_steps(dims, c % rank);
    const bool mirrored = c >= rank;
    const Butterfly butterfly(n, [&dims, &order, mirrored](int node, int step) {
      return torus_peer(node, dims, order[static_cast<size_t>(step)], mirrored);
    });
    Butterfly::Placement placement;
    placement.message = input.workload.message;
    placement.blocks = pattern.blocks;
    for (int r = 0; r < n; ++r) {
      placement.node_of_rank.push_back(static_cast<Node>(r));
      placement.blocks_of_rank.push_back({static_cast<uint32_t>(r * planes + c)});
    }
    std::vector<std::vector<Transfer>> steps = butterfly.phases(placement, input.workload.collective);
    pattern.steps.resize(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      for (Transfer& t : steps[i]) pattern.steps[i].push_back(std::move(t));
    }
  }
  return pattern;
}

}  // namespace photonsim
