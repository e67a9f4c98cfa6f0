#pragma once
// Contract: the packet-level fabric, htsim style. Each circuit of the
// installed topology is an egress serialiser at line rate followed by a
// propagation pipe. GPUs inject their flows' packets and forward others'
// packets: store-and-forward once a packet has fully arrived, cut-through once
// its header has.
// Order at an egress port: at every picosecond, every packet due then lands
// first (and every circuit due to free frees); only then does each idle port
// choose among everything waiting, so the choice never depends on the order
// in which same-time events are handled, nor on GPU numbering. The choice,
// with fabric.egress_order = chunk (default): smallest chunk index; at equal
// index forwarded packets before the GPU's own; forwarded packets first come
// first served (by the time they became forwardable here), own flows by the
// longer route (the critical path); remaining ties: the longer remaining route,
// then the smaller flow index (the transfer's place in the step).
// With egress_order = fifo: first come first served, the GPU's own packets
// counted as queued at the step's start; ties as above (forwarded before own,
// longer remaining route, smaller flow index).
// Lifecycle: install(topology) while idle, start_flows(at), drive the
// EventList until empty, read finished_at(); repeat per step.
#include <cstdint>
#include <vector>

#include "core/event_list.h"
#include "core/fabric_spec.h"
#include "core/packet_pool.h"
#include "core/ring_buffer.h"
#include "core/segmentation.h"
#include "sim/engine/network_stats.h"
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
  // The egress choice as a lexicographic key (see the contract above).
  struct QueueEntry {
    uint64_t first;   // chunk: chunk index << 1 | own;  fifo: time queued
    uint64_t second;  // chunk: time queued (own: 0);    fifo: own
    uint64_t third;   // (UINT32_MAX - remaining hops) << 32 | flow index
    uint32_t id;      // packet id (forwarded) or flow index (own)
    uint32_t own;     // 1: the id is a local flow whose next packet is cut on sending
    bool after(const QueueEntry& o) const {
      if (first != o.first) return first > o.first;
      if (second != o.second) return second > o.second;
      if (third != o.third) return third > o.third;
      return id > o.id;
    }
  };
  struct InFlight {
    Time arrives;
    PacketId id;
  };
  struct Link {
    Node from = 0;
    Node to = 0;
    Time free_at;                 // the serialiser is busy before this time
    bool wake_scheduled = false;  // a LinkFree event is pending at free_at
    bool decision_pending = false;
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

  QueueEntry forwarded_entry(const Packet& packet, PacketId id, Time now) const;
  QueueEntry own_entry(uint32_t flow_index) const;
  void push(Link& link, const QueueEntry& entry);
  QueueEntry pop(Link& link);
  // A packet was queued at the link: make sure it is decided on when the
  // link is (or becomes) free, after every event of that picosecond.
  void wake(uint32_t link_index, Time now);
  void decide_pending(Time now);
  void transmit(uint32_t link_index, Time now);
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
  Time started_at_;
  Time finished_at_;
  std::vector<uint32_t> decisions_;  // links to decide on at this picosecond
  std::vector<uint32_t> deciding_;
  bool decision_scheduled_ = false;
  NetworkStats stats_;
  uint32_t memo_bytes_ = UINT32_MAX;
  Time memo_time_;
  Time header_serialization_;
};

}  // namespace photonsim
