#pragma once
// Contract: one point-to-point move inside a step: `bytes` from src to dst,
// along `path` (src..dst inclusive) or, when empty, the shortest path on the
// step's topology; `blocks` name the collective's data blocks it carries.
#include <cstdint>
#include <vector>

#include "core/units.h"
#include "topology/topology.h"

namespace photonsim {

enum class TransferOp { copy, reduce };

struct Transfer {
  Node src = 0;
  Node dst = 0;
  Bytes bytes;
  std::vector<Node> path;
  std::vector<uint32_t> blocks;
  TransferOp op = TransferOp::copy;
};

}  // namespace photonsim
