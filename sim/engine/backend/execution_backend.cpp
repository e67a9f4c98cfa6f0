#include "sim/engine/backend/execution_backend.h"

#include "sim/engine/backend/analytical_backend.h"
#include "sim/engine/backend/chunk_backend.h"
#include "sim/engine/backend/packet_backend.h"
#include "sim/engine/backend/packet_reference_backend.h"

namespace photonsim {

std::unique_ptr<ExecutionBackend> backend_for(Fidelity fidelity) {
  switch (fidelity) {
    case Fidelity::packet:
      return std::make_unique<PacketBackend>();
    case Fidelity::packet_reference:
      return std::make_unique<PacketReferenceBackend>();
    case Fidelity::chunk:
      return std::make_unique<ChunkBackend>();
    case Fidelity::analytical:
      return std::make_unique<AnalyticalBackend>();
  }
  return std::make_unique<PacketBackend>();
}

}  // namespace photonsim
