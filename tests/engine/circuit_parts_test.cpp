// A circuit's two halves on their own: the egress queue (least entry first,
// a serialiser busy until it frees) and the pipe (latency, first in first out).
#include <gtest/gtest.h>

#include "sim/engine/circuit.h"

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

TEST(CircuitParts, SerialiserIsBusyUntilItFrees) {
  EgressQueue queue;
  EXPECT_FALSE(queue.busy_at(Time::zero()));
  queue.serialise(Time::ns(5), Time::ns(10));
  EXPECT_EQ(queue.free_at(), Time::ns(15));
  EXPECT_TRUE(queue.busy_at(Time::ns(5)));
  EXPECT_TRUE(queue.busy_at(Time::ns(15) - Time::ps(1)));
  EXPECT_FALSE(queue.busy_at(Time::ns(15)));  // free at the picosecond it frees
}

TEST(CircuitParts, PipeAddsItsLatencyAndLandsInSendingOrder) {
  Pipe pipe(Time::ns(500));
  EXPECT_TRUE(pipe.empty());
  EXPECT_EQ(pipe.carry(7, Time::ns(10)), Time::ns(510));
  EXPECT_EQ(pipe.carry(3, Time::ns(20)), Time::ns(520));
  EXPECT_EQ(pipe.front().at, Time::ns(510));
  EXPECT_EQ(pipe.land(), 7u);
  EXPECT_EQ(pipe.front().at, Time::ns(520));
  EXPECT_EQ(pipe.land(), 3u);
  EXPECT_TRUE(pipe.empty());
}

}  // namespace
}  // namespace photonsim
