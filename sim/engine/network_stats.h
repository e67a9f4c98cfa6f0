#pragma once
// Contract: counters a Network accumulates over a whole run.
#include <cstdint>

namespace photonsim {

struct NetworkStats {
  uint64_t packets = 0;         // packets injected
  uint64_t packet_hops = 0;     // packet transmissions over one circuit
  int64_t bytes_injected = 0;
  int64_t bytes_delivered = 0;
  uint64_t peak_packets_in_flight = 0;
};

}  // namespace photonsim
