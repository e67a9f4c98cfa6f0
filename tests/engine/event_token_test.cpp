// A Network event's token: kind and circuit survive the round trip through
// the EventList's uint64, at the edges of the id range too.
#include "sim/engine/network/event_token.h"

#include <gtest/gtest.h>

#include <set>

namespace photonsim {
namespace {

using Kind = EventToken::Kind;

TEST(EventToken, KindAndIdRoundTrip) {
  for (const Kind kind : {Kind::start, Kind::landing, Kind::decide}) {
    for (const uint64_t id : {uint64_t{0}, uint64_t{1}, uint64_t{UINT32_MAX}, EventToken::kIdMask}) {
      const EventToken token = EventToken::from_raw(EventToken(kind, id).raw());
      EXPECT_EQ(token.kind(), kind);
      EXPECT_EQ(token.id(), id);
    }
  }
}

TEST(EventToken, KindsAndIdsGiveDistinctTokens) {
  std::set<uint64_t> raw;
  for (const Kind kind : {Kind::start, Kind::landing, Kind::decide}) {
    for (uint64_t id = 0; id < 4; ++id) raw.insert(EventToken(kind, id).raw());
  }
  EXPECT_EQ(raw.size(), 12u);
}

TEST(EventToken, KindSitsAboveTheIdBits) {
  static_assert(EventToken(Kind::landing, 5).raw() == ((uint64_t{3} << 56) | 5));
  EXPECT_EQ(EventToken(Kind::decide, 0).raw() >> EventToken::kIdBits, 4u);
}

}  // namespace
}  // namespace photonsim
