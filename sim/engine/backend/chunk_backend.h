#pragma once
// Contract: fidelity chunk - the packet engine with one packet per chunk
// (fabric.packet = chunk): far fewer events; pipelining inside a chunk is lost.
#include "sim/engine/backend/packet_backend.h"

namespace photonsim {

class ChunkBackend : public PacketBackend {
 public:
  Fidelity fidelity() const override { return Fidelity::chunk; }
  FabricSpec engine_fabric(const FabricSpec& fabric) const override {
    FabricSpec chunked = fabric;
    chunked.packet = Bytes(0);
    return chunked;
  }
};

}  // namespace photonsim
