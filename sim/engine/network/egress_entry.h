#pragma once
// Contract: one waiting item at an egress port and its place in the port's
// order, as a lexicographic key (smaller is sent first); the egress order of
// Network's contract is stated here and nowhere else.
//   chunk: (step, chunk index, origin), time queued (own: 0), tie
//          (the step matters only when steps overlap: an earlier step first)
//   fifo:  time queued (own: the flow's start), origin, tie
//   chunk_fifo: (step, chunk index), time queued (own: the flow's start) and
//          origin, tie (the all-to-all paper's htsim queues: smaller chunk
//          index first, equal indices first come first served)
//   tie:   the longer remaining route, then the smaller place (the flow's
//          place in the schedule: step by step, then its place in the step;
//          the flow index unless given), then id
// A forwarded entry names a packet; an own entry names the local flow whose
// next packet is cut when the port sends it, so a flow waits as one entry.
#include <cstdint>

#include "core/spec/fabric_spec.h"
#include "core/packet.h"
#include "core/time.h"
#include "sim/engine/network/packet_origin.h"

namespace photonsim {

struct EgressEntry {
  static constexpr uint32_t kFlowIndex = UINT32_MAX;  // place: the flow index itself
  uint64_t first;
  uint64_t second;
  uint64_t third;
  uint32_t id;  // packet id (forwarded) or flow index (own)
  PacketOrigin origin;

  static EgressEntry forwarded(EgressOrder order, uint32_t chunk, Time queued, uint64_t remaining_hops, uint32_t flow,
                               PacketId id, uint32_t step = 0, uint32_t place = kFlowIndex) {
    const auto at = static_cast<uint64_t>(queued.picoseconds());
    const uint64_t tie = route_tie(remaining_hops, place == kFlowIndex ? flow : place);
    if (order == EgressOrder::fifo) return {at, origin_bits(PacketOrigin::forwarded), tie, id, PacketOrigin::forwarded};
    if (order == EgressOrder::chunk_fifo) {
      return {chunk_key(step, chunk, PacketOrigin::forwarded), time_then_origin(at, PacketOrigin::forwarded), tie, id,
              PacketOrigin::forwarded};
    }
    return {chunk_key(step, chunk, PacketOrigin::forwarded), at, tie, id, PacketOrigin::forwarded};
  }
  static EgressEntry own(EgressOrder order, uint32_t next_chunk, Time flow_start, uint64_t route_hops, uint32_t flow,
                         uint32_t step = 0, uint32_t place = kFlowIndex) {
    const uint64_t tie = route_tie(route_hops, place == kFlowIndex ? flow : place);
    if (order == EgressOrder::fifo) {
      return {static_cast<uint64_t>(flow_start.picoseconds()), origin_bits(PacketOrigin::own), tie, flow,
              PacketOrigin::own};
    }
    if (order == EgressOrder::chunk_fifo) {
      // Origin is not part of the chunk key here: it only breaks ties of time.
      return {chunk_key(step, next_chunk, PacketOrigin::forwarded),
              time_then_origin(static_cast<uint64_t>(flow_start.picoseconds()), PacketOrigin::own), tie, flow,
              PacketOrigin::own};
    }
    return {chunk_key(step, next_chunk, PacketOrigin::own), 0, tie, flow, PacketOrigin::own};
  }

  // True if `o` goes first.
  bool after(const EgressEntry& o) const {
    if (first != o.first) return first > o.first;
    if (second != o.second) return second > o.second;
    if (third != o.third) return third > o.third;
    return id > o.id;
  }

 private:
  static constexpr uint64_t origin_bits(PacketOrigin origin) { return static_cast<uint64_t>(origin); }
  // 31 bits of step above 32 of chunk and 1 of origin.
  static constexpr uint64_t chunk_key(uint32_t step, uint32_t chunk, PacketOrigin origin) {
    return (static_cast<uint64_t>(step & 0x7fffffffU) << 33) | (static_cast<uint64_t>(chunk) << 1) |
           origin_bits(origin);
  }
  // Times in picoseconds stay far below 2^62 (about 53 days), so one bit is free below them.
  static constexpr uint64_t time_then_origin(uint64_t at, PacketOrigin origin) { return (at << 1) | origin_bits(origin); }
  // Longer remaining route first: routes are far shorter than 2^32 hops.
  static constexpr uint64_t route_tie(uint64_t hops, uint32_t flow) { return ((UINT32_MAX - hops) << 32) | flow; }
};

}  // namespace photonsim
