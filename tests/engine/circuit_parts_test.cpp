// A circuit's parts on their own: the egress queue (least entry first, a
// serialiser busy until it frees) and the pipe element (latency, first in
// first out, into whatever PacketSink is at its far end).
#include <gtest/gtest.h>

#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/event_list.h"
#include "core/rng.h"

#include "sim/engine/network/circuit.h"

namespace photonsim {
namespace {

TEST(CircuitParts, EgressQueueSendsTheLeastEntryFirst) {
  EgressQueue queue;
  EXPECT_TRUE(queue.empty());
  queue.push(EgressEntry::forwarded(EgressOrder::chunk, 3, Time::ns(1), 1, 0, 30));
  queue.push(EgressEntry::own(EgressOrder::chunk, 1, Time::zero(), 1, 5));
  queue.push(EgressEntry::forwarded(EgressOrder::chunk, 1, Time::ns(2), 1, 0, 10));
  EXPECT_EQ(queue.pop().id, 10u);       // chunk 1, forwarded
  const EgressEntry own = queue.pop();  // chunk 1, own
  EXPECT_EQ(own.origin, PacketOrigin::own);
  EXPECT_EQ(own.id, 5u);
  EXPECT_EQ(queue.pop().id, 30u);
  EXPECT_TRUE(queue.empty());
}

// Forwarded entries that arrive in order wait in a FIFO beside the heap; any
// interleaving of pushes and pops must still hand out the least entry.
TEST(CircuitParts, EgressQueueMatchesASortedListUnderRandomTraffic) {
  Rng rng(11);
  for (const EgressOrder order : {EgressOrder::chunk, EgressOrder::fifo}) {
    EgressQueue queue;
    std::vector<EgressEntry> reference;
    uint32_t next_id = 0;
    int64_t clock = 0;
    for (int i = 0; i < 20000; ++i) {
      if (rng.uniform(3) != 0 || reference.empty()) {
        clock += static_cast<int64_t>(rng.uniform(3));  // mostly in order, sometimes equal times
        const auto chunk = static_cast<uint32_t>(rng.uniform(4));
        const uint64_t hops = 1 + rng.uniform(3);
        const auto flow = static_cast<uint32_t>(rng.uniform(50));
        const EgressEntry e =
            rng.uniform(4) == 0
                ? EgressEntry::own(order, chunk, Time::zero(), hops, flow)
                : EgressEntry::forwarded(order, chunk, Time::ps(clock - static_cast<int64_t>(rng.uniform(2))), hops,
                                         flow, next_id++);
        if (e.origin == PacketOrigin::own && std::any_of(reference.begin(), reference.end(), [&](const EgressEntry& r) {
              return r.origin == PacketOrigin::own && r.id == e.id;
            })) {
          continue;  // a flow waits as one own entry
        }
        queue.push(e);
        reference.push_back(e);
      } else {
        const auto least = std::min_element(reference.begin(), reference.end(),
                                            [](const EgressEntry& a, const EgressEntry& b) { return b.after(a); });
        const EgressEntry got = queue.pop();
        ASSERT_EQ(got.id, least->id) << i;
        ASSERT_EQ(got.origin, least->origin) << i;
        reference.erase(least);
      }
      ASSERT_EQ(queue.empty(), reference.empty());
    }
  }
}

TEST(CircuitParts, SerialiserIsBusyUntilItFrees) {
  EgressQueue queue;
  EXPECT_FALSE(queue.busy_at(Time::zero()));
  queue.serialise(Time::ns(5), Time::ns(10));
  EXPECT_EQ(queue.free_at(), Time::ns(15));
  EXPECT_TRUE(queue.busy_at(Time::ns(5)));
  EXPECT_TRUE(queue.busy_at(Time::ns(15) - Time::ps(1)));
  EXPECT_FALSE(queue.busy_at(Time::ns(15)));  // free at the picosecond it frees
}

// The reference engine's three elements share htsim's one element interface.
static_assert(std::is_base_of_v<PacketSink, EgressPort> && std::is_base_of_v<PacketSink, Pipe> &&
              std::is_base_of_v<PacketSink, GpuRouter>);

// The elements compose through PacketSink: a pipe hands each packet to
// whatever element is at its far end, its latency after it entered.
class RecordingSink final : public PacketSink {
 public:
  void receive(PacketId packet, Time at) override { received.emplace_back(packet, at); }
  std::vector<std::pair<PacketId, Time>> received;
};

// Stands in for the Network: hands the pipe its landing events.
class LandingHandler final : public EventHandler {
 public:
  explicit LandingHandler(Pipe& pipe) : pipe_(pipe) {}
  void on_event(Time now, uint64_t token) override {
    ASSERT_EQ(EventToken::from_raw(token).kind(), EventToken::Kind::landing);
    ASSERT_EQ(EventToken::from_raw(token).id(), 4u);
    pipe_.land(now);
  }

 private:
  Pipe& pipe_;
};

TEST(CircuitParts, PipeAddsItsLatencyAndLandsInSendingOrder) {
  EventList clock;
  Pipe pipe;
  LandingHandler handler(pipe);
  const NetworkEvents events(clock, handler);
  RecordingSink far_end;
  pipe.connect(4, Time::ns(500), events, far_end);
  EXPECT_TRUE(pipe.empty());
  PacketSink& element = pipe;
  element.receive(7, Time::ns(10));
  element.receive(3, Time::ns(20));
  EXPECT_EQ(clock.pending(), 1u);  // only the front packet's landing is on the clock
  clock.run();
  ASSERT_EQ(far_end.received.size(), 2u);
  EXPECT_EQ(far_end.received[0], std::make_pair(PacketId{7}, Time::ns(510)));
  EXPECT_EQ(far_end.received[1], std::make_pair(PacketId{3}, Time::ns(520)));
  EXPECT_TRUE(pipe.empty());
  EXPECT_EQ(clock.fired(), 2u);
}

}  // namespace
}  // namespace photonsim
