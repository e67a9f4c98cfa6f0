#pragma once
// Contract: fidelity packet_reference - the packet-level engine moving one
// packet per event (the reference Network), fabric.packet as configured: the
// engine the train engine (fidelity packet) is checked against.
#include "sim/engine/backend/packet_backend.h"

namespace photonsim {

class PacketReferenceBackend : public PacketBackend {
 public:
  Fidelity fidelity() const override { return Fidelity::packet_reference; }
  FabricSpec engine_fabric(const FabricSpec& fabric) const override {
    FabricSpec reference = fabric;
    reference.packet_engine = PacketEngine::reference;
    return reference;
  }
};

}  // namespace photonsim
