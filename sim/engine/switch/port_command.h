#pragma once
// Contract: one port to re-aim in a switch command: its slot (GPU * ports +
// port), its GPU, the GPU it is to lead to (-1: nowhere, left dark), and its
// new circuit's rate when not fabric.bandwidth (bandwidth_scope gpu).
#include <cstdint>
#include <optional>

#include "core/units.h"
#include "topology/topology.h"

namespace photonsim {

struct PortCommand {
  uint32_t slot = 0;
  Node from = 0;
  int to = -1;
  std::optional<Bandwidth> rate;
};

}  // namespace photonsim
