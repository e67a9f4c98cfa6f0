#include "core/spec/flow_sizes.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/rng.h"
#include "core/shuffle.h"

namespace photonsim {

namespace {

// Distinct from the seeds other components derive, so changing the workload
// never shifts a topology generator's draws.
constexpr uint64_t kFlowSizeStream = 0x666c6f7773697a65ULL;  // "flowsize"

std::vector<size_t> off_diagonal_cells(size_t n) {
  std::vector<size_t> cells;
  cells.reserve(n * (n - 1));
  for (size_t s = 0; s < n; ++s) {
    for (size_t t = 0; t < n; ++t) {
      if (s != t) cells.push_back(s * n + t);
    }
  }
  return cells;
}

}  // namespace

std::vector<Bytes> alltoall_flow_sizes(const WorkloadSpec& workload, int gpus, uint64_t seed) {
  const auto n = static_cast<size_t>(gpus);
  std::vector<Bytes> sizes(n * n, Bytes(0));
  const std::vector<size_t> cells = off_diagonal_cells(n);
  const int64_t mean = workload.message.count();
  Rng rng(seed ^ kFlowSizeStream);
  switch (workload.distribution) {
    case FlowDistribution::uniform:
      for (size_t c : cells) sizes[c] = workload.message;
      break;
    case FlowDistribution::random:
      for (size_t c : cells) {
        sizes[c] =
            Bytes(1 + static_cast<int64_t>(rng.uniform(static_cast<uint64_t>(std::max<int64_t>(1, 2 * mean - 1)))));
      }
      break;
    case FlowDistribution::zipf: {
      std::vector<size_t> ranked = cells;
      shuffle_with(ranked, rng);
      std::vector<double> weight(ranked.size());
      for (size_t r = 0; r < ranked.size(); ++r)
        weight[r] = std::pow(static_cast<double>(r + 1), -workload.zipf_factor);
      const double total_weight = std::accumulate(weight.begin(), weight.end(), 0.0);
      const int64_t total = mean * static_cast<int64_t>(ranked.size());
      // Floors of the ideal shares (at least one byte each), then the bytes left
      // over go one each to the largest flows, so the total is exact.
      int64_t assigned = 0;
      for (size_t r = 0; r < ranked.size(); ++r) {
        const auto share = static_cast<int64_t>(std::floor(static_cast<double>(total) * weight[r] / total_weight));
        sizes[ranked[r]] = Bytes(std::max<int64_t>(1, share));
        assigned += sizes[ranked[r]].count();
      }
      for (size_t r = 0; assigned < total; r = (r + 1) % ranked.size(), ++assigned) {
        sizes[ranked[r]] = Bytes(sizes[ranked[r]].count() + 1);
      }
      for (size_t r = ranked.size(); assigned > total && r > 0; --r) {
        if (sizes[ranked[r - 1]].count() > 1) {
          sizes[ranked[r - 1]] = Bytes(sizes[ranked[r - 1]].count() - 1);
          --assigned;
        }
      }
      break;
    }
  }
  return sizes;
}

}  // namespace photonsim
