// The fast engine against the reference model (tests/engine/reference_engine.h)
// on thousands of random small schedules: identical per-step times to the
// picosecond. Also: relabelling the GPUs never changes a time.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "core/rng.h"
#include "sim/engine/schedule_execution.h"
#include "tests/engine/random_schedule.h"
#include "tests/engine/reference_engine.h"

namespace photonsim {
namespace {

using namespace random_schedules;

Schedule reference_engine_relabelled(const ScheduleParts& original, const std::vector<Node>& label) {
  ScheduleParts parts = original;
  for (Topology& t : parts.topologies) {
    std::vector<Edge> edges;
    for (const Edge& e : t.edges()) edges.push_back({label[e.first], label[e.second]});
    t = Topology(t.name(), t.gpus(), edges);
  }
  for (Step& step : parts.steps) {
    for (Transfer& t : step.transfers) {
      t.src = label[t.src];
      t.dst = label[t.dst];
      for (Node& v : t.path) v = label[v];
    }
  }
  return Schedule(std::move(parts));
}

constexpr uint64_t kReferenceEngineCases = 3000;

TEST(ReferenceEngine, AgreesWithTheEngineToThePicosecondOnRandomSchedules) {
  uint64_t packet_hops = 0;
  for (uint64_t seed = 1; seed <= kReferenceEngineCases; ++seed) {
    const Scenario s = random_scenario(seed);
    const Schedule schedule{ScheduleParts(s.parts)};
    const RunResult engine = run_schedule(s.fabric, s.workload, schedule);
    const std::vector<reference::StepTimes> expected =
        reference::ReferenceEngine(s.fabric, s.workload).replay(schedule);
    ASSERT_EQ(engine.steps.size(), expected.size()) << "seed " << seed;
    for (size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(engine.steps[i].begin, expected[i].begin)
          << "seed " << seed << ", step " << i << " begins differently\n"
          << s.describe();
      ASSERT_EQ(engine.steps[i].end, expected[i].end) << "seed " << seed << ", step " << i << " ends differently\n"
                                                      << s.describe();
    }
    packet_hops += engine.network.packet_hops;
  }
  EXPECT_GT(packet_hops, kReferenceEngineCases * 10);  // the scenarios do move packets
  std::cout << packet_hops << " packet-hops in " << kReferenceEngineCases << " schedules\n";
}

TEST(ReferenceEngine, RelabellingTheGpusChangesNoTime) {
  for (uint64_t seed = 1; seed <= kReferenceEngineCases / 3; ++seed) {
    const Scenario s = random_scenario(seed);
    std::vector<Node> label(static_cast<size_t>(s.fabric.gpus));
    for (size_t v = 0; v < label.size(); ++v) label[v] = static_cast<Node>(v);
    Rng rng(seed ^ 0x5eed);
    for (size_t v = label.size(); v > 1; --v) std::swap(label[v - 1], label[rng.uniform(v)]);
    const RunResult a = run_schedule(s.fabric, s.workload, Schedule(ScheduleParts(s.parts)));
    const RunResult b = run_schedule(s.fabric, s.workload, reference_engine_relabelled(s.parts, label));
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (size_t i = 0; i < a.steps.size(); ++i) {
      ASSERT_EQ(a.steps[i].end, b.steps[i].end) << "seed " << seed << ", step " << i << "\n" << s.describe();
    }
  }
}

}  // namespace
}  // namespace photonsim
