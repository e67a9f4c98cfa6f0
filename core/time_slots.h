#pragma once
// Contract: values keyed by a picosecond time, at most one per time, in
// reusable slots: find() answers the last slot asked for without a lookup
// (callers ask for the same time many times in a row) and otherwise through a
// TimeIndex; open() takes a free slot (its value as the caller left it when it
// closed it, so containers keep their storage: no allocation once the peak
// number of open slots has been reached); close() frees one. The EventList's
// buckets and the Network's decision batches are such slots.
#include <cstdint>
#include <vector>

#include "core/time.h"
#include "core/time_index.h"

namespace photonsim {

template <typename T>
class TimeSlots {
 public:
  static constexpr uint32_t kNone = TimeIndex::kNone;

  uint32_t find(Time at) {
    if (last_ != kNone && slots_[last_].at == at) return last_;
    const uint32_t id = index_.find(at.picoseconds());
    if (id != kNone) last_ = id;
    return id;
  }
  // `at` must have no open slot.
  uint32_t open(Time at) {
    uint32_t id;
    if (free_.empty()) {
      id = static_cast<uint32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      id = free_.back();
      free_.pop_back();
    }
    slots_[id].at = at;
    index_.insert(at.picoseconds(), id);
    last_ = id;
    return id;
  }
  void close(uint32_t id) {
    index_.erase(slots_[id].at.picoseconds());
    free_.push_back(id);
    if (last_ == id) last_ = kNone;
  }
  Time at(uint32_t id) const { return slots_[id].at; }
  T& operator[](uint32_t id) { return slots_[id].value; }
  const T& operator[](uint32_t id) const { return slots_[id].value; }

 private:
  struct Slot {
    Time at;
    T value;
  };
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;
  TimeIndex index_;
  uint32_t last_ = kNone;
};

}  // namespace photonsim
