// The egress key in isolation: a packet's origin (forwarded or the GPU's own)
// and the order it implies, under each egress order.
#include "sim/engine/network/egress_entry.h"

#include <gtest/gtest.h>

namespace photonsim {
namespace {

// `a` goes before `b`.
bool first(const EgressEntry& a, const EgressEntry& b) { return b.after(a) && !a.after(b); }

TEST(EgressEntry, OriginsAreNamedAndKeepTheirTieBreakValues) {
  // The values are the tie-break: forwarded (0) before own (1).
  EXPECT_EQ(static_cast<uint32_t>(PacketOrigin::forwarded), 0u);
  EXPECT_EQ(static_cast<uint32_t>(PacketOrigin::own), 1u);
  const EgressEntry fwd = EgressEntry::forwarded(EgressOrder::chunk, 2, Time::ns(5), 3, 7, 42);
  EXPECT_EQ(fwd.origin, PacketOrigin::forwarded);
  EXPECT_EQ(fwd.id, 42u);  // the packet
  const EgressEntry own = EgressEntry::own(EgressOrder::chunk, 2, Time::zero(), 3, 7);
  EXPECT_EQ(own.origin, PacketOrigin::own);
  EXPECT_EQ(own.id, 7u);  // the flow whose next packet is cut on sending
}

TEST(EgressEntry, ChunkOrderSmallerChunkThenForwardedBeforeOwn) {
  const auto fwd = [](uint32_t chunk, int64_t ns, uint64_t hops, uint32_t flow, PacketId id) {
    return EgressEntry::forwarded(EgressOrder::chunk, chunk, Time::ns(ns), hops, flow, id);
  };
  const auto own = [](uint32_t chunk, uint64_t hops, uint32_t flow) {
    return EgressEntry::own(EgressOrder::chunk, chunk, Time::ns(100), hops, flow);
  };
  EXPECT_TRUE(first(own(1, 1, 0), fwd(2, 0, 9, 0, 0)));          // smaller chunk, even own and later
  EXPECT_TRUE(first(fwd(1, 50, 1, 9, 9), own(1, 9, 0)));         // equal chunk: forwarded first
  EXPECT_TRUE(first(fwd(1, 10, 1, 9, 9), fwd(1, 20, 9, 0, 0)));  // forwarded: first come
  EXPECT_TRUE(first(fwd(1, 10, 3, 9, 9), fwd(1, 10, 2, 0, 0)));  // then the longer remaining route
  EXPECT_TRUE(first(fwd(1, 10, 3, 4, 9), fwd(1, 10, 3, 5, 0)));  // then the smaller flow
  EXPECT_TRUE(first(own(1, 3, 5), own(1, 2, 4)));                // own: the longer route
}

TEST(EgressEntry, FifoOrderOwnCountsAsQueuedAtTheStepStart) {
  const Time start = Time::ns(100);
  const EgressEntry own = EgressEntry::own(EgressOrder::fifo, 7, start, 1, 0);
  const EgressEntry later = EgressEntry::forwarded(EgressOrder::fifo, 0, start + Time::ps(1), 9, 1, 3);
  const EgressEntry same_time = EgressEntry::forwarded(EgressOrder::fifo, 9, start, 1, 1, 3);
  EXPECT_TRUE(first(own, later));      // first come, whatever the chunk
  EXPECT_TRUE(first(same_time, own));  // at the same time: forwarded first
}

TEST(EgressEntry, ChunkFifoOrderSmallerChunkThenFirstComeAtEqualChunk) {
  const Time start = Time::ns(100);
  const auto fwd = [](uint32_t chunk, Time at, uint64_t hops, uint32_t flow, PacketId id) {
    return EgressEntry::forwarded(EgressOrder::chunk_fifo, chunk, at, hops, flow, id);
  };
  const auto own = [&](uint32_t chunk, uint64_t hops, uint32_t flow) {
    return EgressEntry::own(EgressOrder::chunk_fifo, chunk, start, hops, flow);
  };
  EXPECT_TRUE(first(own(1, 1, 0), fwd(2, Time::zero(), 9, 0, 0)));        // smaller chunk, even own and later
  EXPECT_TRUE(first(own(1, 1, 0), fwd(1, start + Time::ps(1), 9, 0, 0)));  // equal chunk: first come, even own
  EXPECT_TRUE(first(fwd(1, start, 1, 9, 9), own(1, 9, 0)));                // at the same time: forwarded first
  EXPECT_TRUE(first(fwd(1, Time::ns(10), 1, 9, 9), fwd(1, Time::ns(20), 9, 0, 0)));  // forwarded: first come
  EXPECT_TRUE(first(fwd(1, Time::ns(10), 3, 9, 9), fwd(1, Time::ns(10), 2, 0, 0)));  // then the longer route
  EXPECT_TRUE(first(own(1, 3, 5), own(1, 2, 4)));                                      // own: the longer route
  // An earlier step goes first whatever the time, as in the chunk order.
  EXPECT_TRUE(first(EgressEntry::forwarded(EgressOrder::chunk_fifo, 5, Time::ns(50), 1, 0, 1, 0),
                    EgressEntry::forwarded(EgressOrder::chunk_fifo, 0, Time::ns(1), 1, 0, 2, 1)));
}

}  // namespace
}  // namespace photonsim
