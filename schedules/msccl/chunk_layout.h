#pragma once
// Contract: where a collective's data starts in the buffers of an MSCCL or
// MSCCL++ program, before any step runs, and which locations are one memory.
// `chunks` is MSCCL's nchunksperloop: the blocks of an all-reduce or a
// broadcast, ngpus x the chunks each GPU owns for an all-gather or a
// reduce-scatter, ngpus x the chunks each GPU sends each peer for an
// all-to-all, and each GPU's input chunks for a custom program (block
// g*chunks + c starts in GPU g's input chunk c). In-place programs alias one
// buffer into the other as msccl-tools' get_buffer_index does.
#include <cstdint>
#include <limits>
#include <utility>

#include "core/spec/workload_spec.h"

namespace photonsim {

enum class ChunkBuffer : uint8_t { input, output, scratch };

inline constexpr uint32_t kNoBlock = std::numeric_limits<uint32_t>::max();

class ChunkLayout {
 public:
  ChunkLayout() = default;
  ChunkLayout(Collective collective, bool custom, int gpus, int64_t chunks, bool inplace, int root);

  // The chunks each GPU owns (all-gather, reduce-scatter) or sends each peer
  // (all-to-all); 1 otherwise.
  int64_t factor() const { return factor_; }

  // The buffer and offset a location is named by once aliases are resolved.
  std::pair<ChunkBuffer, int64_t> canonical(int gpu, ChunkBuffer buffer, int64_t offset) const;

  // The block a location holds before any step runs, or kNoBlock.
  uint32_t initial_block(int gpu, ChunkBuffer buffer, int64_t offset) const;

  // A key naming one location of one GPU (aliases resolved).
  uint64_t key(int gpu, ChunkBuffer buffer, int64_t offset) const;

 private:
  Collective collective_ = Collective::allreduce;
  bool custom_ = false;
  int gpus_ = 0;
  int64_t chunks_ = 0;
  int64_t factor_ = 1;
  bool inplace_ = false;
  int root_ = 0;
};

}  // namespace photonsim
