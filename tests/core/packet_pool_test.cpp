#include "core/packet_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

namespace photonsim {
namespace {

TEST(PacketPool, FreshPoolIsEmpty) {
  PacketPool pool;
  EXPECT_EQ(pool.live(), size_t{0});
  EXPECT_EQ(pool.capacity(), size_t{0});
}

TEST(PacketPool, AcquireHandsOutDistinctIndicesAndCountsLive) {
  PacketPool pool;
  std::set<PacketId> ids;
  for (int i = 0; i < 10; ++i) ids.insert(pool.acquire());
  EXPECT_EQ(ids.size(), size_t{10});
  EXPECT_EQ(pool.live(), size_t{10});
  EXPECT_EQ(pool.capacity(), size_t{10});
  EXPECT_EQ(*ids.begin(), PacketId{0});
  EXPECT_EQ(*ids.rbegin(), PacketId{9});
}

TEST(PacketPool, ReleasedSlotIsReusedAndReset) {
  PacketPool pool;
  const PacketId a = pool.acquire();
  const PacketId b = pool.acquire();
  pool[b].flow = 7;
  pool[b].chunk = 3;
  pool[b].hop = 2;
  pool[b].bytes = 4096;
  pool[b].seq = 99;
  pool.release(b);
  EXPECT_EQ(pool.live(), size_t{1});
  const PacketId c = pool.acquire();
  EXPECT_EQ(c, b);
  EXPECT_EQ(pool.capacity(), size_t{2});
  EXPECT_EQ(pool.live(), size_t{2});
  // A recycled packet starts from a clean state.
  EXPECT_EQ(pool[c].flow, uint32_t{0});
  EXPECT_EQ(pool[c].chunk, uint32_t{0});
  EXPECT_EQ(pool[c].hop, uint32_t{0});
  EXPECT_EQ(pool[c].bytes, uint32_t{0});
  EXPECT_EQ(pool[c].seq, uint64_t{0});
  (void)a;
}

TEST(PacketPool, SteadyStateDoesNotGrowCapacity) {
  PacketPool pool;
  std::vector<PacketId> window;
  for (int i = 0; i < 16; ++i) window.push_back(pool.acquire());
  EXPECT_EQ(pool.capacity(), size_t{16});
  for (int round = 0; round < 10000; ++round) {
    const size_t slot = static_cast<size_t>(round) % window.size();
    pool.release(window[slot]);
    window[slot] = pool.acquire();
    pool[window[slot]].seq = static_cast<uint64_t>(round);
  }
  EXPECT_EQ(pool.capacity(), size_t{16});
  EXPECT_EQ(pool.live(), size_t{16});
  std::set<PacketId> distinct(window.begin(), window.end());
  EXPECT_EQ(distinct.size(), size_t{16});
  for (PacketId id : window) EXPECT_LT(id, PacketId{16});
}

TEST(PacketPool, CapacityIsThePeakLiveCount) {
  PacketPool pool;
  std::vector<PacketId> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(pool.acquire());
  for (PacketId id : ids) pool.release(id);
  EXPECT_EQ(pool.live(), size_t{0});
  ids.clear();
  for (int i = 0; i < 8; ++i) ids.push_back(pool.acquire());
  EXPECT_EQ(pool.capacity(), size_t{8});
  EXPECT_EQ(pool.live(), size_t{8});
}

TEST(PacketPool, LivePacketsKeepTheirData) {
  PacketPool pool;
  std::vector<PacketId> ids;
  for (uint32_t i = 0; i < 100; ++i) {
    ids.push_back(pool.acquire());
    pool[ids.back()].flow = i;
  }
  // Release every other one, acquire again: survivors are untouched.
  for (size_t i = 0; i < ids.size(); i += 2) pool.release(ids[i]);
  for (int i = 0; i < 50; ++i) pool.acquire();
  for (size_t i = 1; i < ids.size(); i += 2) EXPECT_EQ(pool[ids[i]].flow, static_cast<uint32_t>(i));
  EXPECT_EQ(pool.capacity(), size_t{100});
}

}  // namespace
}  // namespace photonsim
