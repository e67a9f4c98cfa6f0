#pragma once
// Contract: a packet's size is a uint32_t in the engine; a flow whose largest
// packet would exceed it is refused (Error naming the step and the transfer)
// before its step starts, whichever replay runs it.
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/segmentation.h"
#include "schedules/model/transfer.h"

namespace photonsim {

inline void check_packet_limit(const Segmentation& segmentation, Bytes flow_bytes, size_t step, const Transfer& t) {
  if (segmentation.largest_packet(flow_bytes).count() <= UINT32_MAX) return;
  throw Error("step " + std::to_string(step) + ": transfer " + std::to_string(t.src) + "->" + std::to_string(t.dst) +
              " would send a packet over 4 GiB; set fabric.packet or workload.chunk");
}

}  // namespace photonsim
