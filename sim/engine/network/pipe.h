#pragma once
// Contract: a circuit's propagation, htsim's Pipe: packets travel `latency`
// from the near end's serialiser to the far GPU and land in the order they
// were sent (a circuit has one path), so the pipe is a FIFO. Only its front
// packet's landing needs to be in the EventList; the Network schedules it.
#include "core/packet.h"
#include "core/ring_buffer.h"
#include "core/time.h"

namespace photonsim {

class Pipe {
 public:
  struct Landing {
    Time at;  // when the far GPU may act on the packet
    PacketId id;
  };

  Pipe() = default;
  explicit Pipe(Time latency) : latency_(latency) {}

  Time latency() const { return latency_; }
  bool empty() const { return in_flight_.empty(); }
  const Landing& front() const { return in_flight_.front(); }
  // A packet enters; it would be forwardable at `forwardable_at` were the
  // pipe zero-length. Returns when it lands: that plus the latency.
  Time carry(PacketId id, Time forwardable_at) {
    const Time lands_at = forwardable_at + latency_;
    in_flight_.push_back(Landing{lands_at, id});
    return lands_at;
  }
  PacketId land() { return in_flight_.pop_front().id; }

 private:
  Time latency_;
  RingBuffer<Landing> in_flight_;
};

}  // namespace photonsim
