#pragma once
// Contract: the flows each start event of a data plane queues. Flows added
// for the picosecond whose batch is still due join it (one event starts them
// all: the ports choose after every start of that picosecond either way);
// otherwise they open a batch, whose start event the caller schedules. Batch
// ids run on across forget(), which lets the fired batches go.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/time.h"

namespace photonsim {

class StartBatches {
 public:
  // Flows [first, end) start at `at`: the id of the batch to schedule a start
  // event for, or nothing when they joined the batch already due then.
  std::optional<uint64_t> add(uint32_t first, uint32_t end, Time at) {
    if (last_pending_ && last_at_ == at && batches_.back().second == first) {
      batches_.back().second = end;
      return std::nullopt;
    }
    batches_.emplace_back(first, end);
    last_at_ = at;
    last_pending_ = true;
    return base_ + batches_.size() - 1;
  }
  // Its start event: the flows [first, end) it starts.
  std::pair<uint32_t, uint32_t> fire(uint64_t batch) {
    ++fired_;
    if (batch + 1 == base_ + batches_.size()) last_pending_ = false;
    return batches_[batch - base_];
  }
  bool all_fired() const { return fired_ == base_ + batches_.size(); }
  void forget() {
    base_ += batches_.size();
    std::vector<std::pair<uint32_t, uint32_t>>().swap(batches_);
  }

 private:
  std::vector<std::pair<uint32_t, uint32_t>> batches_;  // [first flow, end) per batch from base_ on
  size_t base_ = 0;                                     // batches before it were forgotten
  size_t fired_ = 0;
  Time last_at_;               // the last batch's start time
  bool last_pending_ = false;  // its start event has not fired (flows joining then may join it)
};

}  // namespace photonsim
