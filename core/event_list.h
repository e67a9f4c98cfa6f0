#pragma once
// Contract: a discrete-event clock. Events fire in (time, priority, insertion
// sequence) order: at equal times, lower priority classes fire first (packet
// arrivals before the departures that choose among waiting packets), and
// within a class in the order they were scheduled, so runs are deterministic.
// Scheduling in the past is a programming error (throws).
// Events are kept in one bucket per distinct pending time, a FIFO per
// priority class (TimeSlots), and only the times are in a 4-ary min-heap. On a fabric of equal circuits many events share a
// picosecond (every circuit of a synchronous step frees at once), so most
// events cost an append and a read instead of a sift through every pending
// event. Buckets keep their storage when reused: no allocation per event
// once the peak has been reached.
// A component that decides on an event before it can hand it over takes the
// event's place in the order when it decides (reserve) and hands it over
// later (schedule_reserved): the event then fires exactly where it would have
// fired had it been scheduled at reservation.
#include <cstdint>
#include <vector>

#include "core/event_handler.h"
#include "core/time.h"
#include "core/time_slots.h"

namespace photonsim {

enum class EventPriority : uint8_t { arrival = 0, normal = 1 };

class EventList {
 public:
  void schedule(Time at, EventHandler& handler, uint64_t token, EventPriority priority = EventPriority::normal) {
    schedule_reserved(at, handler, token, reserve(priority));
  }
  // The place in the firing order of an event decided now; pass it to
  // schedule_reserved, at most once, before now passes the event's time.
  uint64_t reserve(EventPriority priority = EventPriority::normal) {
    return (static_cast<uint64_t>(priority) << kClassShift) | (next_seq_++ & kSeqMask);
  }
  void schedule_reserved(Time at, EventHandler& handler, uint64_t token, uint64_t reserved) {
    if (at < now_) throw_scheduled_in_past(at);
    bucket_at(at).add(Pending{&handler, token, reserved});
    ++pending_;
  }
  // Fires the earliest event; returns false when none is pending.
  bool step();
  // Fires events until none is pending or the next one is later than `until`.
  void run(Time until = Time::max());

  Time now() const { return now_; }
  bool empty() const { return pending_ == 0; }
  size_t pending() const { return pending_; }
  uint64_t fired() const { return fired_; }

 private:
  static constexpr int kClassShift = 56;
  static constexpr uint64_t kSeqMask = (1ULL << kClassShift) - 1;
  struct Pending {
    EventHandler* handler;
    uint64_t token;
    uint64_t order;  // priority class in the top byte, insertion sequence below
  };
  struct Bucket {
    std::vector<Pending> fifo[2];  // per priority class, in order
    uint32_t next[2] = {0, 0};     // the first not yet fired
    bool exhausted() const { return next[0] == fifo[0].size() && next[1] == fifo[1].size(); }
    void add(const Pending& p) {
      std::vector<Pending>& list = fifo[p.order >> kClassShift];
      if (list.empty() || list.back().order < p.order) {
        list.push_back(p);
      } else {
        insert_reserved(p);
      }
    }
    void insert_reserved(const Pending& p);
  };
  struct Head {
    int64_t at;
    uint32_t bucket;
  };

  Bucket& bucket_at(Time at) {
    uint32_t id = buckets_.find(at);
    if (id == TimeSlots<Bucket>::kNone) id = open_bucket(at);
    return buckets_[id];
  }
  uint32_t open_bucket(Time at);
  void close_front_bucket();
  [[noreturn]] void throw_scheduled_in_past(Time at) const;
  void sift_up(size_t i);
  void sift_down(size_t i);

  TimeSlots<Bucket> buckets_;
  std::vector<Head> heads_;  // one per bucket in use, a 4-ary min-heap on the time
  size_t pending_ = 0;
  Time now_ = Time::zero();
  uint64_t next_seq_ = 0;
  uint64_t fired_ = 0;
};

}  // namespace photonsim
