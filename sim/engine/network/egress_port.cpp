#include "sim/engine/network/egress_port.h"

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
  const Time serialization = this->serialization(packet.bytes);
  const bool last_hop = packet.hop + 1 == spec.route.size();
  const Time forwardable_after = shared_->router->forwardable_after(packet.bytes, serialization, last_hop);
  queue_.serialise(now, serialization);
  if (shared_->recorder != nullptr) shared_->recorder->busy(from_, port_, to_, spec.step, now, now + serialization);
  ++shared_->stats->packet_hops;
  pipe_->receive(id, now + forwardable_after);
  if (!queue_.empty()) wake(now);
}

}  // namespace photonsim
