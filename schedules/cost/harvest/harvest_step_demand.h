#pragma once
// Contract: one step's demand as Harvest writes it, m_i * M_i. The bytes of
// the step's transfers are summed per (src, dst) pair and stored exactly, as
// integers divided by their greatest common divisor (`unit_bytes`), so
// proportional demands compare (and hash) equal: theta of the normalised
// matrix then serves every message size, and a planner solves its LP once.
// `max_pair_bytes` is the paper's m_i (the largest per-pair volume); the
// matrix scaled to that pair equals the paper's 0/1 pattern M_i when every
// pair carries the same volume. `pairs` lists every (src, dst) the step's
// transfers name, zero-byte ones included: a topology must route them all.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "schedules/model/transfer.h"
#include "topology/demand_matrix.h"

namespace photonsim {

class HarvestStepDemand {
 public:
  struct Entry {
    Node src = 0;
    Node dst = 0;
    uint64_t units = 0;  // bytes / unit_bytes, > 0
    bool operator==(const Entry&) const = default;
  };

  HarvestStepDemand(int gpus, const std::vector<Transfer>& transfers);

  int gpus() const { return gpus_; }
  // Pairs with bytes, sorted by (src, dst).
  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<Edge>& pairs() const { return pairs_; }
  bool moves_no_bytes() const { return entries_.empty(); }
  int64_t unit_bytes() const { return unit_bytes_; }
  int64_t max_pair_bytes() const { return max_pair_bytes_; }
  // The normalised matrix (entries in units); only ratios matter to theta.
  DemandMatrix matrix() const;

  // Equal when the normalised demands are equal (proportional byte matrices).
  bool same_shape(const HarvestStepDemand& other) const { return gpus_ == other.gpus_ && entries_ == other.entries_; }
  // Consistent with same_shape(); deterministic across runs and platforms.
  size_t shape_hash() const;

 private:
  int gpus_ = 0;
  std::vector<Entry> entries_;
  std::vector<Edge> pairs_;
  int64_t unit_bytes_ = 1;
  int64_t max_pair_bytes_ = 0;
};

}  // namespace photonsim
