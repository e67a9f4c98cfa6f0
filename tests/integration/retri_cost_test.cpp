// ReTri on a static bidirectional ring against the paper's closed form
// (ReTri section 3.4): C = log3(n) alpha_s + (alpha_h + beta m/3) (n-1)/2,
// where m is the per-node all-to-all buffer (n flows of workload.message
// bytes), alpha_s = fabric.step_overhead, alpha_h = fabric.latency and
// beta = 1 / fabric.bandwidth. With packet = chunk = whole transfer under
// store-and-forward, phase k's transfers travel 3^k hops in a perfect
// pipeline, so both the cost model and the packet engine hit it exactly.
// Also the every-phase reconfiguration form C(log3(n) - 1) of the same section.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "schedules/verify/block_verifier.h"
#include "schedules/synthesizer_registry.h"
#include "sim/engine/schedule_execution.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

constexpr int64_t kFlowBytes = 3000;  // workload.message: one (src, dst) flow
const Time kAlphaS = Time::ns(1700);  // per-phase delay (the paper's 1.7 us)
const Time kAlphaH = Time::ns(1000);  // per-hop delay (the paper's 1 us)
const Bandwidth kBandwidth = Bandwidth::bits_per_second(testing_support::k800GbpsInBitsPerSecond);  // 10 ps per byte
const Time kReconfig = Time::us(10);                                                                // delta (alpha_r)

struct RetriRun {
  Schedule schedule;
  RunResult result;
};

RetriRun retri_on_ring(int n, const std::string& planner) {
  FabricSpec fabric = testing_support::test_fabric(n, 2, CircuitKind::bidirectional);  // kBandwidth, store-and-forward
  fabric.latency = kAlphaH;
  fabric.packet = Bytes(0);  // one packet per chunk
  fabric.reconfig_delay = kReconfig;
  fabric.step_overhead = kAlphaS;
  // Chunk 0: the whole transfer is one chunk.
  const WorkloadSpec workload = testing_support::test_workload(Collective::alltoall, kFlowBytes);
  SynthesisSpec synthesis;
  synthesis.algorithm = "retri";
  synthesis.planner = planner;
  synthesis.topology.type = "ring";
  Schedule schedule = SynthesizerRegistry::with_builtins().synthesize(fabric, workload, synthesis);
  RunResult result = run_schedule(fabric, workload, schedule);
  return {std::move(schedule), std::move(result)};
}

// beta * m / 3 with m = n * workload.message.
Time third_of_buffer(int n) { return kBandwidth.serialization(Bytes(n * kFlowBytes / 3)); }

TEST(RetriCost, PredictionOnStaticRingIsThePapersClosedForm) {
  for (int n : {9, 27, 81}) {
    const RetriRun run = retri_on_ring(n, "static");
    ASSERT_TRUE(verify_schedule(run.schedule).ok()) << "n = " << n;
    int log3n = 0;
    for (int reach = 1; reach < n; reach *= 3) ++log3n;
    const Time closed_form = kAlphaS * log3n + (kAlphaH + third_of_buffer(n)) * ((n - 1) / 2);
    EXPECT_EQ(run.schedule.prediction().total(), closed_form) << "n = " << n;
    // Term by term: phase k pays alpha_s + 3^k (alpha_h + beta m/3).
    ASSERT_EQ(run.schedule.prediction().steps.size(), static_cast<size_t>(log3n));
    int64_t hops = 1;
    for (const StepPrediction& p : run.schedule.prediction().steps) {
      EXPECT_EQ(p.reconfiguration, Time::zero());
      EXPECT_EQ(p.startup, kAlphaS);
      EXPECT_EQ(p.propagation, kAlphaH * hops) << "n = " << n << ", 3^k = " << hops;
      EXPECT_EQ(p.transmission, third_of_buffer(n) * hops) << "n = " << n << ", 3^k = " << hops;
      hops *= 3;
    }
  }
}

TEST(RetriCost, MeasuredOnStaticRingMatchesTheClosedForm) {
  for (int n : {9, 27, 81}) {
    const RetriRun run = retri_on_ring(n, "static");
    const Time predicted = run.schedule.prediction().total();
    EXPECT_EQ(run.result.reconfigurations, 0);
    const double error =
        static_cast<double>(run.result.completion.picoseconds()) / static_cast<double>(predicted.picoseconds()) - 1.0;
    EXPECT_LT(std::abs(error), 0.01) << "n = " << n;
    EXPECT_EQ(run.result.completion, predicted) << "n = " << n;  // the model is exact here
    ASSERT_EQ(run.result.steps.size(), run.schedule.prediction().steps.size());
    for (size_t s = 0; s < run.result.steps.size(); ++s) {
      EXPECT_EQ(run.result.steps[s].measured(), run.schedule.prediction().steps[s].total())
          << "n = " << n << ", phase " << s;
    }
  }
}

TEST(RetriCost, ReconfiguringBeforeEveryLaterPhaseIsThePapersOptimalCost) {
  // Section 3.4, R = log3(n) - 1: log3(n) (alpha_s + alpha_h + beta m/3) + (log3(n) - 1) delta.
  // The fabric starts as the ring, which already holds phase 0's circuits i +- 1.
  for (int n : {9, 27, 81}) {
    const RetriRun run = retri_on_ring(n, "every_step");
    int log3n = 0;
    for (int reach = 1; reach < n; reach *= 3) ++log3n;
    const Time closed_form = (kAlphaS + kAlphaH + third_of_buffer(n)) * log3n + kReconfig * (log3n - 1);
    EXPECT_EQ(run.schedule.reconfigurations(), log3n - 1) << "n = " << n;
    EXPECT_EQ(run.schedule.prediction().total(), closed_form) << "n = " << n;
    EXPECT_EQ(run.result.reconfigurations, log3n - 1) << "n = " << n;
    EXPECT_EQ(run.result.completion, closed_form) << "n = " << n;
  }
}

}  // namespace
}  // namespace photonsim
