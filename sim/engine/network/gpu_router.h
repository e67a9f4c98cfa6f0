#pragma once
// Contract: the GPUs' routers. Every GPU forwards by one rule (fabric.router),
// so one element serves them all. A packet that lands at a GPU is delivered
// there when its route ends (FlowTable::deliver), or goes on at once to the
// EgressPort of its route's next circuit. The rule also says when a packet
// may leave the GPU it is arriving at: one that starts serialising onto a
// circuit at t lands at the far GPU at t + forwardable_after(...) + the
// pipe's latency:
//   store_and_forward: once it has fully arrived (its whole serialisation);
//   cut_through: once its first `header` bytes have, unless the far GPU is
//   its destination or the packet is no larger than the header (then whole).
// Cut-through assumes equal bandwidth: the circuit a packet leaves on runs at
// the rate of the one it arrives on, so a packet forwarded after its header
// never outruns its own tail (the next serialiser sends its bytes exactly as
// fast as they arrive). A faster next circuit would send bytes the GPU does
// not have yet, so the router refuses to cut through between unequal rates.
#include <cstdint>
#include <vector>

#include "core/packet.h"
#include "core/spec/fabric_spec.h"
#include "core/time.h"
#include "core/units.h"
#include "sim/engine/network/packet_sink.h"

namespace photonsim {

class FlowTable;
struct Circuit;

class GpuRouter final : public PacketSink {
 public:
  // Throws std::logic_error under cut_through if ingress_rate != egress_rate.
  GpuRouter(RouterMode mode, Bytes header, Bandwidth ingress_rate, Bandwidth egress_rate);

  // The flows whose packets it routes, over these circuits (indexed as routes name them).
  void connect(FlowTable& flows, std::vector<Circuit>& circuits) {
    flows_ = &flows;
    circuits_ = &circuits;
  }

  // From the start of a packet's serialisation (`serialization` long) onto a
  // circuit to the moment the far GPU, were the pipe zero-length, may act on it.
  Time forwardable_after(uint32_t bytes, Time serialization, bool last_hop) const {
    if (cut_through_ && !last_hop && bytes > header_bytes_) return header_serialization_;
    return serialization;
  }

  void receive(PacketId id, Time now) override;

 private:
  bool cut_through_;
  int64_t header_bytes_;
  Time header_serialization_;  // at the ingress rate
  FlowTable* flows_ = nullptr;
  std::vector<Circuit>* circuits_ = nullptr;
};

}  // namespace photonsim
