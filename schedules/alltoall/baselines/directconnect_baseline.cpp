#include "schedules/alltoall/baselines/directconnect_baseline.h"

#include <algorithm>
#include <optional>

#include "core/error.h"
#include "core/tolerances.h"
#include "schedules/alltoall/baselines/concurrent_routing.h"
#include "topology/generators.h"

namespace photonsim {

AlgorithmInfo DirectconnectBaseline::info() const {
  return {
      "directconnect",
      {Collective::alltoall},
      "joint",
      "DirectConnect: static Generalized Kautz or Circulant, max-concurrent-flow routing, one concurrent round (d = 1)",
      {ParameterSpec::choice("graph", {"auto", "genkautz", "circulant"},
                             "auto: the higher max-concurrent-flow throughput, ties circulant")},
      "n >= 2",
      true};
}

bool DirectconnectBaseline::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {

constexpr int64_t kExhaustiveGeneratorSets = 20000;

// Total hop distance from node 0 on the circulant with `generators`; an
// unreachable node counts n hops, so incomplete sets still compare.
int64_t total_distance(int n, const std::vector<int>& generators) {
  std::vector<int> distance(static_cast<size_t>(n), -1);
  std::vector<int> frontier = {0};
  distance[0] = 0;
  for (size_t head = 0; head < frontier.size(); ++head) {
    const int u = frontier[head];
    for (int g : generators) {
      const int v = (u + g) % n;
      if (distance[static_cast<size_t>(v)] < 0) {
        distance[static_cast<size_t>(v)] = distance[static_cast<size_t>(u)] + 1;
        frontier.push_back(v);
      }
    }
  }
  int64_t total = 0;
  for (int d : distance) total += d < 0 ? n : d;
  return total;
}

int64_t binomial_capped(int64_t n, int64_t k, int64_t cap) {
  int64_t value = 1;
  for (int64_t i = 1; i <= k; ++i) {
    value = value * (n - k + i) / i;  // exact: C(n-k+i, i) at every step
    if (value > cap) return cap + 1;
  }
  return value;
}

std::string join(const std::vector<int>& values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

Topology circulant(const JointInput& input, const std::vector<int>& generators) {
  const ComponentParams params("circulant", {{"generators", join(generators)}}, {"generators"});
  return make_circulant(params, GeneratorContext{input.fabric, input.seed});
}

Topology generalized_kautz(const JointInput& input, int degree) {
  const ComponentParams params("generalized_kautz", {{"degree", std::to_string(degree)}}, {"degree"});
  return make_generalized_kautz(params, GeneratorContext{input.fabric, input.seed});
}

}  // namespace

std::vector<int> DirectconnectBaseline::circulant_generators(int gpus, int degree) {
  const int k = std::min(degree, gpus - 1);  // more ports than offsets: the rest stay dark
  std::vector<int> best;
  if (binomial_capped(gpus - 1, k, kExhaustiveGeneratorSets) <= kExhaustiveGeneratorSets) {
    std::vector<int> set(static_cast<size_t>(k));
    for (int i = 0; i < k; ++i) set[static_cast<size_t>(i)] = i + 1;
    int64_t best_total = 0;
    while (true) {
      const int64_t total = total_distance(gpus, set);
      if (best.empty() || total < best_total) {
        best = set;
        best_total = total;
      }
      // Next k-subset of 1..n-1 in lexicographic order.
      int i = k - 1;
      while (i >= 0 && set[static_cast<size_t>(i)] == gpus - k + i) --i;
      if (i < 0) break;
      ++set[static_cast<size_t>(i)];
      for (int j = i + 1; j < k; ++j) set[static_cast<size_t>(j)] = set[static_cast<size_t>(j - 1)] + 1;
    }
    return best;
  }
  while (static_cast<int>(best.size()) < k) {
    int pick = 0;
    int64_t pick_total = 0;
    for (int g = 1; g < gpus; ++g) {
      if (std::find(best.begin(), best.end(), g) != best.end()) continue;
      std::vector<int> trial = best;
      trial.push_back(g);
      const int64_t total = total_distance(gpus, trial);
      if (pick == 0 || total < pick_total) {
        pick = g;
        pick_total = total;
      }
    }
    best.push_back(pick);
  }
  std::sort(best.begin(), best.end());
  return best;
}

std::vector<AlltoallStrategy> DirectconnectBaseline::strategies(const JointInput& input,
                                                                std::optional<int> only) const {
  if (input.fabric.circuits != CircuitKind::directed) {
    throw Error("algorithm 'directconnect' builds directed circuits: set fabric.circuits: directed");
  }
  const std::string graph = input.params.text("graph");
  if (only && *only != 1) return {};
  const int n = input.gpus();
  const int k = input.fabric.ports;
  std::optional<ConcurrentRouting> chosen;
  // k = 1: both families are the n-cycle (degree-1 Kautz pairs nodes up instead).
  if (graph != "genkautz" || k == 1) chosen = route_concurrently(circulant(input, circulant_generators(n, k)), input);
  if (graph != "circulant" && k > 1) {
    ConcurrentRouting kautz = route_concurrently(generalized_kautz(input, std::min(k, n - 1)), input);
    if (!chosen || kautz.theta > chosen->theta * (1 + tolerance::kTie)) chosen = std::move(kautz);
  }
  std::vector<AlltoallStrategy> out;
  out.push_back(concurrent_round_strategy(std::move(*chosen), input, "directconnect"));
  return out;
}

}  // namespace photonsim
