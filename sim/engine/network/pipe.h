#pragma once
// Contract: a circuit's propagation, htsim's Pipe: a packet enters when the
// far GPU could act on it were the circuit zero-length (the EgressPort gives
// that moment: its serialisation's end, or its header's under cut-through)
// and reaches its far end (the GPUs' router) `latency` later. Packets land in the order
// they entered (a circuit has one path), so the pipe is a FIFO and only its
// front packet's landing is on the clock.
#include <cstdint>

#include "core/packet.h"
#include "core/ring_buffer.h"
#include "core/time.h"
#include "sim/engine/network/network_events.h"
#include "sim/engine/network/packet_sink.h"

namespace photonsim {

class Pipe final : public PacketSink {
 public:
  // Its landing events name `circuit`; packets land at `far_end`.
  void connect(uint32_t circuit, Time latency, const NetworkEvents& events, PacketSink& far_end) {
    circuit_ = circuit;
    latency_ = latency;
    events_ = &events;
    far_end_ = &far_end;
  }
  Time latency() const { return latency_; }
  bool empty() const { return in_flight_.empty(); }
  // Each packet on it, front first (a flow's, when it rewinds).
  template <typename Visit>
  void for_each_packet(Visit visit) const {
    for (size_t i = 0; i < in_flight_.size(); ++i) visit(in_flight_[i].id);
  }

  void receive(PacketId id, Time now) override {
    const bool was_empty = in_flight_.empty();
    in_flight_.push_back(Landing{now + latency_, id});
    if (was_empty) events_->schedule(now + latency_, EventToken::Kind::landing, circuit_, EventPriority::arrival);
  }
  // The front packet's landing event: the next packet's is asked for, then
  // the far end takes this one.
  void land(Time now) {
    const PacketId id = in_flight_.pop_front().id;
    if (!in_flight_.empty()) {
      events_->schedule(in_flight_.front().at, EventToken::Kind::landing, circuit_, EventPriority::arrival);
    }
    far_end_->receive(id, now);
  }

 private:
  struct Landing {
    Time at;  // when the far GPU may act on the packet
    PacketId id;
  };

  uint32_t circuit_ = 0;
  Time latency_;
  const NetworkEvents* events_ = nullptr;
  PacketSink* far_end_ = nullptr;
  RingBuffer<Landing> in_flight_;
};

}  // namespace photonsim
