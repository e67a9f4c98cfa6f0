#pragma once
// Contract: how a message of m bytes is cut into `blocks` blocks: the first
// (m mod blocks) blocks carry one byte more, so sizes differ by at most one
// and sum to m exactly. Every algorithm sizes its transfers through here.
#include <cstdint>
#include <vector>

#include "core/units.h"

namespace photonsim {

inline Bytes block_bytes(Bytes message, uint32_t blocks, uint32_t block) {
  const int64_t base = message.count() / blocks;
  const int64_t extra = message.count() % blocks;
  return Bytes(base + (static_cast<int64_t>(block) < extra ? 1 : 0));
}

inline Bytes blocks_bytes(Bytes message, uint32_t blocks, const std::vector<uint32_t>& ids) {
  Bytes total;
  for (uint32_t id : ids) total += block_bytes(message, blocks, id);
  return total;
}

}  // namespace photonsim
