#pragma once
// Contract: the packet-level fabric, htsim style. Each circuit of the
// installed topology is an egress serialiser at line rate followed by a
// propagation pipe. GPUs inject their flows' packets and forward others'
// packets: store-and-forward once a packet has fully arrived, cut-through once
// its header has. Each egress port sends the waiting packet of smallest chunk
// index first; at equal index, forwarded packets before the GPU's own, then
// first come first served; among its own flows, the longer route first (the
// critical path), then flow order.
// Lifecycle: install(topology) while idle, start_flows(at), drive the
// EventList until empty, read finished_at(); repeat per step.
#include <cstdint>
#include <vector>

#include "core/event_list.h"
#include "core/fabric_spec.h"
#include "core/packet_pool.h"
#include "core/ring_buffer.h"
#include "core/segmentation.h"
#include "sim/network_stats.h"
#include "topology/topology.h"

namespace photonsim {

struct FlowSpec {
  Bytes bytes;
  std::vector<uint32_t> route;  // circuit indices into the installed topology's edges
};

class Network : public EventHandler {
 public:
  Network(const FabricSpec& fabric, Segmentation segmentation, EventList& events);

  // Replaces the circuits. Throws std::logic_error if packets are in flight
  // (a reconfiguration must never strand a packet on a dark circuit).
  void install(const Topology& topology);
  // Queues the flows for injection at time `at` (>= now). Throws
  // std::logic_error for a route that leaves the installed circuits or does
  // not chain (each circuit must start where the previous one ends), so a
  // packet only ever travels on lit circuits, from where it is.
  void start_flows(std::vector<FlowSpec> flows, Time at);
  // Conservation, once the event list is empty: every flow's bytes were cut
  // into packets and delivered exactly once, and no packet is left. Throws
  // std::logic_error naming the first flow that breaks it.
  void check_conservation() const;
  bool all_delivered() const { return flows_remaining_ == 0; }
  // Time the last packet of the current flows was delivered (start time if none).
  Time finished_at() const { return finished_at_; }
  // Flows of the current step that have not been fully delivered.
  std::vector<size_t> undelivered_flows() const;
  const NetworkStats& stats() const { return stats_; }

  void on_event(Time now, uint64_t token) override;

 private:
  struct QueueEntry {
    uint32_t chunk;
    uint32_t local;   // 0 = forwarded packet, 1 = a local flow's next packet
    uint64_t order;   // enqueue sequence (forwarded) or local_order() (local)
    uint32_t id;      // packet id or flow index
    bool after(const QueueEntry& o) const {
      if (chunk != o.chunk) return chunk > o.chunk;
      if (local != o.local) return local > o.local;
      return order > o.order;
    }
  };
  struct InFlight {
    Time arrives;
    uint64_t order;  // the arrival's reserved place in the event order
    PacketId id;
  };
  struct Link {
    Node from = 0;
    Node to = 0;
    bool busy = false;
    std::vector<QueueEntry> queue;  // binary heap, smallest first
    // Packets on the circuit, in arrival order (a circuit delivers in the
    // order it sends); only the first is in the EventList.
    RingBuffer<InFlight> in_flight;
  };
  struct Flow {
    FlowSpec spec;
    int64_t chunk_bytes = 0;   // size of a full chunk
    int64_t injected = 0;      // bytes cut into packets so far
    int64_t delivered = 0;
    uint32_t next_chunk = 0;
    int64_t offset_in_chunk = 0;
    uint64_t next_seq = 0;
  };

  uint64_t local_order(size_t flow) const;
  void push(Link& link, uint32_t chunk, uint32_t local, uint64_t order, uint32_t id);
  QueueEntry pop(Link& link);
  void try_transmit(uint32_t link_index, Time now);
  PacketId make_packet(uint32_t flow_index);
  void arrive(PacketId id, Time now);
  void land_first_in_flight(uint32_t link_index, Time now);
  // Packets are mostly full-sized: remember the last size's serialisation
  // instead of a 128-bit division per packet-hop.
  Time serialization(uint32_t bytes) {
    if (bytes != memo_bytes_) {
      memo_bytes_ = bytes;
      memo_time_ = fabric_.bandwidth.serialization(Bytes(bytes));
    }
    return memo_time_;
  }

  FabricSpec fabric_;
  Segmentation segmentation_;
  EventList& events_;
  PacketPool pool_;
  std::vector<Link> links_;
  std::vector<Flow> flows_;
  size_t flows_remaining_ = 0;
  Time finished_at_;
  uint64_t enqueue_seq_ = 0;
  NetworkStats stats_;
  uint32_t memo_bytes_ = UINT32_MAX;
  Time memo_time_;
  Time header_serialization_;
};

}  // namespace photonsim
