#pragma once
// Contract: a discrete-event clock. Events fire in (time, priority, insertion
// sequence) order: at equal times, lower priority classes fire first (packet
// arrivals before the departures that choose among waiting packets), and
// within a class in the order they were scheduled, so runs are deterministic. Scheduling in the past is a programming error (throws).
// The queue is a 4-ary min-heap over a flat vector: no allocation per event
// once the vector has grown to the peak number of pending events.
// A component that keeps its own time-ordered queue of future events (a
// link's in-flight packets) takes each event's place in the order when it
// decides on it (reserve) and hands only its earliest event to the list
// (schedule_reserved): the event then fires exactly where it would have fired
// had it been scheduled at reservation, and the heap stays small.
// Most handlers schedule one follow-up event (a packet's next hop), so the
// fired event's root slot stays vacant while its handler runs and the first
// event scheduled takes it (one sift_down instead of a pop and a push).
#include <cstdint>
#include <vector>

#include "core/event_handler.h"
#include "core/time.h"

namespace photonsim {

enum class EventPriority : uint8_t { arrival = 0, normal = 1 };

class EventList {
 public:
  void schedule(Time at, EventHandler& handler, uint64_t token, EventPriority priority = EventPriority::normal);
  // The place in the firing order of an event decided now; pass it to
  // schedule_reserved, at most once, before now passes the event's time.
  uint64_t reserve(EventPriority priority = EventPriority::normal) {
    return (static_cast<uint64_t>(priority) << 56) | (next_seq_++ & kSeqMask);
  }
  void schedule_reserved(Time at, EventHandler& handler, uint64_t token, uint64_t reserved) {
    if (at < now_) throw_scheduled_in_past(at);
    if (root_vacant_) {
      root_vacant_ = false;
      heap_.front() = Entry{at, reserved, &handler, token};
      sift_down(0);
    } else {
      heap_.push_back(Entry{at, reserved, &handler, token});
      sift_up(heap_.size() - 1);
    }
  }
  // Fires the earliest event; returns false when none is pending.
  bool step();
  // Fires events until none is pending or the next one is later than `until`.
  void run(Time until = Time::max());

  Time now() const { return now_; }
  bool empty() const { return pending() == 0; }
  size_t pending() const { return heap_.size() - (root_vacant_ ? 1 : 0); }
  uint64_t fired() const { return fired_; }

 private:
  static constexpr uint64_t kSeqMask = (1ULL << 56) - 1;
  struct Entry {
    Time at;
    uint64_t order;  // priority in the top byte, insertion sequence below
    EventHandler* handler;
    uint64_t token;
    // One 128-bit comparison: branch-free child selection in sift_down.
    __extension__ using Key = unsigned __int128;
    Key key() const { return (static_cast<Key>(static_cast<uint64_t>(at.picoseconds()) ^ (1ULL << 63)) << 64) | order; }
    bool before(const Entry& o) const { return key() < o.key(); }
  };
  [[noreturn]] void throw_scheduled_in_past(Time at) const;
  void fill_vacant_root();
  void sift_up(size_t i);
  void sift_down(size_t i);

  std::vector<Entry> heap_;
  Time now_ = Time::zero();
  uint64_t next_seq_ = 0;
  uint64_t fired_ = 0;
  bool root_vacant_ = false;  // heap_.front() is the event being fired
};

}  // namespace photonsim
