#pragma once
// Contract: where a packet waiting at a GPU's egress port comes from. A
// forwarded packet crossed circuits to get here and exists already; the GPU's
// own packets are cut from their flow only when the port sends them. The
// values are the egress order's tie-break (forwarded before own, docs/model.md "What
// a run means"), so they must not change.
#include <cstdint>

namespace photonsim {

enum class PacketOrigin : uint32_t { forwarded = 0, own = 1 };

}  // namespace photonsim
