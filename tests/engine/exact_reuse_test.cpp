// Exact reuse (TrainNetwork, window_reuse.h): a barrier step repeated on the
// same circuits is replayed from its record from its second occurrence on,
// with the same times, packets, packet-hops and peak in flight as moving its
// packets (exact timings on small cases, then thousands of random schedules
// whose steps repeat, against the packet-by-packet reference).
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "sim/engine/network/train_network.h"
#include "sim/engine/network/window_reuse.h"
#include "tests/engine/replay_fixture.h"
#include "tests/engine/train_comparison.h"

namespace photonsim {
namespace {

using namespace testing_support;
using random_schedules::Scenario;
using train_comparison::differences;
using train_comparison::train_scenario;

constexpr int64_t kReusePsPerByte = 10;  // 800 Gbps

FabricSpec without_reuse(FabricSpec f) {
  f.exact_reuse = false;
  return f;
}

// One link, the same 5-packet step six times: each step is the step
// overhead, the latency and the five packets back to back (the closed form
// of NetworkTiming.StepOverheadIsPaidOncePerStep). The first is recorded,
// the other five replayed.
TEST(ExactReuse, ARepeatedStepIsReplayedFromItsSecondOccurrenceWithItsExactTimes) {
  FabricSpec f = fabric(2);
  f.packet = Bytes(1000);
  f.step_overhead = Time::ns(1700);
  const std::vector<Step> steps(6, Step{0, {transfer(0, 1, 5000)}});
  const Schedule s = schedule(2, {line(2)}, steps);
  const RunResult r = replay(f, workload(Bytes(5000)), s);
  const Time step = Time::ns(1700) + Time::ns(500) + Time::ps(5000 * kReusePsPerByte);
  EXPECT_EQ(r.completion, step * 6);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(r.steps[i].begin, step * static_cast<int64_t>(i)) << i;
    EXPECT_EQ(r.steps[i].end, step * static_cast<int64_t>(i + 1)) << i;
  }
  EXPECT_EQ(r.network.reused, 5u);
  EXPECT_EQ(r.network.packets, 30u);
  EXPECT_EQ(r.network.packet_hops, 30u);
  EXPECT_EQ(r.network.bytes_delivered, 30'000);
  // The five packets are cut 10 ns apart, the first delivered after 510 ns.
  EXPECT_EQ(r.network.peak_packets_in_flight, 5u);
  // Moving every packet: the same result, more work.
  const RunResult moved = replay(without_reuse(f), workload(Bytes(5000)), s);
  EXPECT_EQ(differences(r, moved), "");
  EXPECT_EQ(moved.network.reused, 0u);
  EXPECT_EQ(r.network.trains + 5, moved.network.trains);  // one train a step
  EXPECT_LT(r.events, moved.events);
}

// Two flows meeting on the line's second circuit (a forwarded and an own
// one, which split each other's trains), the step five times: reused from
// the second, every step the first's span shifted.
TEST(ExactReuse, AContendedStepIsReplayedWithTheSameSpans) {
  FabricSpec f = fabric(3);
  f.packet = Bytes(1000);
  f.router = RouterMode::cut_through;
  f.header = Bytes(64);
  const std::vector<Step> steps(5, Step{0, {transfer(0, 2, 7000), transfer(1, 2, 3000)}});
  const Schedule s = schedule(3, {line(3)}, steps);
  const RunResult once = replay(f, workload(Bytes(7000)), schedule(3, {line(3)}, {steps[0]}));
  const RunResult r = replay(f, workload(Bytes(7000)), s);
  EXPECT_EQ(r.network.reused, 4u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(r.steps[i].end - r.steps[i].begin, once.completion) << i;
  }
  EXPECT_EQ(r.network.packet_hops, 5 * once.network.packet_hops);
  EXPECT_EQ(r.network.peak_packets_in_flight, once.network.peak_packets_in_flight);
  f.packet_engine = PacketEngine::reference;
  EXPECT_EQ(differences(r, replay(f, workload(Bytes(7000)), s)), "");
}

// Keys are recorded at first sight only while those keys hold under the
// budget's words; past it a new key waits for its second sight.
TEST(ExactReuse, FirstSightRecordingStopsAtItsBudget) {
  WindowReuse reuse;
  EXPECT_TRUE(reuse.record_at_first_sight(WindowReuse::kFirstSightWords - 10));
  EXPECT_TRUE(reuse.record_at_first_sight(10));
  EXPECT_FALSE(reuse.record_at_first_sight(1));
  EXPECT_FALSE(reuse.seen_before(42));
  EXPECT_TRUE(reuse.seen_before(42));
}

// A step whose bytes differ is not the same window: each of the two steps
// alternating is replayed only once it repeats itself.
TEST(ExactReuse, AWindowWithOtherBytesIsNotReused) {
  FabricSpec f = fabric(2);
  f.packet = Bytes(1000);
  std::vector<Step> steps;
  for (int i = 0; i < 4; ++i) {
    steps.push_back(Step{0, {transfer(0, 1, 5000)}});
    steps.push_back(Step{0, {transfer(0, 1, 4000)}});
  }
  const RunResult r = replay(f, workload(Bytes(5000)), schedule(2, {line(2)}, steps));
  EXPECT_EQ(r.network.reused, 6u);  // each: recorded, then three times replayed
  for (size_t i = 0; i < steps.size(); ++i) {
    const int64_t bytes = i % 2 == 0 ? 5000 : 4000;
    EXPECT_EQ(r.steps[i].end - r.steps[i].begin, Time::ns(500) + Time::ps(bytes * kReusePsPerByte)) << i;
  }
}

// bandwidth_scope gpu: GPU 0's circuit to 1 runs at all of its bandwidth in
// one configuration and at half in the other (it shares the GPU with a
// circuit to 2), on the same port: the same flows over a circuit at another
// rate are another window.
TEST(ExactReuse, TheSameFlowsOverACircuitAtAnotherRateAreAnotherWindow) {
  FabricSpec f = fabric(3, 2);
  f.packet = Bytes(1000);
  f.bandwidth_scope = BandwidthScope::gpu;
  f.reconfig_delay = Time::us(1);
  const Topology alone("alone", 3, {{0, 1}});
  const Topology shared("shared", 3, {{0, 1}, {0, 2}});
  std::vector<Step> steps;
  for (int i = 0; i < 4; ++i) {
    steps.push_back(Step{0, {transfer(0, 1, 5000)}});
    steps.push_back(Step{1, {transfer(0, 1, 5000)}});
  }
  const Schedule s = schedule(3, {alone, shared}, steps);
  const RunResult r = replay(f, workload(Bytes(5000)), s);
  EXPECT_EQ(r.network.reused, 6u);
  const auto moving = [&](size_t i) { return r.steps[i].end - r.steps[i].begin - r.steps[i].reconfiguration; };
  EXPECT_EQ(moving(0), Time::ns(500) + Time::ps(5000 * kReusePsPerByte));
  EXPECT_EQ(moving(1), Time::ns(500) + Time::ps(2 * 5000 * kReusePsPerByte));  // half the rate
  for (size_t i = 2; i < steps.size(); ++i) EXPECT_EQ(moving(i), moving(i % 2)) << i;
  FabricSpec reference = f;
  reference.packet_engine = PacketEngine::reference;
  EXPECT_EQ(differences(r, replay(reference, workload(Bytes(5000)), s)), "");
}

// Only a barrier step is a closed window; a timeline moves every packet
// (the ports' busy spans are the packets'); the reference never reuses.
TEST(ExactReuse, OnlyBarrierStepsWithoutATimelineOnTrainsAreReused) {
  FabricSpec f = fabric(2);
  f.packet = Bytes(1000);
  const Schedule s = schedule(2, {line(2)}, std::vector<Step>(6, Step{0, {transfer(0, 1, 5000)}}));
  EXPECT_EQ(replay(f, workload(Bytes(5000)), s).network.reused, 5u);
  FabricSpec dataflow = f;
  dataflow.sync = SyncMode::dataflow;
  EXPECT_EQ(replay(dataflow, workload(Bytes(5000)), s).network.reused, 0u);
  Timeline timeline;
  EXPECT_EQ(run_schedule(f, workload(Bytes(5000)), s, nullptr, &timeline).network.reused, 0u);
  FabricSpec reference = f;
  reference.packet_engine = PacketEngine::reference;
  EXPECT_EQ(replay(reference, workload(Bytes(5000)), s).network.reused, 0u);
}

// The random scenario of `seed` with its steps repeated: each 1 to 4 times
// in a row, now and then with one transfer's bytes changed (a near repeat,
// another key), under the barrier three times in four.
Scenario repeating_scenario(uint64_t seed) {
  Scenario s = train_scenario(seed);
  Rng rng(seed ^ 0x2e05e);
  if (rng.uniform(4) != 0) s.fabric.sync = SyncMode::barrier;
  std::vector<Step> steps;
  for (const Step& step : s.parts.steps) {
    const uint64_t times = 1 + rng.uniform(4);
    for (uint64_t k = 0; k < times; ++k) {
      Step copy = step;
      if (k > 0 && !copy.transfers.empty() && rng.uniform(4) == 0) {
        Transfer& t = copy.transfers[rng.uniform(copy.transfers.size())];
        t.bytes = Bytes(t.bytes.count() + 1 + static_cast<int64_t>(rng.uniform(3000)));
      }
      steps.push_back(std::move(copy));
    }
  }
  s.parts.steps = std::move(steps);
  return s;
}

constexpr uint64_t kRepeatingCases = 3000;

TEST(ExactReuse, RandomSchedulesWithRepeatedStepsGiveTheReferenceResultsFieldByField) {
  uint64_t reused = 0;
  uint64_t reusing_schedules = 0;
  uint64_t events = 0;
  uint64_t moved_events = 0;
  std::vector<uint64_t> failed;
  std::string first_failure;
  for (uint64_t seed = 1; seed <= kRepeatingCases; ++seed) {
    const Scenario s = repeating_scenario(seed);
    std::optional<Schedule> schedule;
    try {
      schedule.emplace(ScheduleParts(s.parts));
    } catch (const Error&) {
      continue;  // the repeats broke the blocks' story: not a schedule
    }
    FabricSpec reference = s.fabric;
    reference.packet_engine = PacketEngine::reference;
    const RunResult expected = run_schedule(reference, s.workload, *schedule, nullptr, nullptr, true);
    RunResult got;
    RunResult moved;
    try {
      got = run_schedule(s.fabric, s.workload, *schedule, nullptr, nullptr, true);
      moved = run_schedule(without_reuse(s.fabric), s.workload, *schedule, nullptr, nullptr, true);
    } catch (const std::exception& e) {
      FAIL() << "seed " << seed << ": " << e.what() << "\n" << s.describe();
    }
    const std::string diff = differences(got, expected);
    if (!diff.empty()) {
      failed.push_back(seed);
      if (first_failure.empty()) first_failure = "seed " + std::to_string(seed) + "\n" + diff + s.describe();
    }
    reused += got.network.reused;
    reusing_schedules += got.network.reused > 0 ? 1 : 0;
    events += got.events;
    moved_events += moved.events;
  }
  std::ostringstream seeds;
  for (const uint64_t seed : failed) seeds << " " << seed;
  EXPECT_TRUE(failed.empty()) << failed.size() << " schedules differ:" << seeds.str() << "\nthe first:\n"
                              << first_failure;
  EXPECT_GT(reusing_schedules * 5, kRepeatingCases);  // reuse is exercised, not rare
  std::cout << reused << " windows reused in " << reusing_schedules << " of " << kRepeatingCases << " schedules; "
            << events << " events, " << moved_events << " moving every packet\n";
}

}  // namespace
}  // namespace photonsim
