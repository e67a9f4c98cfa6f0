#include "schedules/reconfiguration_bound_table.h"

#include "schedules/alltoall/degree_k/degree_k_circulant_sequence.h"
#include "schedules/alltoall/degree_k/degree_k_sequence.h"
#include "schedules/alltoall/rdc/rdc.h"
#include "schedules/alltoall/reconfiguration_bound.h"
#include "schedules/alltoall/ring_shift_search.h"

namespace photonsim {

namespace {

// rdc's hop sum per d (index d - 1); nullopt where it does not build that d.
std::vector<std::optional<int64_t>> rdc_hop_sums(int gpus, int ports, uint64_t seed) {
  std::vector<std::optional<int64_t>> sums(static_cast<size_t>(gpus - 1));
  if (ports == 1) {
    const RingShiftSearch search(gpus);
    for (int d = 1; d < gpus; ++d) sums[static_cast<size_t>(d - 1)] = search.hop_sum(d);
    return sums;
  }
  // As rdc's `base: auto`: both families, the Generalized Kautz one only up to its size limit.
  for_each_circulant_stage(gpus, ports, seed, gpus - 1, [&](const CirculantStage& stage) {
    int64_t hop_sum = 0;
    for (const auto& per_topology : stage.rounds) hop_sum += DegreeKReferencePacker::hop_sum(per_topology);
    sums[static_cast<size_t>(stage.configurations - 1)] = hop_sum;
  });
  if (gpus > Rdc::kGenKautzAutoLimit) return sums;
  for (const AlltoallStrategy& s : degree_k_strategies(gpus, ports, DegreeKBase::genkautz, seed, std::nullopt)) {
    auto& slot = sums[static_cast<size_t>(s.configurations() - 1)];
    if (!slot || s.hop_sum() < *slot) slot = s.hop_sum();
  }
  return sums;
}

}  // namespace

std::vector<ReconfigurationBoundRow> reconfiguration_bound_table(int gpus, int ports, std::optional<int> reconfigs,
                                                                 bool compare, uint64_t seed) {
  transmission_lower_bound(gpus, ports, reconfigs.value_or(1));  // validates n, k (and d)
  std::vector<ReconfigurationBoundRow> rows;
  const int first = reconfigs.value_or(1);
  const int last = reconfigs.value_or(gpus - 1);
  for (int d = first; d <= last; ++d) rows.push_back({d, transmission_lower_bound(gpus, ports, d), std::nullopt});
  if (compare) {
    const std::vector<std::optional<int64_t>> sums = rdc_hop_sums(gpus, ports, seed);
    for (ReconfigurationBoundRow& row : rows) row.rdc_T = sums[static_cast<size_t>(row.reconfigs - 1)];
  }
  return rows;
}

}  // namespace photonsim
