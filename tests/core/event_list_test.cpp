#include "core/event_list.h"

#include <gtest/gtest.h>

#include <ostream>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/rng.h"

namespace photonsim {

namespace {

// Records (time, token) of every event it receives.
class Recorder : public EventHandler {
 public:
  void on_event(Time now, uint64_t token) override { fired.emplace_back(now, token); }
  std::vector<std::pair<Time, uint64_t>> fired;
};

std::vector<uint64_t> tokens(const Recorder& r) {
  std::vector<uint64_t> out;
  for (const auto& [t, token] : r.fired) out.push_back(token);
  return out;
}

TEST(EventList, FiresInTimeOrderAndAdvancesClock) {
  EventList events;
  Recorder r;
  events.schedule(Time::ns(30), r, 3);
  events.schedule(Time::ns(10), r, 1);
  events.schedule(Time::ns(20), r, 2);
  EXPECT_EQ(events.pending(), size_t{3});
  events.run();
  ASSERT_EQ(r.fired.size(), size_t{3});
  EXPECT_EQ(r.fired[0], std::make_pair(Time::ns(10), uint64_t{1}));
  EXPECT_EQ(r.fired[1], std::make_pair(Time::ns(20), uint64_t{2}));
  EXPECT_EQ(r.fired[2], std::make_pair(Time::ns(30), uint64_t{3}));
  EXPECT_EQ(events.now(), Time::ns(30));
  EXPECT_TRUE(events.empty());
  EXPECT_EQ(events.fired(), uint64_t{3});
}

TEST(EventList, EqualTimesFireInInsertionOrder) {
  EventList events;
  Recorder r;
  for (uint64_t i = 0; i < 50; ++i) events.schedule(Time::ns(5), r, i);
  events.run();
  std::vector<uint64_t> expected(50);
  for (uint64_t i = 0; i < 50; ++i) expected[i] = i;
  EXPECT_EQ(tokens(r), expected);
}

TEST(EventList, ArrivalsFireBeforeNormalAtEqualTimes) {
  EventList events;
  Recorder r;
  events.schedule(Time::ns(5), r, 10, EventPriority::normal);
  events.schedule(Time::ns(5), r, 11, EventPriority::normal);
  events.schedule(Time::ns(5), r, 20, EventPriority::arrival);
  events.schedule(Time::ns(4), r, 1, EventPriority::normal);
  events.schedule(Time::ns(5), r, 21, EventPriority::arrival);
  events.schedule(Time::ns(6), r, 30, EventPriority::arrival);
  events.run();
  EXPECT_EQ(tokens(r), (std::vector<uint64_t>{1, 20, 21, 10, 11, 30}));
}

// A reserved event fires where it would have fired had it been scheduled at
// reservation: before equal-time events scheduled after the reservation,
// after those scheduled before it, whenever it is handed to the list.
TEST(EventList, ReservedEventsKeepTheirPlaceInTheOrder) {
  EventList events;
  Recorder r;
  events.schedule(Time::ns(5), r, 1, EventPriority::arrival);
  const uint64_t early = events.reserve(EventPriority::arrival);
  const uint64_t normal = events.reserve(EventPriority::normal);
  events.schedule(Time::ns(5), r, 3, EventPriority::arrival);
  events.schedule(Time::ns(5), r, 5, EventPriority::normal);
  events.schedule(Time::ns(2), r, 0, EventPriority::normal);
  events.step();  // now = 2 ns: the reserved events are handed over later
  events.schedule_reserved(Time::ns(5), r, 4, normal);
  events.schedule_reserved(Time::ns(5), r, 2, early);
  events.run();
  EXPECT_EQ(tokens(r), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_THROW(events.schedule_reserved(Time::ns(4), r, 9, events.reserve()), std::logic_error);
}

TEST(EventList, DefaultPriorityIsNormal) {
  EventList events;
  Recorder r;
  events.schedule(Time::ns(1), r, 1);
  events.schedule(Time::ns(1), r, 2, EventPriority::arrival);
  events.run();
  EXPECT_EQ(tokens(r), (std::vector<uint64_t>{2, 1}));
}

TEST(EventList, SchedulingInThePastThrows) {
  EventList events;
  Recorder r;
  events.schedule(Time::ns(10), r, 1);
  ASSERT_TRUE(events.step());
  EXPECT_THROW(events.schedule(Time::ns(9), r, 2), std::logic_error);
  EXPECT_EQ(events.pending(), size_t{0});
  // Exactly now is fine.
  EXPECT_NO_THROW(events.schedule(Time::ns(10), r, 3));
  EXPECT_EQ(events.pending(), size_t{1});
}

TEST(EventList, StepReturnsFalseWhenEmpty) {
  EventList events;
  EXPECT_FALSE(events.step());
  EXPECT_EQ(events.fired(), uint64_t{0});
  EXPECT_EQ(events.now(), Time::zero());
}

TEST(EventList, RunUntilStopsInclusive) {
  EventList events;
  Recorder r;
  events.schedule(Time::ns(10), r, 1);
  events.schedule(Time::ns(20), r, 2);
  events.schedule(Time::ns(30), r, 3);
  events.run(Time::ns(20));
  EXPECT_EQ(tokens(r), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(events.now(), Time::ns(20));
  EXPECT_EQ(events.pending(), size_t{1});
  EXPECT_EQ(events.fired(), uint64_t{2});
  events.run(Time::ns(25));
  EXPECT_EQ(events.fired(), uint64_t{2});
  events.run();
  EXPECT_EQ(tokens(r), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(events.fired(), uint64_t{3});
}

// Each event reschedules itself `delay` later until `remaining` runs out, and
// on the first event also schedules an arrival at the same instant.
class Chain : public EventHandler {
 public:
  explicit Chain(EventList& events) : events_(events) {}
  void on_event(Time now, uint64_t token) override {
    log.emplace_back(now, token);
    if (token == 0) events_.schedule(now, *this, 99, EventPriority::arrival);
    if (token < 5) events_.schedule(now + Time::ns(7), *this, token + 1);
  }
  std::vector<std::pair<Time, uint64_t>> log;

 private:
  EventList& events_;
};

TEST(EventList, HandlersCanScheduleDuringOnEvent) {
  EventList events;
  Chain c(events);
  events.schedule(Time::ns(1), c, 0);
  events.run();
  ASSERT_EQ(c.log.size(), size_t{7});
  EXPECT_EQ(c.log[0], std::make_pair(Time::ns(1), uint64_t{0}));
  EXPECT_EQ(c.log[1], std::make_pair(Time::ns(1), uint64_t{99}));
  for (uint64_t k = 1; k <= 5; ++k) {
    EXPECT_EQ(c.log[k + 1], std::make_pair(Time::ns(1 + 7 * static_cast<int64_t>(k)), k));
  }
  EXPECT_EQ(events.fired(), uint64_t{7});
  EXPECT_EQ(events.now(), Time::ns(36));
}

TEST(EventList, TenThousandRandomEventsComeOutSortedAndStable) {
  EventList events;
  Recorder r;
  Rng rng(12345);
  constexpr uint64_t kEvents = 10000;
  std::vector<int64_t> at(kEvents);
  for (uint64_t i = 0; i < kEvents; ++i) {
    at[i] = static_cast<int64_t>(rng.uniform(1000));  // many ties
    events.schedule(Time::ps(at[i]), r, i, rng.uniform(2) == 0 ? EventPriority::arrival : EventPriority::normal);
  }
  events.run();
  ASSERT_EQ(r.fired.size(), size_t{kEvents});
  EXPECT_EQ(events.fired(), kEvents);
  for (uint64_t i = 0; i < kEvents; ++i) {
    EXPECT_EQ(r.fired[i].first.picoseconds(), at[r.fired[i].second]);
  }
  for (size_t i = 1; i < r.fired.size(); ++i) {
    ASSERT_LE(r.fired[i - 1].first, r.fired[i].first) << "at position " << i;
  }
}

TEST(EventList, RandomEventsMatchReferenceOrder) {
  // Reference: sort by (time, priority, insertion index).
  EventList events;
  Recorder r;
  Rng rng(777);
  struct Ref {
    int64_t at;
    int prio;
    uint64_t seq;
  };
  std::vector<Ref> ref;
  for (uint64_t i = 0; i < 3000; ++i) {
    const int64_t at = static_cast<int64_t>(rng.uniform(50));
    const int prio = static_cast<int>(rng.uniform(2));
    events.schedule(Time::ps(at), r, i, prio == 0 ? EventPriority::arrival : EventPriority::normal);
    ref.push_back({at, prio, i});
  }
  std::stable_sort(ref.begin(), ref.end(),
                   [](const Ref& a, const Ref& b) { return a.at != b.at ? a.at < b.at : a.prio < b.prio; });
  events.run();
  std::vector<uint64_t> expected;
  for (const Ref& x : ref) expected.push_back(x.seq);
  EXPECT_EQ(tokens(r), expected);
}

// While an event fires, its slot is reused by the first event its handler
// schedules; handlers scheduling none, one or several events (some at the
// current instant, some reserved earlier) must still see the reference order
// and count: a sorted list of (time, priority, sequence).
class Spawner : public EventHandler {
 public:
  struct Ref {
    int64_t at;
    uint64_t order;
    uint64_t token;
  };
  explicit Spawner(EventList& events) : events_(events), rng_(4242) {}
  void add(int64_t at, EventPriority priority) {
    const uint64_t order = events_.reserve(priority);
    const uint64_t token = next_token_++;
    pending_.push_back({at, order, token});
    events_.schedule_reserved(Time::ps(at), *this, token, order);
  }
  void on_event(Time now, uint64_t token) override {
    auto first = std::min_element(pending_.begin(), pending_.end(), [](const Ref& a, const Ref& b) {
      return a.at != b.at ? a.at < b.at : a.order < b.order;
    });
    ASSERT_NE(first, pending_.end());
    EXPECT_EQ(token, first->token);
    EXPECT_EQ(now.picoseconds(), first->at);
    pending_.erase(first);
    EXPECT_EQ(events_.pending(), pending_.size());
    if (next_token_ >= 20000) return;
    const uint64_t spawn = rng_.uniform(4);  // 0..3 follow-ups; the population drifts
    for (uint64_t i = 0; i < spawn; ++i) {
      add(now.picoseconds() + static_cast<int64_t>(rng_.uniform(30)),
          rng_.uniform(2) == 0 ? EventPriority::arrival : EventPriority::normal);
    }
  }
  size_t left() const { return pending_.size(); }

 private:
  EventList& events_;
  Rng rng_;
  std::vector<Ref> pending_;
  uint64_t next_token_ = 0;
};

TEST(EventList, HandlersSchedulingAnyNumberOfEventsKeepTheReferenceOrder) {
  EventList events;
  Spawner spawner(events);
  for (int i = 0; i < 64; ++i) spawner.add(i % 7, EventPriority::normal);
  events.run();
  EXPECT_EQ(spawner.left(), size_t{0});
  EXPECT_TRUE(events.empty());
  EXPECT_GT(events.fired(), uint64_t{1000});
}

class Thrower : public EventHandler {
 public:
  explicit Thrower(EventList& events) : events_(events) {}
  void on_event(Time now, uint64_t token) override {
    fired.push_back(token);
    if (token == 1) {
      events_.schedule(now + Time::ns(1), *this, 10);
      throw std::runtime_error("handler failed");
    }
    if (token == 5) throw std::runtime_error("handler failed before scheduling");
  }
  std::vector<uint64_t> fired;

 private:
  EventList& events_;
};

TEST(EventList, AHandlerThatThrowsLeavesTheListConsistent) {
  EventList events;
  Thrower t(events);
  events.schedule(Time::ns(1), t, 1);
  events.schedule(Time::ns(5), t, 2);
  events.schedule(Time::ns(3), t, 3);
  EXPECT_THROW(events.step(), std::runtime_error);
  EXPECT_EQ(events.pending(), size_t{3});  // 2, 3 and the 10 scheduled before the throw
  events.run();
  EXPECT_EQ(t.fired, (std::vector<uint64_t>{1, 10, 3, 2}));
  // A throw from a handler that scheduled nothing also gives its slot back.
  events.schedule(Time::ns(9), t, 5);
  events.schedule(Time::ns(9), t, 4);
  EXPECT_THROW(events.run(), std::runtime_error);
  EXPECT_EQ(events.pending(), size_t{1});
  events.run();
  EXPECT_TRUE(events.empty());
  EXPECT_EQ(t.fired, (std::vector<uint64_t>{1, 10, 3, 2, 5, 4}));
}

}  // namespace
}  // namespace photonsim
