#include "sim/engine/network/network.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace photonsim {

Network::Network(const FabricSpec& fabric, Segmentation segmentation, EventList& events)
    : fabric_(fabric),
      segmentation_(segmentation),
      events_(events),
      router_(fabric.router, fabric.header, fabric.bandwidth, fabric.bandwidth) {}

void Network::reset_circuits(size_t slots) {
  if (pool_.live() != 0) {
    throw std::logic_error("reconfiguration with " + std::to_string(pool_.live()) + " packets in flight");
  }
  Circuit circuit;
  circuit.rate = fabric_.bandwidth;
  circuits_.assign(slots, circuit);
}

bool Network::idle(uint32_t circuit_index, Time now) const {
  const Circuit& circuit = circuits_.at(circuit_index);
  return circuit.egress.empty() && circuit.pipe.empty() && !circuit.egress.busy_at(now) && !circuit.decision_pending;
}

void Network::light(uint32_t circuit_index, Node from, Node to, uint32_t port, Bandwidth rate, Time now) {
  if (!idle(circuit_index, now)) throw std::logic_error("circuit " + std::to_string(circuit_index) + " lit while busy");
  Circuit& circuit = circuits_[circuit_index];
  circuit.from = from;
  circuit.to = to;
  circuit.port = port;
  circuit.set_rate(rate);
  circuit.lit = true;
  circuit.pipe = Pipe(fabric_.latency);
}

void Network::darken(uint32_t circuit_index, Time now) {
  if (!idle(circuit_index, now))
    throw std::logic_error("circuit " + std::to_string(circuit_index) + " went dark while busy");
  circuits_[circuit_index].lit = false;
}

uint32_t Network::add_flows(std::vector<FlowSpec> flows, Time at) {
  const auto first = static_cast<uint32_t>(flow_base_ + flows_.size());
  // Not an exact reserve: flows arrive a few at a time under dataflow, and
  // only geometric growth keeps appending them linear.
  if (flows_.capacity() < flows_.size() + flows.size())
    flows_.reserve(std::max(2 * flows_.capacity(), flows_.size() + flows.size()));
  for (FlowSpec& spec : flows) {
    for (size_t hop = 0; hop < spec.route.size(); ++hop) {
      const uint32_t circuit = spec.route[hop];
      if (circuit >= circuits_.size()) throw std::logic_error("flow routed over a circuit not installed");
      if (!circuits_[circuit].lit) {
        throw std::logic_error("flow " + std::to_string(flow_base_ + flows_.size()) + " routed over dark circuit " +
                               std::to_string(circuit));
      }
      if (hop > 0 && circuits_[spec.route[hop - 1]].to != circuits_[circuit].from) {
        throw std::logic_error("flow " + std::to_string(flow_base_ + flows_.size()) + ": hop " + std::to_string(hop) +
                               " leaves node " + std::to_string(circuits_[circuit].from) +
                               " but the packet is at node " + std::to_string(circuits_[spec.route[hop - 1]].to));
      }
    }
    if (spec.bytes.count() > 0 && spec.route.empty()) {
      throw std::logic_error("flow " + std::to_string(flow_base_ + flows_.size()) + " carries bytes but has no route");
    }
    Flow flow;
    flow.chunk_bytes = segmentation_.chunk_size(spec.bytes);
    flow.spec = std::move(spec);
    flow.started_at = at;
    flow.delivered_at = at;
    if (flow.spec.bytes.count() > 0) ++flows_remaining_;
    flows_.push_back(std::move(flow));
  }
  const auto end = static_cast<uint32_t>(flow_base_ + flows_.size());
  if (last_start_pending_ && last_start_at_ == at && start_batches_.back().second == first) {
    // Joins the batch already due then: one event starts both (the ports
    // choose after every start of that picosecond either way).
    start_batches_.back().second = end;
    return first;
  }
  start_batches_.emplace_back(first, end);
  last_start_at_ = at;
  last_start_pending_ = true;
  // With the landings, before the ports of that picosecond choose: a flow
  // that joins at t is waiting when they do.
  schedule(at, EventToken::Kind::start, start_base_ + start_batches_.size() - 1, EventPriority::arrival);
  return first;
}

bool Network::forget_delivered_flows() {
  if (flows_remaining_ != 0 || starts_fired_ != start_base_ + start_batches_.size()) return false;
  flow_base_ += flows_.size();
  std::vector<Flow>().swap(flows_);
  start_base_ += start_batches_.size();
  std::vector<std::pair<uint32_t, uint32_t>>().swap(start_batches_);
  return true;
}

void Network::check_conservation() const {
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

EgressEntry Network::forwarded_entry(const Packet& packet, PacketId id, Time now) const {
  const uint64_t remaining_hops = flow_at(packet.flow).spec.route.size() - packet.hop;
  const FlowSpec& spec = flow_at(packet.flow).spec;
  return EgressEntry::forwarded(fabric_.egress_order, packet.chunk, now, remaining_hops, packet.flow, id, spec.step,
                                spec.place);
}

EgressEntry Network::own_entry(uint32_t flow_index) const {
  const Flow& flow = flow_at(flow_index);
  return EgressEntry::own(fabric_.egress_order, flow.next_chunk, flow.started_at, flow.spec.route.size(), flow_index,
                          flow.spec.step, flow.spec.place);
}

PacketId Network::make_packet(uint32_t flow_index) {
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
  ++stats_.packets;
  stats_.bytes_injected += bytes;
  return id;
}

void Network::wake(uint32_t circuit_index, Time now) {
  Circuit& circuit = circuits_[circuit_index];
  if (circuit.decision_pending) return;
  circuit.decision_pending = true;
  // The port chooses when its serialiser is free: now, or when it frees.
  const Time at = std::max(now, circuit.egress.free_at());
  decision_batch_at(at).push_back(circuit_index);
}

std::vector<uint32_t>& Network::decision_batch_at(Time at) {
  uint32_t id = batches_.find(at);
  if (id == TimeSlots<std::vector<uint32_t>>::kNone) {
    id = batches_.open(at);
    // One decide event per picosecond at which ports choose, after every
    // landing of that picosecond (they have the earlier priority class).
    schedule(at, EventToken::Kind::decide, id, EventPriority::normal);
  }
  return batches_[id];
}

void Network::decide(uint32_t batch, Time now) {
  // By index: a port whose serialisation takes no time would choose again
  // at this picosecond, in this batch.
  for (size_t i = 0; i < batches_[batch].size(); ++i) {
    const uint32_t circuit_index = batches_[batch][i];
    circuits_[circuit_index].decision_pending = false;
    transmit(circuit_index, now);
  }
  batches_[batch].clear();
  batches_.close(batch);
}

void Network::transmit(uint32_t circuit_index, Time now) {
  Circuit& circuit = circuits_[circuit_index];
  const EgressEntry next = circuit.egress.pop();
  PacketId id = next.id;
  if (next.origin == PacketOrigin::own) {
    id = make_packet(next.id);
    const Flow& flow = flow_at(next.id);
    if (flow.injected < flow.spec.bytes.count()) circuit.egress.push(own_entry(next.id));
  }
  const Packet& p = pool_[id];
  const Flow& flow = flow_at(p.flow);
  const Time serialization = Network::serialization(circuit, p.bytes);
  const bool last_hop = p.hop + 1 == flow.spec.route.size();
  const Time forwardable_after = router_.forwardable_after(p.bytes, serialization, last_hop);
  circuit.egress.serialise(now, serialization);
  if (recorder_ != nullptr)
    recorder_->busy(circuit.from, circuit.port, circuit.to, flow.spec.step, now, now + serialization);
  ++stats_.packet_hops;
  const bool pipe_was_empty = circuit.pipe.empty();
  const Time lands_at = circuit.pipe.carry(id, now + forwardable_after);
  // Only the pipe's front packet is in the EventList; the next is scheduled
  // when it lands (land_front_of_pipe).
  if (pipe_was_empty) schedule(lands_at, EventToken::Kind::landing, circuit_index, EventPriority::arrival);
  if (!circuit.egress.empty()) wake(circuit_index, now);
}

void Network::land_front_of_pipe(uint32_t circuit_index, Time now) {
  Pipe& pipe = circuits_[circuit_index].pipe;
  const PacketId id = pipe.land();
  if (!pipe.empty()) schedule(pipe.front().at, EventToken::Kind::landing, circuit_index, EventPriority::arrival);
  receive(id, now);
}

void Network::receive(PacketId id, Time now) {
  Packet& p = pool_[id];
  Flow& flow = flow_at(p.flow);
  ++p.hop;
  if (p.hop == flow.spec.route.size()) {
    if (p.seq != flow.packets_delivered) {
      throw std::logic_error("flow " + std::to_string(p.flow) + ": packet " + std::to_string(p.seq) +
                             " delivered when packet " + std::to_string(flow.packets_delivered) +
                             " was due (a flow's packets must arrive in order)");
    }
    ++flow.packets_delivered;
    flow.delivered += p.bytes;
    stats_.bytes_delivered += p.bytes;
    pool_.release(id);
    if (flow.delivered == flow.spec.bytes.count()) {
      --flows_remaining_;
      flow.delivered_at = now;
      if (listener_ != nullptr) listener_->on_flow_delivered(p.flow, now);
    }
    return;
  }
  const uint32_t next_circuit = flow.spec.route[p.hop];
  circuits_[next_circuit].egress.push(forwarded_entry(p, id, now));
  wake(next_circuit, now);
}

void Network::on_event(Time now, uint64_t raw_token) {
  const EventToken token = EventToken::from_raw(raw_token);
  switch (token.kind()) {
    case EventToken::Kind::start: {
      const auto [first, end] = start_batches_[token.id() - start_base_];
      ++starts_fired_;
      if (token.id() + 1 == start_base_ + start_batches_.size()) last_start_pending_ = false;
      for (uint32_t f = first; f < end; ++f) {
        if (flow_at(f).spec.bytes.count() == 0) continue;
        circuits_[flow_at(f).spec.route.front()].egress.push(own_entry(f));
      }
      // A port's choice does not depend on the order ports are woken in.
      for (uint32_t f = first; f < end; ++f) {
        if (flow_at(f).spec.bytes.count() > 0) wake(flow_at(f).spec.route.front(), now);
      }
      break;
    }
    case EventToken::Kind::landing:
      land_front_of_pipe(static_cast<uint32_t>(token.id()), now);
      break;
    case EventToken::Kind::decide:
      decide(static_cast<uint32_t>(token.id()), now);
      break;
  }
}

}  // namespace photonsim
