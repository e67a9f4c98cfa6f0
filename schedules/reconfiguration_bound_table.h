#pragma once
// Contract: the numbers `photonsim bound` reports, computed here so that the
// report only formats them: for n GPUs, k ports and d configured topologies
// (one d, or every d in 1..n-1) the lower bound on the all-to-all paper's
// transmission term (reconfiguration_bound.h) and, with `compare`, rdc's hop
// sum for the same (n, k, d), nullopt where rdc builds no schedule of that d
// (its Figure 13). Throws Error for n < 2, k < 1 or d outside 1..n-1.
#include <cstdint>
#include <optional>
#include <vector>

namespace photonsim {

struct ReconfigurationBoundRow {
  int reconfigs = 0;
  int64_t transmission_T = 0;
  std::optional<int64_t> rdc_T;  // when compared and rdc builds this d
};

std::vector<ReconfigurationBoundRow> reconfiguration_bound_table(int gpus, int ports, std::optional<int> reconfigs,
                                                                 bool compare, uint64_t seed);

}  // namespace photonsim
