#pragma once
// Contract: how a transfer of `bytes` is cut: into chunks of `chunk` bytes
// (0 = one chunk holding everything), each chunk into packets of `packet`
// bytes (0 = one packet per chunk); the last chunk and the last packet of
// each chunk carry the remainder. Both the simulator and the cost models use
// this one definition, so they agree on every packet boundary.
#include <cstdint>

#include "core/time.h"
#include "core/units.h"

namespace photonsim {

class Segmentation {
 public:
  Segmentation(Bytes chunk, Bytes packet) : chunk_(chunk), packet_(packet) {}

  int64_t chunk_size(Bytes total) const {
    return chunk_.count() > 0 && chunk_.count() < total.count() ? chunk_.count() : total.count();
  }
  int64_t packet_size(int64_t chunk_bytes) const {
    return packet_.count() > 0 && packet_.count() < chunk_bytes ? packet_.count() : chunk_bytes;
  }
  int64_t packets(Bytes total) const;
  // Largest packet any transfer of `total` bytes sends.
  Bytes largest_packet(Bytes total) const;
  // Sum of the exact per-packet serialisation delays of a transfer.
  Time serialization(Bytes total, Bandwidth bw) const;

 private:
  Bytes chunk_;
  Bytes packet_;
};

}  // namespace photonsim
