#include "sim/engine/network.h"

#include <algorithm>
#include <stdexcept>

namespace photonsim {

namespace {
enum EventKind : uint64_t { kStart = 1, kLinkFree = 2, kArrive = 3, kDecide = 4 };
constexpr uint64_t token(EventKind kind, uint64_t id) { return (static_cast<uint64_t>(kind) << 56) | id; }
constexpr uint64_t kIdMask = (1ULL << 56) - 1;
}  // namespace

Network::Network(const FabricSpec& fabric, Segmentation segmentation, EventList& events)
    : fabric_(fabric),
      segmentation_(segmentation),
      events_(events),
      header_serialization_(fabric.bandwidth.serialization(fabric.header)) {}

void Network::install(const Topology& topology) {
  if (pool_.live() != 0) {
    throw std::logic_error("reconfiguration with " + std::to_string(pool_.live()) +
                           " packets in flight");
  }
  links_.assign(topology.edges().size(), Link{});
  decisions_.clear();
  for (size_t i = 0; i < links_.size(); ++i) {
    links_[i].from = topology.edges()[i].first;
    links_[i].to = topology.edges()[i].second;
  }
}

void Network::start_flows(std::vector<FlowSpec> flows, Time at) {
  flows_.clear();
  flows_.reserve(flows.size());
  flows_remaining_ = 0;
  started_at_ = at;
  finished_at_ = at;
  for (FlowSpec& spec : flows) {
    for (size_t hop = 0; hop < spec.route.size(); ++hop) {
      const uint32_t link = spec.route[hop];
      if (link >= links_.size()) throw std::logic_error("flow routed over a circuit not installed");
      if (hop > 0 && links_[spec.route[hop - 1]].to != links_[link].from) {
        throw std::logic_error("flow " + std::to_string(flows_.size()) + ": hop " + std::to_string(hop) +
                               " leaves node " + std::to_string(links_[link].from) + " but the packet is at node " +
                               std::to_string(links_[spec.route[hop - 1]].to));
      }
    }
    if (spec.bytes.count() > 0 && spec.route.empty()) {
      throw std::logic_error("flow " + std::to_string(flows_.size()) + " carries bytes but has no route");
    }
    Flow flow;
    flow.chunk_bytes = segmentation_.chunk_size(spec.bytes);
    flow.spec = std::move(spec);
    if (flow.spec.bytes.count() > 0) ++flows_remaining_;
    flows_.push_back(std::move(flow));
  }
  events_.schedule(at, *this, token(kStart, 0));
}

std::vector<size_t> Network::undelivered_flows() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < flows_.size(); ++i) {
    if (flows_[i].delivered < flows_[i].spec.bytes.count()) out.push_back(i);
  }
  return out;
}

void Network::check_conservation() const {
  if (pool_.live() != 0) {
    throw std::logic_error(std::to_string(pool_.live()) + " packets left in the network after the step");
  }
  for (size_t i = 0; i < flows_.size(); ++i) {
    const Flow& flow = flows_[i];
    if (flow.injected != flow.spec.bytes.count() || flow.delivered != flow.spec.bytes.count()) {
      throw std::logic_error("flow " + std::to_string(i) + " of " + std::to_string(flow.spec.bytes.count()) +
                             " bytes: " + std::to_string(flow.injected) + " injected, " +
                             std::to_string(flow.delivered) + " delivered");
    }
  }
}

Network::QueueEntry Network::forwarded_entry(const Packet& packet, PacketId id, Time now) const {
  const uint64_t remaining = flows_[packet.flow].spec.route.size() - packet.hop;
  const uint64_t tie = ((UINT32_MAX - remaining) << 32) | packet.flow;
  const auto queued = static_cast<uint64_t>(now.picoseconds());
  if (fabric_.egress_order == EgressOrder::fifo) return QueueEntry{queued, 0, tie, id, 0};
  return QueueEntry{static_cast<uint64_t>(packet.chunk) << 1, queued, tie, id, 0};
}

Network::QueueEntry Network::own_entry(uint32_t flow_index) const {
  const Flow& flow = flows_[flow_index];
  const uint64_t tie = ((UINT32_MAX - flow.spec.route.size()) << 32) | flow_index;
  if (fabric_.egress_order == EgressOrder::fifo) {
    return QueueEntry{static_cast<uint64_t>(started_at_.picoseconds()), 1, tie, flow_index, 1};
  }
  return QueueEntry{(static_cast<uint64_t>(flow.next_chunk) << 1) | 1, 0, tie, flow_index, 1};
}

void Network::push(Link& link, const QueueEntry& entry) {
  link.queue.push_back(entry);
  std::push_heap(link.queue.begin(), link.queue.end(),
                 [](const QueueEntry& a, const QueueEntry& b) { return a.after(b); });
}

Network::QueueEntry Network::pop(Link& link) {
  std::pop_heap(link.queue.begin(), link.queue.end(),
                [](const QueueEntry& a, const QueueEntry& b) { return a.after(b); });
  QueueEntry top = link.queue.back();
  link.queue.pop_back();
  return top;
}

PacketId Network::make_packet(uint32_t flow_index) {
  Flow& flow = flows_[flow_index];
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
  stats_.peak_packets_in_flight = std::max<uint64_t>(stats_.peak_packets_in_flight, pool_.live());
  return id;
}

void Network::wake(uint32_t link_index, Time now) {
  Link& link = links_[link_index];
  if (link.free_at > now) {
    // Busy: it decides when it frees. A LinkFree event exists only while
    // something waits, so idle circuits cost no events.
    if (!link.wake_scheduled) {
      link.wake_scheduled = true;
      events_.schedule(link.free_at, *this, token(kLinkFree, link_index), EventPriority::arrival);
    }
    return;
  }
  if (link.decision_pending) return;
  link.decision_pending = true;
  decisions_.push_back(link_index);
  if (!decision_scheduled_) {
    // One decision event per picosecond, after every arrival and LinkFree of
    // that picosecond (they have the earlier priority class).
    decision_scheduled_ = true;
    events_.schedule(now, *this, token(kDecide, 0), EventPriority::normal);
  }
}

void Network::decide_pending(Time now) {
  decision_scheduled_ = false;
  deciding_.swap(decisions_);
  for (uint32_t link_index : deciding_) {
    links_[link_index].decision_pending = false;
    transmit(link_index, now);
  }
  deciding_.clear();
}

void Network::transmit(uint32_t link_index, Time now) {
  Link& link = links_[link_index];
  const QueueEntry next = pop(link);
  PacketId id = next.id;
  if (next.own) {
    id = make_packet(next.id);
    const Flow& flow = flows_[next.id];
    if (flow.injected < flow.spec.bytes.count()) push(link, own_entry(next.id));
  }
  const Packet& p = pool_[id];
  const Flow& flow = flows_[p.flow];
  const Time serialization = this->serialization(p.bytes);
  const bool last_hop = p.hop + 1 == flow.spec.route.size();
  Time until_forwardable = serialization;
  if (!last_hop && fabric_.router == RouterMode::cut_through && Bytes(p.bytes) > fabric_.header) {
    until_forwardable = header_serialization_;
  }
  link.free_at = now + serialization;
  ++stats_.packet_hops;
  const InFlight landing{now + until_forwardable + fabric_.latency, id};
  if (link.in_flight.empty()) {
    events_.schedule(landing.arrives, *this, token(kArrive, link_index), EventPriority::arrival);
  }
  link.in_flight.push_back(landing);
  if (!link.queue.empty()) wake(link_index, now);
}

void Network::land_first_in_flight(uint32_t link_index, Time now) {
  RingBuffer<InFlight>& in_flight = links_[link_index].in_flight;
  const PacketId id = in_flight.pop_front().id;
  if (!in_flight.empty()) {
    events_.schedule(in_flight.front().arrives, *this, token(kArrive, link_index), EventPriority::arrival);
  }
  arrive(id, now);
}

void Network::arrive(PacketId id, Time now) {
  Packet& p = pool_[id];
  Flow& flow = flows_[p.flow];
  ++p.hop;
  if (p.hop == flow.spec.route.size()) {
    flow.delivered += p.bytes;
    stats_.bytes_delivered += p.bytes;
    pool_.release(id);
    if (flow.delivered == flow.spec.bytes.count()) {
      --flows_remaining_;
      finished_at_ = now;
    }
    return;
  }
  const uint32_t link_index = flow.spec.route[p.hop];
  push(links_[link_index], forwarded_entry(p, id, now));
  wake(link_index, now);
}

void Network::on_event(Time now, uint64_t tok) {
  const uint64_t id = tok & kIdMask;
  switch (static_cast<EventKind>(tok >> 56)) {
    case kStart:
      for (size_t f = 0; f < flows_.size(); ++f) {
        if (flows_[f].spec.bytes.count() == 0) continue;
        push(links_[flows_[f].spec.route.front()], own_entry(static_cast<uint32_t>(f)));
      }
      for (uint32_t l = 0; l < links_.size(); ++l) {
        if (!links_[l].queue.empty()) wake(l, now);
      }
      break;
    case kLinkFree:
      links_[id].wake_scheduled = false;
      wake(static_cast<uint32_t>(id), now);
      break;
    case kArrive:
      land_first_in_flight(static_cast<uint32_t>(id), now);
      break;
    case kDecide:
      decide_pending(now);
      break;
  }
}

}  // namespace photonsim
