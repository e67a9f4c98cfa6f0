#pragma once
// Contract: the unit of forwarding. A packet belongs to one flow (a transfer
// being replayed), carries `bytes` of its `chunk`, and knows how many hops of
// the flow's route it has completed, and its place in the order the flow cut
// its packets (a single-route flow arrives in that order; the network checks
// it). Plain data: the pool recycles it.
#include <cstdint>

namespace photonsim {

using PacketId = uint32_t;

struct Packet {
  uint32_t flow = 0;      // index of the flow in the running step
  uint32_t chunk = 0;     // chunk index inside the flow: smaller goes first
  uint32_t hop : 31 = 0;  // hops completed so far
  // Lost on a dead circuit or let go by its flow's rewind: dropped where it
  // next lands (docs/model.md, "Lost circuits").
  uint32_t lost : 1 = 0;
  uint32_t bytes = 0;  // payload carried
  uint64_t seq = 0;    // place in the flow's packets (0, 1, ...): delivery must follow it
};

}  // namespace photonsim
