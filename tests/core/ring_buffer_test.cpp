#include "core/ring_buffer.h"

#include <gtest/gtest.h>

#include <deque>

#include "core/rng.h"

namespace photonsim {
namespace {

TEST(RingBuffer, IsFirstInFirstOutAcrossGrowthAndWrapAround) {
  RingBuffer<int> ring;
  std::deque<int> reference;
  Rng rng(7);
  int next = 0;
  for (int i = 0; i < 20000; ++i) {
    // Bursts of pushes then pops, so the head wraps while the buffer grows.
    if (reference.empty() || rng.uniform(3) > 0) {
      ring.push_back(next);
      reference.push_back(next++);
    } else {
      ASSERT_EQ(ring.front(), reference.front());
      ASSERT_EQ(ring.pop_front(), reference.front());
      reference.pop_front();
    }
    ASSERT_EQ(ring.size(), reference.size());
  }
  while (!reference.empty()) {
    ASSERT_EQ(ring.pop_front(), reference.front());
    reference.pop_front();
  }
  EXPECT_TRUE(ring.empty());
}

}  // namespace
}  // namespace photonsim
