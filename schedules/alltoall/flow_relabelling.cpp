#include "schedules/alltoall/flow_relabelling.h"

#include <algorithm>
#include <numeric>

namespace photonsim {

namespace {

int64_t cost(const std::vector<LabelledRound>& rounds, const std::vector<Bytes>& demand, size_t n,
             const std::vector<Node>& gpu_of) {
  int64_t total = 0;
  for (const LabelledRound& r : rounds) {
    int64_t largest = 0;
    for (const Edge& e : r.pairs) largest = std::max(largest, demand[gpu_of[e.first] * n + gpu_of[e.second]].count());
    total += r.weight * largest;
  }
  return total;
}

}  // namespace

std::vector<Node> relabel(const std::vector<LabelledRound>& rounds, const std::vector<Bytes>& demand, int gpus,
                          int passes) {
  const auto n = static_cast<size_t>(gpus);
  std::vector<Node> gpu_of(n);
  std::iota(gpu_of.begin(), gpu_of.end(), Node{0});
  int64_t current = cost(rounds, demand, n, gpu_of);
  for (int pass = 0; pass < passes; ++pass) {
    bool improved = false;
    for (size_t a = 0; a < n; ++a) {
      for (size_t b = a + 1; b < n; ++b) {
        std::swap(gpu_of[a], gpu_of[b]);
        const int64_t trial = cost(rounds, demand, n, gpu_of);
        if (trial < current) {
          current = trial;
          improved = true;
        } else {
          std::swap(gpu_of[a], gpu_of[b]);
        }
      }
    }
    if (!improved) break;
  }
  return gpu_of;
}

}  // namespace photonsim
