#include "sim/engine/network/egress_port.h"

#include "sim/engine/network/flow_recovery.h"
#include "sim/engine/network/pipe.h"

namespace photonsim {

void EgressPort::transmit(Time now) {
  FlowTable& flows = *shared_->flows;
  const EgressEntry next = queue_.pop();
  PacketId id = next.id;
  if (next.origin == PacketOrigin::own) {
    id = flows.cut_packet(next.id);
    if (flows.more_to_cut(next.id)) queue_.push(flows.own_entry(next.id));
  }
  const Packet& packet = flows.packet(id);
  const FlowSpec& spec = flows.spec(packet.flow);
  const Time serialization = this->serialization(packet.bytes, now);
  const bool last_hop = size_t{packet.hop} + 1 == spec.route.size();
  const Time forwardable_after = shared_->router->forwardable_after(packet.bytes, serialization, last_hop);
  queue_.serialise(now, serialization);
  if (shared_->recorder != nullptr) shared_->recorder->busy(from_, port_, to_, spec.step, now, now + serialization);
  ++shared_->stats->packet_hops;
  if (shared_->recovery != nullptr) shared_->recovery->sent(circuit_, id, now, serialization + pipe_->latency());
  pipe_->receive(id, now + forwardable_after);
  if (!queue_.empty()) wake(now);
}

void EgressPort::let_go_of(uint32_t flow) {
  FlowTable& flows = *shared_->flows;
  queue_.remove_if([&](const EgressEntry& entry) {
    if (entry.origin == PacketOrigin::own) return entry.id == flow;
    if (flows.packet(entry.id).flow != flow) return false;
    flows.drop(entry.id);
    return true;
  });
}

}  // namespace photonsim
