#pragma once
// Contract: a discrete-event clock. Events fire in (time, priority, insertion
// sequence) order: at equal times, lower priority classes fire first (packet
// arrivals before the departures that choose among waiting packets), and
// within a class in the order they were scheduled, so runs are deterministic. Scheduling in the past is a programming error (throws).
// The queue is a 4-ary min-heap over a flat vector: no allocation per event
// once the vector has grown to the peak number of pending events.
#include <cstdint>
#include <vector>

#include "core/event_handler.h"
#include "core/time.h"

namespace photonsim {

enum class EventPriority : uint8_t { arrival = 0, normal = 1 };

class EventList {
 public:
  void schedule(Time at, EventHandler& handler, uint64_t token,
                EventPriority priority = EventPriority::normal);
  // Fires the earliest event; returns false when none is pending.
  bool step();
  // Fires events until none is pending or the next one is later than `until`.
  void run(Time until = Time::max());

  Time now() const { return now_; }
  bool empty() const { return heap_.empty(); }
  size_t pending() const { return heap_.size(); }
  uint64_t fired() const { return fired_; }

 private:
  struct Entry {
    Time at;
    uint64_t order;  // priority in the top byte, insertion sequence below
    EventHandler* handler;
    uint64_t token;
    bool before(const Entry& o) const { return at < o.at || (at == o.at && order < o.order); }
  };
  void sift_up(size_t i);
  void sift_down(size_t i);

  std::vector<Entry> heap_;
  Time now_ = Time::zero();
  uint64_t next_seq_ = 0;
  uint64_t fired_ = 0;
};

}  // namespace photonsim
