#pragma once
// Contract: the unit of forwarding. A packet belongs to one flow (a transfer
// being replayed), carries `bytes` of its `chunk`, and knows how many hops of
// the flow's route it has completed. Plain data: the pool recycles it.
#include <cstdint>

namespace photonsim {

using PacketId = uint32_t;

struct Packet {
  uint32_t flow = 0;      // index of the flow in the running step
  uint32_t chunk = 0;     // chunk index inside the flow: smaller goes first
  uint32_t hop = 0;       // hops completed so far
  uint32_t bytes = 0;     // payload carried
  uint64_t seq = 0;       // per-flow packet sequence number, for FIFO tie-breaks
};

}  // namespace photonsim
