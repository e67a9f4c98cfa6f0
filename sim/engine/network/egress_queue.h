#pragma once
// Contract: a circuit's egress port, htsim's Queue: the items waiting to be
// sent, least EgressEntry first, and the serialiser that sends one packet at
// a time at line rate and is busy until free_at(). It only holds state: the
// Network decides when the port chooses (after every event of a picosecond)
// and what sending costs.
#include <algorithm>
#include <vector>

#include "core/ring_buffer.h"
#include "core/time.h"
#include "sim/engine/network/egress_entry.h"

namespace photonsim {

class EgressQueue {
 public:
  bool empty() const { return waiting_.empty() && in_order_.empty(); }
  void push(const EgressEntry& entry) {
    // Forwarded packets mostly arrive in the order the port sends them (one
    // upstream circuit, first come first served): those that go after every
    // entry of the run wait in a FIFO at O(1); the rest in the heap.
    if (entry.origin == PacketOrigin::forwarded && (in_order_.empty() || entry.after(in_order_.back()))) {
      in_order_.push_back(entry);
      return;
    }
    push_to_heap(entry);
  }
  // The least waiting entry, removed. Requires !empty().
  EgressEntry pop() {
    if (!in_order_.empty() && (waiting_.empty() || waiting_.front().after(in_order_.front()))) {
      return in_order_.pop_front();
    }
    std::pop_heap(waiting_.begin(), waiting_.end(), goes_later);
    const EgressEntry least = waiting_.back();
    waiting_.pop_back();
    return least;
  }
  // Removes every waiting entry `drop` says (a flow's, when it rewinds:
  // rare, so a rebuild); the rest keep their order.
  template <typename Drop>
  void remove_if(Drop drop) {
    std::erase_if(waiting_, drop);
    std::make_heap(waiting_.begin(), waiting_.end(), goes_later);
    RingBuffer<EgressEntry> kept;
    while (!in_order_.empty()) {
      const EgressEntry entry = in_order_.pop_front();
      if (!drop(entry)) kept.push_back(entry);
    }
    in_order_ = std::move(kept);
  }
  // The serialiser.
  bool busy_at(Time now) const { return free_at_ > now; }
  Time free_at() const { return free_at_; }
  void serialise(Time now, Time serialization) { free_at_ = now + serialization; }

 private:
  [[gnu::noinline]] void push_to_heap(const EgressEntry& entry) {
    waiting_.push_back(entry);
    std::push_heap(waiting_.begin(), waiting_.end(), goes_later);
  }
  // A lambda, not a function pointer, so the heap's comparisons inline.
  static constexpr auto goes_later = [](const EgressEntry& a, const EgressEntry& b) { return a.after(b); };

  std::vector<EgressEntry> waiting_;  // binary heap, least on top
  RingBuffer<EgressEntry> in_order_;  // a run of forwarded entries in order, least first
  Time free_at_;                      // the serialiser is busy before this time
};

}  // namespace photonsim
