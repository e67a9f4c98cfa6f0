#pragma once
// Contract: a map from a picosecond time to a small integer (the EventList's
// bucket of that time), open addressing with linear probing over a
// power-of-two table kept at most half full, deletion by backward shift (no
// tombstones). find() is a multiply-shift hash and a probe or two: the
// EventList looks up the time of every event it schedules.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace photonsim {

class TimeIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  TimeIndex() : slots_(kInitialSlots) {}

  uint32_t find(int64_t at) const {
    for (size_t i = home(at);; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.value == kNone) return kNone;
      if (s.at == at) return s.value;
    }
  }
  // `at` must not be present.
  void insert(int64_t at, uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    place(at, value);
    ++size_;
  }
  // `at` must be present.
  void erase(int64_t at) {
    size_t hole = home(at);
    while (slots_[hole].at != at || slots_[hole].value == kNone) hole = (hole + 1) & mask();
    // Backward shift: pull later members of the probe run into the hole
    // unless their home lies cyclically in (hole, j].
    for (size_t j = (hole + 1) & mask();; j = (j + 1) & mask()) {
      if (slots_[j].value == kNone) break;
      const size_t want = home(slots_[j].at);
      const bool stays = hole <= j ? (hole < want && want <= j) : (hole < want || want <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole].value = kNone;
    --size_;
  }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kInitialSlots = 64;
  struct Slot {
    int64_t at = 0;
    uint32_t value = kNone;
  };
  size_t mask() const { return slots_.size() - 1; }
  size_t home(int64_t at) const {
    // Fibonacci hashing: times are often multiples of a packet's
    // serialisation, so the low bits alone would collide.
    return static_cast<size_t>((static_cast<uint64_t>(at) * 0x9E3779B97F4A7C15ULL) >> 32) & mask();
  }
  void place(int64_t at, uint32_t value) {
    size_t i = home(at);
    while (slots_[i].value != kNone) i = (i + 1) & mask();
    slots_[i] = Slot{at, value};
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.value != kNone) place(s.at, s.value);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace photonsim
