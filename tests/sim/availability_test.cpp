// photonsim availability (issue 55, item 5): the drawn outages, the job over
// a timeline under each policy (hand-computed, docs/model.md "A month of
// training"), and the study's refusals.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/availability/availability_report.h"
#include "sim/availability/availability_study.h"
#include "sim/availability/port_outage_draw.h"
#include "sim/availability/training_timeline.h"
#include "sim/config/config_loader.h"

namespace photonsim {
namespace {

// Healthy 10 us; 20 us planned without switch 1; 1000 us of training.
std::optional<Time> ten_or_twenty(IterationPlan plan, const std::vector<int>& lost) {
  if (lost.empty()) return Time::us(10);
  if (plan == IterationPlan::replanned && lost == std::vector<int>{1}) return Time::us(20);
  return std::nullopt;
}

PolicyCosts costs_for(FailurePolicy policy) {
  return {policy, Time::us(5), Time::us(1), Time::us(50), Time::us(20), Time::us(40)};
}

// GPU 0's port 1 down over [95, 195) us.
const std::vector<PortOutage> kOnePortDown = {{Time::us(95), Time::us(195), 0, 1, false}};

TEST(AvailabilityTimeline, ReplanDetectsReaimsRunsSlowerAndReaimsBack) {
  const TimelineOutcome o =
      TrainingTimeline(ten_or_twenty, costs_for(FailurePolicy::replan), Time::us(1000)).run(kOnePortDown);
  // 9 iterations to 90 us, half the 10th at 95; detection to 100, re-aim to
  // 101; the other half at 20 us a piece ends at 111 (21 us); 4 more to 191
  // and 4 us (0.2) of the next at the repair; re-aim to 196, 8 us to 204
  // (13 us); 79 more to 994; the 6 us past is not counted.
  EXPECT_EQ(o.useful_iterations, 94);
  EXPECT_EQ(o.completed_iterations, 94);
  const std::map<Time, int64_t> expected = {
      {Time::us(10), 88}, {Time::us(13), 1}, {Time::us(20), 4}, {Time::us(21), 1}};
  EXPECT_EQ(o.iteration_times, expected);
  EXPECT_EQ(o.lost.detection, Time::us(5));
  EXPECT_EQ(o.lost.reconfiguration, Time::us(2));
  EXPECT_EQ(o.lost.degraded, Time::us(47));  // 94 us at half the healthy rate
  EXPECT_EQ(o.lost.waiting, Time::zero());
  EXPECT_EQ(o.replans, 2);
  EXPECT_EQ(o.port_failures, 1);
}

TEST(AvailabilityTimeline, WaitMakesNoProgressUntilTheRepair) {
  const TimelineOutcome o =
      TrainingTimeline(ten_or_twenty, costs_for(FailurePolicy::wait), Time::us(1000)).run(kOnePortDown);
  // 9 to 90 us, half of one; waits 95..195; its other half ends at 200
  // (110 us); 80 more to 1000.
  EXPECT_EQ(o.useful_iterations, 90);
  const std::map<Time, int64_t> expected = {{Time::us(10), 89}, {Time::us(110), 1}};
  EXPECT_EQ(o.iteration_times, expected);
  EXPECT_EQ(o.lost.waiting, Time::us(100));
  EXPECT_EQ(o.lost.total(), Time::us(100));
}

TEST(AvailabilityTimeline, AbortRestartLosesTheWorkSinceTheCheckpoint) {
  const TimelineOutcome o =
      TrainingTimeline(ten_or_twenty, costs_for(FailurePolicy::abort_restart), Time::us(1000)).run(kOnePortDown);
  // Checkpoints at 40 and 80 us (8 iterations kept); at 95 the job hangs to
  // 145 (watchdog), restarts to 165, rolls back to 8; the iteration begun at
  // 90 is redone, 165..175 (85 us in all); 82 more to 995.
  EXPECT_EQ(o.useful_iterations, 8 + 1 + 82);
  EXPECT_EQ(o.completed_iterations, 9 + 1 + 82);
  const std::map<Time, int64_t> expected = {{Time::us(10), 91}, {Time::us(85), 1}};
  EXPECT_EQ(o.iteration_times, expected);
  EXPECT_EQ(o.lost.watchdog, Time::us(50));
  EXPECT_EQ(o.lost.restart, Time::us(20));
  EXPECT_EQ(o.lost.rollback, Time::us(15));
  EXPECT_EQ(o.restarts, 1);
}

TEST(AvailabilityTimeline, AFlapCostsItsLengthOrTheDetectionWhicheverIsLonger) {
  const std::vector<PortOutage> flap = {{Time::us(95), Time::us(97), 3, 0, true}};
  for (FailurePolicy policy : {FailurePolicy::replan, FailurePolicy::wait, FailurePolicy::abort_restart}) {
    const TimelineOutcome o = TrainingTimeline(ten_or_twenty, costs_for(policy), Time::us(1000)).run(flap);
    // Stalled 95..100 (detection 5 us > 2 us): the 10th ends at 105 (15 us), 89 more to 995.
    EXPECT_EQ(o.useful_iterations, 99) << to_string(policy);
    EXPECT_EQ(o.lost.flaps, Time::us(5)) << to_string(policy);
    EXPECT_EQ(o.iteration_times.at(Time::us(15)), 1) << to_string(policy);
  }
}

TEST(AvailabilityTimeline, ReplanWithNoSurvivingSwitchWaits) {
  const std::vector<PortOutage> both = {{Time::us(95), Time::us(195), 0, 0, false},
                                        {Time::us(95), Time::us(195), 0, 1, false}};
  const TimelineOutcome o = TrainingTimeline(ten_or_twenty, costs_for(FailurePolicy::replan), Time::us(1000)).run(both);
  // {0} has no plan in ten_or_twenty either: waiting from the first failure's detection and re-aim.
  EXPECT_GT(o.lost.waiting, Time::us(90));
  EXPECT_LT(o.useful_iterations, 91);
}

TEST(AvailabilityDraw, SameSeedSameOutagesAndNoPortFailsWhileDown) {
  RandomFailures rates;
  rates.port_mtbf_s = 3600.0;            // one failure an hour per port
  rates.port_repair = Time::ms(600000);  // 10 min
  rates.flap_mtbf_s = 7200.0;
  rates.flap_duration = Time::us(5);
  const Time day = Time::ms(86400000);
  const std::vector<PortOutage> a = draw_port_outages(rates, 8, 2, day, 7);
  const std::vector<PortOutage> b = draw_port_outages(rates, 8, 2, day, 7);
  const std::vector<PortOutage> c = draw_port_outages(rates, 8, 2, day, 8);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].start, b[i].start);
    EXPECT_EQ(a[i].gpu * 2 + a[i].port, b[i].gpu * 2 + b[i].port);
  }
  EXPECT_NE(a.size() == c.size() && a.front().start == c.front().start, true);
  std::map<int, Time> down_until;
  int failures = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (i > 0) {
      EXPECT_LE(a[i - 1].start, a[i].start);
    }
    const int port = a[i].gpu * 2 + a[i].port;
    EXPECT_GE(a[i].start, down_until[port]) << "outage " << i;
    down_until[port] = a[i].end;
    EXPECT_EQ(a[i].end - a[i].start, a[i].flap ? Time::us(5) : Time::ms(600000));
    failures += a[i].flap ? 0 : 1;
  }
  // 16 ports x 24 h, failing at 1/h while up (up 6/7 of the time between
  // failures of a 1 h + 10 min cycle): about 16 x 24 / (7/6) = 329.
  EXPECT_GT(failures, 329 * 8 / 10);
  EXPECT_LT(failures, 329 * 12 / 10);
}

constexpr const char* kAvailabilityRing =
    "fabric:\n"                               // 1
    "  gpus: 4\n"                             // 2
    "  ports: 2\n"                            // 3
    "  bandwidth: 800Gbps\n"                  // 4
    "  latency: 500ns\n"                      // 5
    "  reconfig_delay: 1us\n"                 // 6
    "  random_failures: {port_mtbf: 100h}\n"  // 7
    "workload:\n"                             // 8
    "  collective: allreduce\n"               // 9
    "  message: 4MB\n"                        // 10
    "synthesis:\n"                            // 11
    "  algorithm: rhd\n"                      // 12
    "  planner: pccl\n"                       // 13
    "  topology: ring\n";                     // 14

std::string availability_refusal(const std::vector<std::string>& sets, AvailabilityOptions options = {}) {
  const ExperimentPipeline pipeline(nullptr);
  try {
    run_availability_study(pipeline, load_config_from_string(kAvailabilityRing, "av.yaml", sets), options);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(AvailabilityStudy, RefusesWhatItCannotStudyNamingTheKey) {
  EXPECT_EQ(availability_refusal({}),
            "av.yaml:7: fabric.random_failures.port_repair: photonsim availability needs how long a failed port "
            "stays down (no published figure is taken as a default), e.g. port_repair: 4h");
  AvailabilityOptions abort;
  abort.policies = {FailurePolicy::abort_restart};
  EXPECT_EQ(availability_refusal({"fabric.random_failures.port_repair=4h"}, abort),
            "av.yaml:1: fabric.on_failure: the abort_restart policy needs its times from the config: set "
            "fabric.on_failure: {type: abort_restart, restart_time: T, checkpoint_interval: T} (watchdog_timeout "
            "defaults to 10 min)");
  AvailabilityOptions long_run;
  long_run.days = 200;
  EXPECT_EQ(availability_refusal({"fabric.random_failures.port_repair=4h"}, long_run),
            "--days must be in 1..106 (what a time holds; got 200)");
}

TEST(AvailabilityStudy, SimulatesEachStateOnceAndGivesTheSameBytesTwice) {
  const ExperimentPipeline pipeline(nullptr);
  const ExperimentConfig config =
      load_config_from_string(kAvailabilityRing, "av.yaml", {"fabric.random_failures.port_repair=4h"});
  AvailabilityOptions options;
  options.days = 30;
  options.seeds = 5;
  options.policies = {FailurePolicy::replan, FailurePolicy::wait};
  const AvailabilityStudy study = run_availability_study(pipeline, config, options);
  std::set<std::pair<IterationPlan, std::vector<int>>> seen;
  for (const SimulatedState& s : study.states) EXPECT_TRUE(seen.insert({s.plan, s.lost_switches}).second);
  EXPECT_EQ(study.healthy_iteration, study.states.front().iteration.value());
  int outages = 0;
  for (int n : study.outages_per_seed) outages += n;
  EXPECT_GT(outages, 0);  // 8 ports failing every 100 h over 720 h
  // Waiting for every repair never beats replanning around it.
  const AvailabilityReport report{"av.yaml", {}, study};
  for (size_t i = 0; i < study.outages_per_seed.size(); ++i)
    EXPECT_GE(study.policies[0].seeds[i].useful_iterations, study.policies[1].seeds[i].useful_iterations);
  const AvailabilityReport again{"av.yaml", {}, run_availability_study(pipeline, config, options)};
  EXPECT_EQ(report.json(), again.json());
  EXPECT_EQ(report.csv(), again.csv());
  EXPECT_NE(report.json().find("\"highest_goodput\": \"replan\""), std::string::npos);
}

}  // namespace
}  // namespace photonsim
