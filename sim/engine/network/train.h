#pragma once
// Contract: a train, the TrainNetwork's unit: packets of one flow, all of one
// size, that one egress port serialises back to back. Packet k (0-based)
// starts at start + k * serialization and may be acted on at the far GPU
// forwardable + latency after its start (the GpuRouter's rule), so one record
// stands for `count` packet-hops. Its packets carry the flow's packets
// first_seq, first_seq + 1, ...; their chunks follow from chunk0 (r0 packets
// of it, then chunks of per_chunk packets). A forwarded train consumes the
// packets [up_first, up_first + count) of the train `up` on the route's
// previous circuit, which became waiting here at queued0 + k * queued_step.
// A train is tentative until its packets have started: the TrainNetwork
// shortens it (keeps a prefix) when another item or the upstream train
// changes what the port sends after now.
#include <algorithm>
#include <cstdint>

#include "core/time.h"

namespace photonsim {

struct Train {
  static constexpr uint32_t kNone = UINT32_MAX;

  uint32_t flow = 0;
  uint32_t circuit = 0;
  uint32_t hop = 0;  // index of `circuit` in the flow's route
  uint64_t first_seq = 0;
  uint32_t count = 0;
  uint32_t bytes = 0;  // per packet
  Time start;
  Time serialization;  // at this circuit's rate: the period
  Time forwardable;    // GpuRouter::forwardable_after for one packet
  Time latency;
  // Chunks: packet k's chunk.
  uint32_t chunk0 = 0;
  uint32_t r0 = 0;         // packets of chunk0 from packet 0 on
  uint32_t per_chunk = 0;  // packets per later chunk (0: all in chunk0)
  int64_t offset0 = 0;     // own trains: byte offset of packet 0 in chunk0
  // Forwarded trains: where the packets came from and when each waited here.
  uint32_t up = kNone;
  uint32_t up_first = 0;
  Time queued0;
  Time queued_step;
  // The next hop: how many packets its trains took, the latest of them.
  uint32_t taken = 0;
  uint32_t last_consumer = kNone;
  uint64_t last_consumer_serial = 0;
  uint32_t live_consumers = 0;  // the next hop's trains not yet done
  // Its place as the next port's waiting item (see TrainNetwork).
  uint32_t entry_gen = 0;
  uint8_t entry_state = 0;
  uint32_t done_gen = 0;
  uint64_t serial = 0;  // unique per train of a run (ids are reused)
  bool done = false;    // its last packet landed: nothing about it changes

  uint32_t chunk_of(uint32_t k) const {
    if (per_chunk == 0 || k < r0) return chunk0;
    return chunk0 + 1 + (k - r0) / per_chunk;
  }
  Time start_of(uint32_t k) const { return start + serialization * static_cast<int64_t>(k); }
  // When packet k may be acted on at the far GPU.
  Time landing_of(uint32_t k) const { return start_of(k) + forwardable + latency; }
  Time queued_of(uint32_t k) const { return queued0 + queued_step * static_cast<int64_t>(k); }
  Time end() const { return start_of(count); }
  // When its circuit is idle again (the reference's serialiser free and pipe
  // empty): its last packet sent and landed. Under cut-through the landing
  // may come first (the header is through while the packet is being sent).
  Time done_at() const { return std::max(end(), landing_of(count - 1)); }
};

}  // namespace photonsim
