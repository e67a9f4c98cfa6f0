#pragma once
// Contract: the flows under way and their packets. A flow's bytes are cut
// into packets (its chunks, then packets, as the segmentation says) one at a
// time, when the flow's first egress port sends the next one; each waiting
// item is keyed for the egress order (EgressEntry); a packet that reaches its
// destination is delivered, and must be the next of its flow (a flow's
// packets arrive in the order they were cut: one out of order is a broken
// invariant, std::logic_error). The listener hears each flow's last byte.
// Flow ids run on across forget_delivered(), which lets delivered flows go.
#include <cstdint>
#include <vector>

#include "core/packet_pool.h"
#include "core/segmentation.h"
#include "core/spec/fabric_spec.h"
#include "core/time.h"
#include "sim/engine/network/egress_entry.h"
#include "sim/engine/network/flow_listener.h"
#include "sim/engine/network/flow_spec.h"
#include "sim/engine/network/network_stats.h"

namespace photonsim {

class FlowTable {
 public:
  FlowTable(Segmentation segmentation, EgressOrder order, NetworkStats& stats)
      : segmentation_(segmentation), order_(order), stats_(&stats) {}

  // The id the next flow added gets.
  uint32_t next_id() const { return static_cast<uint32_t>(flow_base_ + flows_.size()); }
  // `count` more flows are coming: storage for them at once.
  void expect(size_t count);
  uint32_t add(FlowSpec spec, Time at);
  const FlowSpec& spec(uint32_t flow) const { return flow_at(flow).spec; }
  Time delivered_at(uint32_t flow) const { return flow_at(flow).delivered_at; }
  bool all_delivered() const { return flows_remaining_ == 0; }
  // Lets every flow go (ids stay taken); only when all are delivered.
  void forget_delivered();
  size_t held() const { return flows_.size(); }
  void set_listener(FlowListener* listener) { listener_ = listener; }

  Packet& packet(PacketId id) { return pool_[id]; }
  size_t packets_in_flight() const { return pool_.live(); }
  size_t peak_packets_in_flight() const { return pool_.peak_live(); }
  // The flow's next packet, cut now; false from more_to_cut once all are.
  PacketId cut_packet(uint32_t flow);
  bool more_to_cut(uint32_t flow) const {
    const Flow& f = flow_at(flow);
    return f.injected < f.spec.bytes.count();
  }
  EgressEntry forwarded_entry(const Packet& packet, PacketId id, Time now) const {
    const FlowSpec& spec = flow_at(packet.flow).spec;
    const uint64_t remaining_hops = spec.route.size() - size_t{packet.hop};
    return EgressEntry::forwarded(order_, packet.chunk, now, remaining_hops, packet.flow, id, spec.step, spec.place);
  }
  EgressEntry own_entry(uint32_t flow) const {
    const Flow& f = flow_at(flow);
    return EgressEntry::own(order_, f.next_chunk, f.started_at, f.spec.route.size(), flow, f.spec.step, f.spec.place);
  }
  // The packet has reached the last GPU of its route. Under failures (L4)
  // one that follows a lost packet of its flow is dropped there instead.
  void deliver(PacketId id, Time now);

  // Failures (docs/model.md, "Lost circuits"). Whether `flow` is still held
  // (not let go by forget_delivered).
  bool holds(uint32_t flow) const { return flow >= flow_base_ && flow - flow_base_ < flows_.size(); }
  // L3: the packet is lost on a dead circuit; its flow will rewind.
  void mark_lost(PacketId id);
  // L6: a packet of a rewinding flow, waiting (dropped now) or on a circuit
  // (marked: dropped where it lands).
  void drop(PacketId id);
  void let_go_on_landing(PacketId id) { pool_[id].lost = 1; }
  // L6: the flow goes back to the first byte its destination has not
  // accepted; the bytes cut past it will be cut again.
  void rewind(uint32_t flow);
  // When the flow learns of its earliest loss not yet rewound (Time::max(): none).
  Time rewind_due(uint32_t flow) const { return flow_at(flow).rewind_at; }
  void set_rewind_due(uint32_t flow, Time at) { flow_at(flow).rewind_at = at; }

  // Every flow's bytes cut and delivered exactly once and no packet left;
  // std::logic_error naming the first flow that breaks it.
  void check_conservation() const;

 private:
  struct Flow {
    FlowSpec spec;
    int64_t chunk_bytes = 0;  // size of a full chunk
    int64_t injected = 0;     // bytes cut into packets so far
    int64_t delivered = 0;
    uint32_t next_chunk = 0;
    int64_t offset_in_chunk = 0;
    uint64_t next_seq = 0;           // Packet::seq of the next packet cut
    uint64_t packets_delivered = 0;  // = the seq the next delivery must carry
    Time started_at;
    Time delivered_at;
    bool loss_pending = false;  // a packet of it was lost since its last rewind
    Time rewind_at = Time::max();
  };
  const Flow& flow_at(uint32_t flow) const { return flows_[flow - flow_base_]; }
  Flow& flow_at(uint32_t flow) { return flows_[flow - flow_base_]; }

  Segmentation segmentation_;
  EgressOrder order_;
  NetworkStats* stats_;
  PacketPool pool_;
  std::vector<Flow> flows_;  // flows flow_base_, flow_base_ + 1, ...
  size_t flow_base_ = 0;     // flows before it were let go (forget_delivered)
  size_t flows_remaining_ = 0;
  FlowListener* listener_ = nullptr;
};

}  // namespace photonsim
