// Joint all-to-all synthesis end to end: the all-to-all paper's motivating
// example (n = 8, k = 1, R = 7T, one chunk per pair), the choice of d, the
// free initial topology, TotalCost against the packet-level simulation, and
// the errors of misplaced joint keys.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "core/error.h"
#include "schedules/verify/block_verifier.h"
#include "schedules/alltoall/reconfiguration_bound.h"
#include "schedules/synthesizer_registry.h"
#include "tests/engine/replay_fixture.h"

namespace photonsim {
namespace {

using testing_support::fabric;
using testing_support::workload;

// T = latency + chunk / B = 500 ns + 4 MB / 800 Gbps = 40.5 us.
const Time kT = Time::ns(40'500);

struct Example {
  FabricSpec f = fabric(8);
  WorkloadSpec w = workload(Bytes(4'000'000), Bytes(4'000'000));
  SynthesisSpec s;
  Example() {
    f.reconfig_delay = kT * 7;
    s.topology.type = "none";
  }
  Schedule synthesize(const std::string& algorithm, std::optional<int> d = std::nullopt) {
    s.algorithm = algorithm;
    s.reconfigurations = d;
    return SynthesizerRegistry::with_builtins().synthesize(f, w, s);
  }
};

void expect_exact(const Example& e, const Schedule& schedule, Time expected) {
  ASSERT_TRUE(verify_schedule(schedule).ok()) << verify_schedule(schedule).violation->describe();
  EXPECT_EQ(schedule.prediction().total(), expected);
  EXPECT_EQ(testing_support::replay(e.f, e.w, schedule).completion, expected);
}

TEST(JointSynthesis, MotivatingExampleStaticRingPairwiseAndReconfiguring) {
  Example e;
  const Time R = e.f.reconfig_delay;
  expect_exact(e, e.synthesize("static_ring"), R + kT * 28);  // Figure 4: 35T
  expect_exact(e, e.synthesize("pairwise"), R * 7 + kT * 7);  // Figure 5: 56T
  const Schedule best = e.synthesize("rdc");                  // Figure 3: 30T
  expect_exact(e, best, R * 2 + kT * 16);
  EXPECT_EQ(best.reconfigurations(), 2);
  expect_exact(e, e.synthesize("rdc", 1), R + kT * 28);
  expect_exact(e, e.synthesize("rdc", 7), R * 7 + kT * 7);
}

TEST(JointSynthesis, PlanListsEveryDWithItsHopSum) {
  Example e;
  e.s.algorithm = "rdc";
  const auto outcomes = SynthesizerRegistry::with_builtins().plan_all(e.f, e.w, e.s);
  ASSERT_EQ(outcomes.size(), 7u);
  const int64_t hops[] = {28, 16, 13, 11, 9, 8, 7};
  for (size_t i = 0; i < outcomes.size(); ++i) {
    EXPECT_EQ(outcomes[i].planner, "joint");
    EXPECT_EQ(outcomes[i].configurations, static_cast<int>(i + 1));
    EXPECT_EQ(outcomes[i].label(), "joint d=" + std::to_string(i + 1));
    EXPECT_EQ(outcomes[i].hop_sum, hops[i]);
    EXPECT_GE(outcomes[i].hop_sum, transmission_lower_bound(8, 1, static_cast<int>(i + 1)));
    EXPECT_EQ(outcomes[i].schedule->prediction().total(),
              e.f.reconfig_delay * static_cast<int64_t>(i + 1) + kT * hops[i]);
  }
}

TEST(JointSynthesis, ChoosesFewerTopologiesAsReconfigurationGetsDearer) {
  Example e;
  e.f.reconfig_delay = Time::ns(1);
  EXPECT_EQ(e.synthesize("rdc").reconfigurations(), 7);  // nearly free: every flow direct
  e.f.reconfig_delay = Time::ms(10);
  EXPECT_EQ(e.synthesize("rdc").reconfigurations(), 1);  // dear: stay on the ring
}

TEST(JointSynthesis, AGivenInitialTopologyIsFree) {
  Example e;
  e.s.topology.type = "ring";  // the directed 0 -> 1 -> ... ring = rdc's base
  const Schedule s = e.synthesize("rdc", 2);
  EXPECT_EQ(s.reconfigurations(), 1);
  expect_exact(e, s, e.f.reconfig_delay + kT * 16);
}

// The paper's evaluation setting: 32 MB flows of 4 MB chunks, store-and-forward,
// TotalCost = R*d + T * chunks * sum of round hop counts (a flow of c chunks
// keeps every circuit of an h-hop round busy for c*h chunk times).
double percent_off_total_cost(const Example& e, const PlanCandidate& o, Time* measured_out = nullptr) {
  const Time total_cost = e.f.reconfig_delay * o.schedule->reconfigurations() + kT * (8 * o.hop_sum);
  const Time measured = testing_support::replay(e.f, e.w, *o.schedule).completion;
  if (measured_out) *measured_out = measured;
  return 100.0 * static_cast<double>((measured - total_cost).picoseconds()) /
         static_cast<double>(total_cost.picoseconds());
}

// rdc in the paper's evaluation setting on n GPUs with k ports, the joint
// planner's `chunks` as given ("" = its default).
Example paper_setting(int n, int ports, Time reconfig_delay, const std::string& chunks = "") {
  Example e;
  e.f = fabric(n, ports);
  e.f.reconfig_delay = reconfig_delay;
  e.w = workload(Bytes(32'000'000), Bytes(4'000'000));
  e.s.algorithm = "rdc";
  if (!chunks.empty()) {
    e.s.planner = "joint";
    e.s.planner_params["chunks"] = chunks;
  }
  return e;
}

// The acceptance, with the default `chunks: auto`: k = 1 streams chunks
// (within 1.2 %: one latency per chunk saved, and equal to the prediction);
// k > 1 runs chunk waves, TotalCost to the picosecond.
TEST(JointSynthesis, PacketSimulationAgreesWithTotalCostWithinTwoPercent) {
  for (auto [n, ports] : {std::pair{8, 1}, std::pair{16, 1}, std::pair{8, 2}, std::pair{16, 2}, std::pair{12, 3}}) {
    const Example e = paper_setting(n, ports, Time::us(20));
    for (const auto& o : SynthesizerRegistry::with_builtins().plan_all(e.f, e.w, e.s)) {
      ASSERT_TRUE(o.schedule) << o.error;
      Time measured;
      const double error = percent_off_total_cost(e, o, &measured);
      EXPECT_LE(std::abs(error), 2.0) << "n = " << n << ", k = " << ports << ", " << o.label();
      EXPECT_EQ(measured, o.schedule->prediction().total()) << "n = " << n << ", k = " << ports << ", " << o.label();
      if (ports == 1) {
        EXPECT_LE(error, 0.0) << o.label();  // streaming saves latencies, never adds time
      } else {
        EXPECT_EQ(error, 0.0) << "n = " << n << ", k = " << ports << ", " << o.label();
        EXPECT_EQ(o.schedule->steps().size() % 8, 0u) << "one step per chunk wave";
      }
    }
  }
}

// `chunks: pipelined` on k = 2: rounds that are contention-free for one chunk
// interleave their chunk pipelines on shared circuits and drift from
// TotalCost (either way), which is why `auto` runs waves there: over 1 % under
// the default egress order (chunk_fifo), over 2 % under `chunk`.
TEST(JointSynthesis, PipelinedChunksOnTwoPortsDriftFromTotalCost) {
  for (const auto& [order, least] : {std::pair{EgressOrder::chunk_fifo, 1.0}, std::pair{EgressOrder::chunk, 2.0}}) {
    double worst = 0.0;
    for (int n : {8, 16}) {
      Example e = paper_setting(n, 2, Time::us(20), "pipelined");
      e.f.egress_order = order;
      for (const auto& o : SynthesizerRegistry::with_builtins().plan_all(e.f, e.w, e.s)) {
        ASSERT_TRUE(o.schedule) << o.error;
        const double error = percent_off_total_cost(e, o);
        EXPECT_LE(std::abs(error), 4.0) << "n = " << n << ", " << o.label() << ", " << to_string(order);
        worst = std::max(worst, std::abs(error));
      }
    }
    EXPECT_GT(worst, least) << to_string(order);
  }
}

// With the joint planner's chunk waves, every step is a one-chunk round, so the
// simulation equals TotalCost = R*d + T * sum of c * hops exactly, for k = 2
// (Circulant and GenKautz families) as for k = 1.
TEST(JointSynthesis, ChunkWavesRunExactlyTotalCost) {
  for (int ports : {1, 2, 3}) {
    const Example e = paper_setting(12, ports, Time::us(100), "waves");
    for (const auto& o : SynthesizerRegistry::with_builtins().plan_all(e.f, e.w, e.s)) {
      ASSERT_TRUE(o.schedule) << o.error;
      const Time total_cost = e.f.reconfig_delay * o.schedule->reconfigurations() + kT * (8 * o.hop_sum);
      EXPECT_EQ(o.schedule->prediction().total(), total_cost) << "k = " << ports << ", " << o.label();
      EXPECT_EQ(testing_support::replay(e.f, e.w, *o.schedule).completion, total_cost)
          << "k = " << ports << ", " << o.label();
      ASSERT_TRUE(verify_schedule(*o.schedule).ok()) << verify_schedule(*o.schedule).violation->describe();
    }
  }
}

// Our extension: merging rounds for flows of many chunks never raises the
// prediction, and the simulation follows it.
TEST(JointSynthesis, MergedRoundsAreNeverSlowerAndStayPredicted) {
  for (FlowDistribution distribution : {FlowDistribution::uniform, FlowDistribution::zipf}) {
    Example e;
    e.f = fabric(16);
    e.f.reconfig_delay = Time::ms(1);
    e.w = workload(Bytes(32'000'000), Bytes(4'000'000));
    e.w.distribution = distribution;
    const Schedule plain = e.synthesize("rdc", 7);
    e.s.algorithm_params["merge"] = "true";
    const Schedule merged = e.synthesize("rdc", 7);
    EXPECT_LE(merged.prediction().total(), plain.prediction().total());
    EXPECT_LE(merged.steps().size(), plain.steps().size());
    ASSERT_TRUE(verify_schedule(merged).ok()) << verify_schedule(merged).violation->describe();
    const Time measured = testing_support::replay(e.f, e.w, merged).completion;
    const double error = 100.0 * static_cast<double>((measured - merged.prediction().total()).picoseconds()) /
                         static_cast<double>(merged.prediction().total().picoseconds());
    EXPECT_LE(std::abs(error), 2.0) << to_string(distribution);
  }
}

TEST(JointSynthesis, MisplacedKeysAreErrors) {
  Example e;
  auto message = [&](auto&& f) {
    try {
      f();
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  e.s.planner = "static";
  EXPECT_NE(message([&] { e.synthesize("rdc"); }).find("runs with planner 'joint' only"), std::string::npos);
  e.s.planner = "joint";
  EXPECT_NE(message([&] { e.synthesize("direct"); }).find("(valid: rdc, static_ring, pairwise"), std::string::npos);
  e.s.planner = "";
  e.s.topology.type = "ring";
  EXPECT_NE(
      message([&] { e.synthesize("direct", 2); }).find("synthesis.reconfigurations: applies to the joint synthesizers"),
      std::string::npos);
  EXPECT_NE(message([&] { e.synthesize("static_ring", 3); }).find("builds d in {1}"), std::string::npos);
  e.w.distribution = FlowDistribution::zipf;
  EXPECT_NE(message([&] {
              e.synthesize("bruck");
            }).find("workload.distribution: 'zipf' needs an algorithm with per-pair flow sizes"),
            std::string::npos);
}

}  // namespace
}  // namespace photonsim
