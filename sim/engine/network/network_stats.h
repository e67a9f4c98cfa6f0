#pragma once
// Contract: counters a Network accumulates over a whole run.
#include <cstdint>
#include <vector>

#include "core/time.h"

namespace photonsim {

struct NetworkStats {
  uint64_t packets = 0;      // packets injected
  uint64_t packet_hops = 0;  // packet transmissions over one circuit
  int64_t bytes_injected = 0;
  int64_t bytes_delivered = 0;
  // The most packets in the network at once: cut from their flow (a GPU
  // cuts its own packet when its port starts sending it) and not yet
  // delivered, whether on a circuit or waiting at a GPU to be forwarded.
  uint64_t peak_packets_in_flight = 0;
  // What the engine moved, each over one circuit in one event's work: trains
  // of packets an egress port sent back to back (the packet engine), or
  // single packets (packet_reference: the packet-hops). Like the events, the
  // only figure the two engines may differ in.
  uint64_t trains = 0;
  // Closed windows (a barrier step's flows, say) not moved but replayed from
  // an identical earlier one (exact reuse, window_reuse.h): their packets
  // and packet-hops are counted above, their trains and events are not.
  uint64_t reused = 0;
  // Failures that take circuits down (docs/model.md, "Lost circuits"): the
  // packets lost on a dead circuit (L3); every packet cut and never
  // delivered (lost, dropped after a loss, let go by a rewind: L3, L4, L6);
  // the bytes cut again after the rewinds; the rewinds; the time flows
  // waited for a route (L7). All zero on a healthy fabric.
  uint64_t packets_lost = 0;
  int64_t bytes_lost = 0;
  uint64_t packets_dropped = 0;
  int64_t bytes_dropped = 0;
  int64_t bytes_resent = 0;
  uint64_t rewinds = 0;
  Time waited;
  // Per fabric.failures entry (indexed by it; empty on a healthy fabric): the
  // packets lost in its interval (L3), charged to the first entry listed
  // where intervals overlap.
  struct EntryLoss {
    uint64_t packets = 0;
    int64_t bytes = 0;
  };
  std::vector<EntryLoss> lost_by_entry;
};

}  // namespace photonsim
