#include "sim/engine/network/gpu_router.h"

#include <stdexcept>
#include <string>

#include "sim/engine/network/circuit.h"
#include "sim/engine/network/flow_table.h"

namespace photonsim {

GpuRouter::GpuRouter(RouterMode mode, Bytes header, Bandwidth ingress_rate, Bandwidth egress_rate)
    : cut_through_(mode == RouterMode::cut_through),
      header_bytes_(header.count()),
      header_serialization_(ingress_rate.serialization(header)) {
  if (cut_through_ && ingress_rate != egress_rate) {
    throw std::logic_error("cut-through forwarding assumes equal bandwidth, but a GPU receives at " +
                           format_bandwidth(ingress_rate) + " and sends at " + format_bandwidth(egress_rate) +
                           " (the model would send bytes before they arrive)");
  }
}

void GpuRouter::receive(PacketId id, Time now) {
  Packet& packet = flows_->packet(id);
  if (packet.lost) {
    flows_->drop(id);
    return;
  }
  const std::vector<uint32_t>& route = flows_->spec(packet.flow).route;
  const uint32_t hop = packet.hop + 1U;
  packet.hop = hop & 0x7fffffffU;
  if (hop == route.size()) {
    flows_->deliver(id, now);
    return;
  }
  (*circuits_)[route[hop]].egress.receive(id, now);
}

}  // namespace photonsim
