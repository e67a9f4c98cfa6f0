#include "schedules/msccl/chunk_layout.h"

namespace photonsim {

ChunkLayout::ChunkLayout(Collective collective, bool custom, int gpus, int64_t chunks, bool inplace, int root)
    : collective_(collective), custom_(custom), gpus_(gpus), chunks_(chunks), inplace_(inplace), root_(root) {
  const bool per_gpu = collective == Collective::allgather || collective == Collective::reducescatter ||
                       collective == Collective::alltoall;
  if (!custom && per_gpu && gpus > 0) factor_ = chunks / gpus;
}

std::pair<ChunkBuffer, int64_t> ChunkLayout::canonical(int gpu, ChunkBuffer buffer, int64_t offset) const {
  if (!inplace_) return {buffer, offset};
  switch (collective_) {
    case Collective::allgather:
      if (buffer == ChunkBuffer::input) return {ChunkBuffer::output, offset + gpu * factor_};
      return {buffer, offset};
    case Collective::reducescatter:
      if (buffer == ChunkBuffer::output) return {ChunkBuffer::input, offset + gpu * factor_};
      return {buffer, offset};
    default:
      if (buffer == ChunkBuffer::output) return {ChunkBuffer::input, offset};
      return {buffer, offset};
  }
}

uint64_t ChunkLayout::key(int gpu, ChunkBuffer buffer, int64_t offset) const {
  const auto [b, o] = canonical(gpu, buffer, offset);
  return (static_cast<uint64_t>(gpu) << 40) | (static_cast<uint64_t>(b) << 36) | static_cast<uint64_t>(o);
}

uint32_t ChunkLayout::initial_block(int gpu, ChunkBuffer buffer, int64_t offset) const {
  const auto [b, o] = canonical(gpu, buffer, offset);
  if (custom_) {
    return b == ChunkBuffer::input && o < chunks_ ? static_cast<uint32_t>(gpu * chunks_ + o) : kNoBlock;
  }
  switch (collective_) {
    case Collective::allreduce:
    case Collective::reducescatter:
      return b == ChunkBuffer::input && o < chunks_ ? static_cast<uint32_t>(o) : kNoBlock;
    case Collective::allgather:
      if (inplace_) {
        return b == ChunkBuffer::output && o >= gpu * factor_ && o < (gpu + 1) * factor_ ? static_cast<uint32_t>(o)
                                                                                         : kNoBlock;
      }
      return b == ChunkBuffer::input && o < factor_ ? static_cast<uint32_t>(gpu * factor_ + o) : kNoBlock;
    case Collective::alltoall:
      if (b != ChunkBuffer::input || o >= chunks_) return kNoBlock;
      return static_cast<uint32_t>((static_cast<int64_t>(gpu) * gpus_ + o / factor_) * factor_ + o % factor_);
    case Collective::broadcast:
      return gpu == root_ && b == ChunkBuffer::input && o < chunks_ ? static_cast<uint32_t>(o) : kNoBlock;
  }
  return kNoBlock;
}

}  // namespace photonsim
