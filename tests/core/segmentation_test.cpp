#include "core/segmentation.h"

#include <gtest/gtest.h>

#include <ostream>
#include <cstdint>
#include <vector>

namespace photonsim {

namespace {

// 8 bits per 1000 ps: 1 byte = 1 ns, so serialisation in ns equals bytes.
const Bandwidth kBytePerNs = Bandwidth::bits_per_second(8000000000);

TEST(Segmentation, ChunkAndPacketRemainders) {
  // 10 B, chunk 4, packet 3: chunks 4,4,2 -> packets 3,1 | 3,1 | 2.
  const Segmentation seg(Bytes(4), Bytes(3));
  EXPECT_EQ(seg.chunk_size(Bytes(10)), int64_t{4});
  EXPECT_EQ(seg.packet_size(4), int64_t{3});
  EXPECT_EQ(seg.packet_size(2), int64_t{2});
  EXPECT_EQ(seg.packets(Bytes(10)), int64_t{5});
  EXPECT_EQ(seg.largest_packet(Bytes(10)), Bytes(3));
  EXPECT_EQ(seg.serialization(Bytes(10), kBytePerNs), Time::ns(10));
}

TEST(Segmentation, ZeroChunkMeansWholeTransfer) {
  const Segmentation seg(Bytes(0), Bytes(3));
  EXPECT_EQ(seg.chunk_size(Bytes(10)), int64_t{10});
  // One chunk of 10 -> packets 3,3,3,1.
  EXPECT_EQ(seg.packets(Bytes(10)), int64_t{4});
  EXPECT_EQ(seg.largest_packet(Bytes(10)), Bytes(3));
}

TEST(Segmentation, ZeroPacketMeansOnePacketPerChunk) {
  const Segmentation seg(Bytes(4), Bytes(0));
  EXPECT_EQ(seg.packets(Bytes(10)), int64_t{3});  // 4,4,2
  EXPECT_EQ(seg.largest_packet(Bytes(10)), Bytes(4));
  const Segmentation whole(Bytes(0), Bytes(0));
  EXPECT_EQ(whole.packets(Bytes(10)), int64_t{1});
  EXPECT_EQ(whole.largest_packet(Bytes(10)), Bytes(10));
  EXPECT_EQ(whole.packets(Bytes(4000000)), int64_t{1});
}

TEST(Segmentation, ChunkOrPacketLargerThanTransferIsClamped) {
  const Segmentation seg(Bytes(100), Bytes(64));
  EXPECT_EQ(seg.chunk_size(Bytes(10)), int64_t{10});
  EXPECT_EQ(seg.packets(Bytes(10)), int64_t{1});
  EXPECT_EQ(seg.largest_packet(Bytes(10)), Bytes(10));
}

TEST(Segmentation, ExactMultiples) {
  const Segmentation seg(Bytes(1024), Bytes(256));
  EXPECT_EQ(seg.packets(Bytes(4096)), int64_t{16});
  EXPECT_EQ(seg.largest_packet(Bytes(4096)), Bytes(256));
  // 4 MiB in 4 KiB packets, no chunking.
  const Segmentation pk(Bytes(0), Bytes(4096));
  EXPECT_EQ(pk.packets(Bytes(4194304)), int64_t{1024});
}

TEST(Segmentation, ZeroBytesIsNoPackets) {
  const Segmentation seg(Bytes(4), Bytes(3));
  EXPECT_EQ(seg.packets(Bytes(0)), int64_t{0});
  EXPECT_EQ(seg.serialization(Bytes(0), kBytePerNs), Time::zero());
}

TEST(Segmentation, SerializationSumsPerPacketRoundedDelays) {
  // At 3 Gbps: 1 B = 2666.67 -> 2667 ps, 2 B = 5333.33 -> 5334 ps, 3 B = 8000 ps.
  const Bandwidth b3 = Bandwidth::bits_per_second(3000000000);
  // 10 B, chunk 4, packet 3: packets 3,1,3,1,2 -> 8000+2667+8000+2667+5334.
  const Segmentation seg(Bytes(4), Bytes(3));
  EXPECT_EQ(seg.serialization(Bytes(10), b3).picoseconds(), int64_t{8000 + 2667 + 8000 + 2667 + 5334});
  // Whole transfer: one rounding only: ceil(80e12/3e9) = 26667.
  const Segmentation whole(Bytes(0), Bytes(0));
  EXPECT_EQ(whole.serialization(Bytes(10), b3).picoseconds(), int64_t{26667});
  // 10 single-byte packets: 10 roundings.
  const Segmentation bytewise(Bytes(0), Bytes(1));
  EXPECT_EQ(bytewise.serialization(Bytes(10), b3).picoseconds(), int64_t{26670});
}

TEST(Segmentation, SerializationMatchesPacketCountForManyCombos) {
  // With 1 B = 1 ns, the sum of per-packet delays equals total bytes for any cut,
  // and the packet count follows ceil per chunk.
  for (int64_t total = 1; total <= 40; ++total) {
    for (int64_t chunk = 0; chunk <= 12; ++chunk) {
      for (int64_t packet = 0; packet <= 7; ++packet) {
        const Segmentation seg{Bytes(chunk), Bytes(packet)};
        EXPECT_EQ(seg.serialization(Bytes(total), kBytePerNs), Time::ns(total));
        // Reference packet count.
        const int64_t c = chunk > 0 && chunk < total ? chunk : total;
        int64_t expected = 0;
        int64_t largest = 0;
        for (int64_t left = total; left > 0; left -= c) {
          const int64_t this_chunk = left < c ? left : c;
          const int64_t p = packet > 0 && packet < this_chunk ? packet : this_chunk;
          expected += (this_chunk + p - 1) / p;
          largest = p > largest ? p : largest;
        }
        ASSERT_EQ(seg.packets(Bytes(total)), expected)
            << "total " << total << " chunk " << chunk << " packet " << packet;
        ASSERT_EQ(seg.largest_packet(Bytes(total)), Bytes(largest))
            << "total " << total << " chunk " << chunk << " packet " << packet;
      }
    }
  }
}

}  // namespace
}  // namespace photonsim
