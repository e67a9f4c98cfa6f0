#pragma once
// Contract: what every topology generator may read besides its own
// parameters: the fabric (n = fabric.gpus, ports, circuit kind) and the
// experiment seed for randomised generators.
#include <cstdint>

#include "core/spec/fabric_spec.h"

namespace photonsim {

struct GeneratorContext {
  const FabricSpec& fabric;
  uint64_t seed = 1;
  int gpus() const { return fabric.gpus; }
  bool bidirectional_circuits() const { return fabric.circuits == CircuitKind::bidirectional; }
};

}  // namespace photonsim
