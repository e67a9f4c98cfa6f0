// TimeIndex against std::map under random inserts and erases, with keys that
// share their low bits (multiples of a packet's serialisation) and that
// collide on purpose, so long probe runs wrap around the table and the
// backward-shift deletion must keep every survivor findable.
#include "core/time_index.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "core/rng.h"

namespace photonsim {
namespace {

TEST(TimeIndex, MatchesAMapUnderRandomInsertsAndErases) {
  TimeIndex index;
  std::map<int64_t, uint32_t> reference;
  Rng rng(7);
  for (uint32_t i = 0; i < 200000; ++i) {
    const int64_t at = static_cast<int64_t>(rng.uniform(3000)) * 40960;
    auto found = reference.find(at);
    if (found == reference.end()) {
      ASSERT_EQ(index.find(at), TimeIndex::kNone) << at;
      index.insert(at, i);
      reference[at] = i;
    } else {
      ASSERT_EQ(index.find(at), found->second) << at;
      index.erase(at);
      reference.erase(found);
      ASSERT_EQ(index.find(at), TimeIndex::kNone) << at;
    }
    ASSERT_EQ(index.size(), reference.size());
  }
  for (const auto& [at, value] : reference) EXPECT_EQ(index.find(at), value) << at;
}

TEST(TimeIndex, GrowsAndShrinksBackToEmpty) {
  TimeIndex index;
  std::vector<int64_t> keys;
  for (int64_t k = 0; k < 5000; ++k) keys.push_back(k * k * 1'000'003 - 77);
  for (size_t i = 0; i < keys.size(); ++i) index.insert(keys[i], static_cast<uint32_t>(i));
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(index.find(keys[i]), i);
  for (size_t i = 0; i < keys.size(); i += 2) index.erase(keys[i]);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(index.find(keys[i]), i % 2 == 0 ? TimeIndex::kNone : static_cast<uint32_t>(i));
  }
  for (size_t i = 1; i < keys.size(); i += 2) index.erase(keys[i]);
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.find(keys[1]), TimeIndex::kNone);
}

}  // namespace
}  // namespace photonsim
