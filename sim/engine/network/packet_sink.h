#pragma once
// Contract: an element of a packet's route, htsim's PacketSink: a packet
// reaches it at `at`, and the element hands it to the next element of the
// route once its own part is done. `at` is the clock's now, except that an
// EgressPort hands a packet to its Pipe ahead of the clock, at the moment
// its serialisation lets the far end act on it (no event of its own). The
// elements of the reference engine:
//   EgressPort: the packet waits at a GPU's egress port in the egress order,
//     is serialised at line rate and goes on to the circuit's Pipe;
//   Pipe: it propagates the circuit's latency to the GpuRouter at the far end;
//   GpuRouter: the GPU delivers it (the route ends here) or hands it to the
//     EgressPort of the route's next circuit.
// The Network builds and wires them and calls them by their final types, so
// the hot path pays no virtual call; a test or a second engine composes
// them through this interface.
#include "core/packet.h"
#include "core/time.h"

namespace photonsim {

class PacketSink {
 public:
  virtual void receive(PacketId packet, Time at) = 0;

 protected:
  ~PacketSink() = default;
};

}  // namespace photonsim
