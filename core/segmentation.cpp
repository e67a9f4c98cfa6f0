#include "core/segmentation.h"

namespace photonsim {

namespace {
// Serialisation of `bytes` cut into pieces of at most `piece` (the remainder last).
Time pieces_serialization(int64_t bytes, int64_t piece, Bandwidth bw) {
  if (bytes <= 0) return Time::zero();
  const int64_t full = bytes / piece;
  const int64_t rest = bytes % piece;
  return bw.serialization(Bytes(piece)) * full + bw.serialization(Bytes(rest));
}
int64_t pieces(int64_t bytes, int64_t piece) { return bytes <= 0 ? 0 : (bytes + piece - 1) / piece; }
}  // namespace

int64_t Segmentation::packets(Bytes total) const {
  const int64_t chunk = chunk_size(total);
  if (chunk <= 0) return 0;
  const int64_t full_chunks = total.count() / chunk;
  const int64_t rest = total.count() % chunk;
  int64_t count = full_chunks * pieces(chunk, packet_size(chunk));
  if (rest > 0) count += pieces(rest, packet_size(rest));
  return count;
}

Bytes Segmentation::largest_packet(Bytes total) const { return Bytes(packet_size(chunk_size(total))); }

Time Segmentation::serialization(Bytes total, Bandwidth bw) const {
  const int64_t chunk = chunk_size(total);
  if (chunk <= 0) return Time::zero();
  const int64_t full_chunks = total.count() / chunk;
  const int64_t rest = total.count() % chunk;
  return pieces_serialization(chunk, packet_size(chunk), bw) * full_chunks +
         pieces_serialization(rest, packet_size(rest), bw);
}

}  // namespace photonsim
