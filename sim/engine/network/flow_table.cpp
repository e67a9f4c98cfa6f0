#include "sim/engine/network/flow_table.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace photonsim {

void FlowTable::expect(size_t count) {
  // Not an exact reserve: flows arrive a few at a time under dataflow, and
  // only geometric growth keeps appending them linear.
  if (flows_.capacity() < flows_.size() + count) flows_.reserve(std::max(2 * flows_.capacity(), flows_.size() + count));
}

uint32_t FlowTable::add(FlowSpec spec, Time at) {
  const uint32_t id = next_id();
  Flow flow;
  flow.chunk_bytes = segmentation_.chunk_size(spec.bytes);
  flow.spec = std::move(spec);
  flow.started_at = at;
  flow.delivered_at = at;
  if (flow.spec.bytes.count() > 0) ++flows_remaining_;
  flows_.push_back(std::move(flow));
  return id;
}

void FlowTable::forget_delivered() {
  flow_base_ += flows_.size();
  std::vector<Flow>().swap(flows_);
}

PacketId FlowTable::cut_packet(uint32_t flow_index) {
  Flow& flow = flow_at(flow_index);
  const int64_t chunk_start = static_cast<int64_t>(flow.next_chunk) * flow.chunk_bytes;
  const int64_t this_chunk = std::min(flow.chunk_bytes, flow.spec.bytes.count() - chunk_start);
  const int64_t packet = segmentation_.packet_size(this_chunk);
  const int64_t bytes = std::min(packet, this_chunk - flow.offset_in_chunk);

  const PacketId id = pool_.acquire();
  Packet& p = pool_[id];
  p.flow = flow_index;
  p.chunk = flow.next_chunk;
  p.hop = 0;
  p.bytes = static_cast<uint32_t>(bytes);
  p.seq = flow.next_seq++;

  flow.injected += bytes;
  flow.offset_in_chunk += bytes;
  if (flow.offset_in_chunk == this_chunk) {
    ++flow.next_chunk;
    flow.offset_in_chunk = 0;
  }
  ++stats_->packets;
  stats_->bytes_injected += bytes;
  return id;
}

void FlowTable::deliver(PacketId id, Time now) {
  const Packet& p = pool_[id];
  Flow& flow = flow_at(p.flow);
  if (p.seq != flow.packets_delivered && flow.loss_pending) {
    drop(id);
    return;
  }
  if (p.seq != flow.packets_delivered) {
    throw std::logic_error("flow " + std::to_string(p.flow) + ": packet " + std::to_string(p.seq) +
                           " delivered when packet " + std::to_string(flow.packets_delivered) +
                           " was due (a flow's packets must arrive in order)");
  }
  const uint32_t flow_index = p.flow;
  ++flow.packets_delivered;
  flow.delivered += p.bytes;
  stats_->bytes_delivered += p.bytes;
  pool_.release(id);
  if (flow.delivered == flow.spec.bytes.count()) {
    --flows_remaining_;
    flow.delivered_at = now;
    if (listener_ != nullptr) listener_->on_flow_delivered(flow_index, now);
  }
}

void FlowTable::mark_lost(PacketId id) {
  Packet& p = pool_[id];
  p.lost = 1;
  flow_at(p.flow).loss_pending = true;
  ++stats_->packets_lost;
  stats_->bytes_lost += p.bytes;
}

void FlowTable::drop(PacketId id) {
  ++stats_->packets_dropped;
  stats_->bytes_dropped += pool_[id].bytes;
  pool_.release(id);
}

void FlowTable::rewind(uint32_t flow_index) {
  Flow& flow = flow_at(flow_index);
  ++stats_->rewinds;
  stats_->bytes_resent += flow.injected - flow.delivered;
  flow.injected = flow.delivered;
  // The accepted prefix ends on a packet boundary, so chunks and packets are
  // cut again exactly as the first time.
  flow.next_chunk = static_cast<uint32_t>(flow.delivered / flow.chunk_bytes);
  flow.offset_in_chunk = flow.delivered % flow.chunk_bytes;
  flow.next_seq = flow.packets_delivered;
  flow.loss_pending = false;
  flow.rewind_at = Time::max();
}

void FlowTable::check_conservation() const {
  if (pool_.live() != 0) {
    throw std::logic_error(std::to_string(pool_.live()) + " packets left in the network after the step");
  }
  for (size_t i = 0; i < flows_.size(); ++i) {
    const Flow& flow = flows_[i];
    if (flow.injected != flow.spec.bytes.count() || flow.delivered != flow.spec.bytes.count()) {
      throw std::logic_error("flow " + std::to_string(flow_base_ + i) + " of " +
                             std::to_string(flow.spec.bytes.count()) + " bytes: " + std::to_string(flow.injected) +
                             " injected, " + std::to_string(flow.delivered) + " delivered");
    }
  }
}

}  // namespace photonsim
