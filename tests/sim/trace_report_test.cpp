// The Chrome/Perfetto trace of a run: exact spans on a hand-computed ring
// with a reconfiguration, the trace event format, times in whole nanoseconds
// as Perfetto keeps them, and the size bound's aggregation and sampling.
#include "sim/reports/trace_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "schedules/model/schedule.h"
#include "schedules/synthesizer_registry.h"
#include "sim/config/config_loader.h"
#include "sim/app/experiment_runner.h"
#include "sim/engine/schedule_execution.h"
#include "tests/support/json_value.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"
#include "tests/support/trace_checks.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

using testing_support::JsonValue;
using testing_support::parse_json;
using testing_support::validate_trace;

// The X events named `name` on (pid, tid).
std::vector<const JsonValue*> spans(const JsonValue& doc, int64_t pid, int64_t tid, const std::string& name) {
  std::vector<const JsonValue*> out;
  for (const JsonValue& e : doc.at("traceEvents").items) {
    if (e.at("ph").text == "X" && e.at("pid").integer() == pid && e.at("tid").integer() == tid &&
        e.at("name").text == name) {
      out.push_back(&e);
    }
  }
  return out;
}

size_t x_events(const JsonValue& doc) {
  size_t n = 0;
  for (const JsonValue& e : doc.at("traceEvents").items) n += e.at("ph").text == "X" ? 1 : 0;
  return n;
}

// The one span named `name` on (pid, tid) has exactly this ts and dur text (microseconds).
void expect_span(const JsonValue& doc, int64_t pid, int64_t tid, const std::string& name, const std::string& ts,
                 const std::string& dur) {
  const std::vector<const JsonValue*> found = spans(doc, pid, tid, name);
  ASSERT_EQ(found.size(), 1u) << name << " on pid " << pid << " tid " << tid;
  EXPECT_EQ(found[0]->at("ts").text, ts) << name;
  EXPECT_EQ(found[0]->at("dur").text, dur) << name;
}

Topology shift_ring(int gpus, int shift) {
  std::vector<Edge> edges;
  for (int u = 0; u < gpus; ++u) edges.push_back({static_cast<Node>(u), static_cast<Node>((u + shift) % gpus)});
  return Topology("ring+" + std::to_string(shift), gpus, edges);
}

Transfer trace_report_transfer(Node src, Node dst, int64_t bytes) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.bytes = Bytes(bytes);
  return t;
}

// 4 GPUs, one port each, 10 ps per byte, 500 ns per hop, 1 us start-up, 10 us
// reconfiguration. Step 0 on the ring +1 (installed at the start: no dark
// time): every GPU sends 1000 bytes to its successor, GPU 0 sends 2000. Step 1
// on the ring +2 (a reconfiguration): 1000 bytes to the GPU two ahead.
struct RingRun {
  FabricSpec fabric;
  Schedule schedule;
  RunResult result;
  Timeline timeline;
};

RingRun ring_run() {
  FabricSpec fabric = testing_support::test_fabric(4);
  fabric.reconfig_delay = Time::us(10);
  fabric.step_overhead = Time::us(1);
  ScheduleParts parts;
  parts.gpus = 4;
  parts.message = Bytes(1000);
  parts.topologies = {shift_ring(4, 1), shift_ring(4, 2)};
  parts.initial_topology = 0;
  Step s0{0, {}}, s1{1, {}};
  for (Node u = 0; u < 4; ++u) {
    s0.transfers.push_back(trace_report_transfer(u, (u + 1) % 4, u == 0 ? 2000 : 1000));
    s1.transfers.push_back(trace_report_transfer(u, (u + 2) % 4, 1000));
  }
  parts.steps = {s0, s1};
  RingRun run{fabric, Schedule(std::move(parts)), {}, {}};
  run.result = run_schedule(fabric, testing_support::test_workload(Collective::alltoall, 1000), run.schedule, nullptr,
                            &run.timeline);
  return run;
}

// pid 1 tid 1: steps; GPU u: pid 2 + u, send tid 2 + 3u, wait 3 + 3u, port p 4 + 3u + p (one port: stride 3).
TEST(TraceReport, HandComputedRingSpans) {
  const RingRun run = ring_run();
  // Step 0: start-up [0, 1us); GPU 0's 2000 bytes serialize in 20 ns and arrive
  // 500 ns later: 1.52 us. Step 1: dark [1.52, 11.52) us, start-up to 12.52 us,
  // 10 ns of serialization, 500 ns of latency: 13.03 us.
  ASSERT_EQ(run.result.steps.size(), 2u);
  EXPECT_EQ(run.result.steps[1].begin, Time::ps(1'520'000));
  EXPECT_EQ(run.result.completion, Time::ps(13'030'000));
  const JsonValue doc = parse_json(trace_report(run.result, &run.timeline, run.fabric));
  EXPECT_EQ(doc.find("displayTimeUnit"), nullptr);  // older trace processors read ts in its unit

  expect_span(doc, 1, 1, "step 0", "0", "1.52");
  expect_span(doc, 1, 1, "start-up 0", "0", "1");
  EXPECT_TRUE(spans(doc, 1, 1, "reconfiguration 0").empty());
  expect_span(doc, 1, 1, "step 1", "1.52", "11.51");
  expect_span(doc, 1, 1, "reconfiguration 1", "1.52", "10");
  expect_span(doc, 1, 1, "start-up 1", "11.52", "1");
  const JsonValue& step1 = spans(doc, 1, 1, "step 1")[0]->at("args");
  EXPECT_EQ(step1.at("reconfiguration_ps").text, "10000000");
  EXPECT_EQ(step1.at("startup_ps").text, "1000000");
  EXPECT_EQ(step1.at("bytes").text, "4000");
  EXPECT_EQ(step1.at("transfers").text, "4");

  // GPU 0 (pid 2): port 0 (tid 4) busy to GPU 1 in step 0, dark, then busy to GPU 2.
  expect_span(doc, 2, 4, "-> 1", "1", "0.02");
  expect_span(doc, 2, 4, "dark", "1.52", "10");
  expect_span(doc, 2, 4, "-> 2", "12.52", "0.01");
  const JsonValue& busy = spans(doc, 2, 4, "-> 2")[0]->at("args");
  EXPECT_EQ(busy.at("step").text, "1");
  EXPECT_EQ(busy.at("peer").text, "2");
  EXPECT_EQ(spans(doc, 2, 4, "dark")[0]->at("args").at("peer").text, "2");
  expect_span(doc, 2, 2, "step 0 send", "1", "0.52");
  expect_span(doc, 2, 2, "step 1 send", "12.52", "0.51");
  EXPECT_TRUE(spans(doc, 2, 3, "barrier wait").empty());  // GPU 0 is the last to deliver

  // GPU 1 (pid 3, send tid 5, wait tid 6): its step 0 delivery at 1.51 us waits 10 ns for GPU 0's.
  expect_span(doc, 3, 5, "step 0 send", "1", "0.51");
  expect_span(doc, 3, 6, "barrier wait", "1.51", "0.01");
  expect_span(doc, 3, 7, "-> 2", "1", "0.01");
  EXPECT_EQ(spans(doc, 3, 6, "barrier wait")[0]->at("args").at("step").text, "0");

  const JsonValue& other = doc.at("otherData");
  EXPECT_EQ(other.at("completion_ps").text, "13030000");
  EXPECT_EQ(other.at("photonsim_aggregation").text.rfind("none", 0), 0u);
  EXPECT_EQ(other.at("photonsim_events").integer(), static_cast<int64_t>(doc.at("traceEvents").items.size()));
}

TEST(TraceReport, IsAValidTraceAndTheSameBytesEveryTime) {
  const RingRun run = ring_run();
  const std::string text = trace_report(run.result, &run.timeline, run.fabric);
  EXPECT_EQ(validate_trace(parse_json(text)), std::vector<std::string>{});
  const RingRun again = ring_run();
  EXPECT_EQ(trace_report(again.result, &again.timeline, again.fabric), text);
}

// Back-to-back spans whose times are not whole nanoseconds stay back to back
// as Perfetto reads them: it rounds ts and dur each to the nanosecond
// (llround(us * 1000)), which for step 0 written exactly (ts 0.0006, dur
// 0.0016: 1 + 2 ns) would end it at 3 ns, after step 1 begins (0.0022: 2 ns).
TEST(TraceReport, SpansTouchingInPicosecondsDoNotOverlapInPerfettoNanoseconds) {
  RunResult result;
  for (const auto& [begin, end] : {std::pair{600, 2200}, std::pair{2200, 3000}}) {
    StepResult s;
    s.begin = Time::ps(begin);
    s.end = Time::ps(end);
    result.steps.push_back(s);
  }
  result.completion = Time::ps(3000);
  const JsonValue doc = parse_json(trace_report(result, nullptr, testing_support::test_fabric(2)));
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  const auto perfetto_ns = [](const JsonValue& us) { return std::llround(std::stod(us.text) * 1000.0); };
  const std::vector<const JsonValue*> first = spans(doc, 1, 1, "step 0");
  const std::vector<const JsonValue*> second = spans(doc, 1, 1, "step 1");
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(second.size(), 1u);
  const long long first_end = perfetto_ns(first[0]->at("ts")) + perfetto_ns(first[0]->at("dur"));
  EXPECT_EQ(first_end, 2);
  EXPECT_EQ(perfetto_ns(second[0]->at("ts")), 2);
}

// Times are written from integers, begin and end rounded down to the
// nanosecond (Perfetto's resolution): a nanosecond survives at any run
// length, and what nests in picoseconds still nests.
TEST(TraceReport, MicrosecondsAreWholeNanosecondsRoundedDown) {
  RunResult result;
  StepResult s;
  s.begin = Time::ps(123'456'789'012'345);
  s.reconfiguration = Time::ps(1);
  s.startup = Time::ps(999'999);
  s.end = Time::ps(123'456'790'012'345);
  result.steps.push_back(s);
  result.completion = s.end;
  FabricSpec fabric = testing_support::test_fabric(2);
  const JsonValue doc = parse_json(trace_report(result, nullptr, fabric));
  expect_span(doc, 1, 1, "step 0", "123456789.012", "1");
  expect_span(doc, 1, 1, "reconfiguration 0", "123456789.012", "0");  // 1 ps, within one nanosecond
  // [begin + 1 ps, end): its begin rounds down with the step's, its end is the step's.
  expect_span(doc, 1, 1, "start-up 0", "123456789.012", "1");
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
}

TEST(TraceReport, WithoutATimelineOnlyTheStepsAndSaysSo) {
  const RingRun run = ring_run();
  const JsonValue doc = parse_json(trace_report(run.result, nullptr, run.fabric));
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  for (const JsonValue& e : doc.at("traceEvents").items) EXPECT_EQ(e.at("pid").integer(), 1);
  EXPECT_EQ(x_events(doc), 5u);  // 2 steps, start-up 0, reconfiguration 1, start-up 1
  EXPECT_NE(doc.at("otherData").at("photonsim_tracks").text.find("no packet run"), std::string::npos);
}

// One port per GPU, `gpus` GPUs; per GPU `busy` separate busy spans in each of
// two steps and a dark span between them.
struct HandTimeline {
  FabricSpec fabric;
  RunResult result;
  Timeline timeline;
};

HandTimeline hand_timeline(int gpus, int busy) {
  HandTimeline h{testing_support::test_fabric(gpus), {}, {}};
  const int64_t step_ps = 1'000'000;
  for (uint32_t k = 0; k < 2; ++k) {
    StepResult s;
    s.begin = Time::ps(k * step_ps);
    s.reconfiguration = Time::ps(k == 1 ? 1000 : 0);
    s.end = Time::ps((k + 1) * step_ps);
    s.transfers = static_cast<uint64_t>(gpus);
    h.result.steps.push_back(s);
  }
  h.result.completion = Time::ps(2 * step_ps);
  for (int u = 0; u < gpus; ++u) {
    PortTimeline p{static_cast<Node>(u), 0, {}};
    const Node peer = static_cast<Node>((u + 1) % gpus);
    for (uint32_t k = 0; k < 2; ++k) {
      const int64_t base = k * step_ps;
      if (k == 1) p.spans.push_back(PortSpan{Time::ps(base), Time::ps(base + 1000), peer, k, PortActivity::dark});
      for (int i = 0; i < busy; ++i) {
        p.spans.push_back(
            PortSpan{Time::ps(base + 2000 + 100 * i), Time::ps(base + 2050 + 100 * i), peer, k, PortActivity::busy});
      }
      h.timeline.transfers.push_back(TransferSpan{static_cast<Node>(u), peer, k, static_cast<uint32_t>(u),
                                                  Time::ps(base), Time::ps(base + 2000),
                                                  Time::ps(base + 500'000 + 1000 * u)});
    }
    h.timeline.ports.push_back(p);
  }
  std::stable_sort(h.timeline.transfers.begin(), h.timeline.transfers.end(),
                   [](const TransferSpan& a, const TransferSpan& b) { return a.step < b.step; });
  return h;
}

TEST(TraceReport, UnderTheLimitEverySpanIsWritten) {
  const HandTimeline h = hand_timeline(4, 10);
  const JsonValue doc = parse_json(trace_report(h.result, &h.timeline, h.fabric));
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  EXPECT_EQ(doc.at("otherData").at("photonsim_port_spans_written").integer(), 4 * 21);
  EXPECT_EQ(spans(doc, 2, 4, "-> 1").size(), 20u);
}

TEST(TraceReport, OverTheLimitPortSpansAreMergedPerStep) {
  const HandTimeline h = hand_timeline(4, 10);
  // Whole: steps 4 + 2 + 1, per GPU 6 + 2 sends + 2 waits + 2 + 21 port spans.
  TraceOptions options;
  options.event_limit = 100;
  const std::string text = trace_report(h.result, &h.timeline, h.fabric, options);
  const JsonValue doc = parse_json(text);
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  EXPECT_LE(doc.at("traceEvents").items.size(), options.event_limit);
  const JsonValue& other = doc.at("otherData");
  EXPECT_EQ(other.at("photonsim_aggregation").text.rfind("port spans aggregated", 0), 0u)
      << other.at("photonsim_aggregation").text;
  EXPECT_EQ(other.at("photonsim_port_spans_recorded").integer(), 4 * 21);
  EXPECT_EQ(other.at("photonsim_port_spans_written").integer(), 4 * 3);
  EXPECT_EQ(other.at("photonsim_gpus_with_ports").integer(), 4);
  // GPU 0's port: one span per step from the first busy begin to the last busy end.
  const std::vector<const JsonValue*> busy = spans(doc, 2, 4, "-> 1");
  ASSERT_EQ(busy.size(), 2u);
  EXPECT_EQ(busy[0]->at("ts").text, "0.002");
  EXPECT_EQ(busy[0]->at("dur").text, "0");  // 950 ps from 2 ns: within the same nanosecond
  EXPECT_EQ(busy[0]->at("args").at("aggregated").text, "10");
  EXPECT_EQ(busy[1]->at("ts").text, "1.002");
  expect_span(doc, 2, 4, "dark", "1", "0.001");
}

TEST(TraceReport, StillOverTheLimitOnlyTheFirstGpusKeepTheirPorts) {
  const HandTimeline h = hand_timeline(4, 10);
  // Steps 7 + 4 GPUs * 10 = 47 without ports; each GPU's aggregated ports 2 + 3.
  TraceOptions options;
  options.event_limit = 58;
  const JsonValue doc = parse_json(trace_report(h.result, &h.timeline, h.fabric, options));
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  EXPECT_LE(doc.at("traceEvents").items.size(), options.event_limit);
  const JsonValue& other = doc.at("otherData");
  EXPECT_EQ(other.at("photonsim_gpus_with_ports").integer(), 2);
  EXPECT_EQ(other.at("photonsim_gpu_processes").integer(), 4);
  EXPECT_NE(other.at("photonsim_aggregation").text.find("only the ports of the first 2 of 4 GPUs"), std::string::npos)
      << other.at("photonsim_aggregation").text;
  // Thread ids go in writing order: GPU 2 (pid 4) has send 8 and wait 9 and
  // no port thread, GPU 3 (pid 5) send 10 and wait 11.
  EXPECT_EQ(spans(doc, 3, 7, "-> 2").size(), 2u);  // GPU 1 keeps its ports
  for (const JsonValue& e : doc.at("traceEvents").items) {
    EXPECT_FALSE(e.at("pid").integer() == 4 && e.at("name").text.rfind("-> ", 0) == 0);  // GPU 2 does not
  }
  EXPECT_EQ(spans(doc, 5, 10, "step 1 send").size(), 1u);  // but GPU 3 keeps its send track

  // Below the send and wait tracks: whole GPUs are left out.
  options.event_limit = 7 + 2 * 15;
  const JsonValue fewer = parse_json(trace_report(h.result, &h.timeline, h.fabric, options));
  EXPECT_EQ(validate_trace(fewer), std::vector<std::string>{});
  EXPECT_EQ(fewer.at("traceEvents").items.size(), options.event_limit);
  EXPECT_EQ(fewer.at("otherData").at("photonsim_gpu_processes").integer(), 2);
  EXPECT_NE(fewer.at("otherData").at("photonsim_aggregation").text.find("only the first 2 of 4 GPUs"),
            std::string::npos);
}

// Steps that overlap (fabric.sync = dataflow) go on lanes, one thread each,
// so no thread holds spans that partly overlap.
TEST(TraceReport, OverlappingStepsGoOnLanes) {
  HandTimeline h = hand_timeline(2, 1);
  h.result.steps[1].begin = Time::ps(500'000);  // step 1 starts before step 0 ends
  for (TransferSpan& t : h.timeline.transfers) {
    if (t.step == 1) t.injected = Time::ps(400'000);  // and sends while step 0 still does
  }
  const JsonValue doc = parse_json(trace_report(h.result, &h.timeline, h.fabric));
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  expect_span(doc, 1, 1, "step 0", "0", "1");
  expect_span(doc, 1, 2, "step 1", "0.5", "1.5");
  // GPU 0 (pid 2): send lanes tids 3 and 4, wait 5.
  expect_span(doc, 2, 3, "step 0 send", "0.002", "0.498");
  expect_span(doc, 2, 4, "step 1 send", "0.4", "1.1");
  std::vector<std::string> threads;
  for (const JsonValue& e : doc.at("traceEvents").items) {
    if (e.at("name").text == "thread_name" && e.at("pid").integer() <= 2)
      threads.push_back(e.at("args").at("name").text);
  }
  EXPECT_EQ(threads, (std::vector<std::string>{"steps", "steps 2", "send", "send 2", "wait", "port 0"}));
  EXPECT_EQ(doc.at("otherData").at("photonsim_events").integer(),
            static_cast<int64_t>(doc.at("traceEvents").items.size()));
}

// A real run over the limit: the quickstart's 8-GPU ring, 224 port spans.
TEST(TraceReport, ARealRunOverTheLimitStaysValidAndBounded) {
  const ExperimentConfig config = load_config(std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml");
  Timeline timeline;
  const RunReport report =
      run_experiment(config, SynthesizerRegistry::with_builtins(), Fidelity::packet, nullptr, &timeline);
  for (const size_t limit : {size_t{150}, size_t{100}, size_t{40}}) {
    TraceOptions options;
    options.event_limit = limit;
    const JsonValue doc = parse_json(trace_report(report.result, &timeline, config.fabric, options));
    EXPECT_EQ(validate_trace(doc), std::vector<std::string>{}) << limit;
    EXPECT_LE(doc.at("traceEvents").items.size(), limit);
    EXPECT_EQ(doc.at("otherData").at("photonsim_aggregation").text.rfind("port spans aggregated", 0), 0u) << limit;
  }
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// Failures on circuits (docs/model.md, "Lost circuits"): process "failures",
// one thread per entry, its span from `at` to its end, with what it lost.
// The worked case: GPU 0's port down over [25, 125) ns, 2 packets lost.
TEST(TraceReport, ShowsEachCircuitFailureAndWhatItLost) {
  FabricSpec f = testing_support::test_fabric(4);
  f.latency = Time::ns(5);
  f.packet = Bytes(1000);
  Failure down;
  down.kind = FailureKind::port;
  down.at = Time::ns(25);
  down.duration = Time::ns(100);
  f.failures.entries = {down};
  f.failures.detection = Time::ns(20);
  f.failures.on_failure = FailurePolicy::wait;
  ScheduleParts parts;
  parts.gpus = 4;
  parts.topologies = {Topology("ring", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}})};
  Transfer t;
  t.src = 0;
  t.dst = 1;
  t.bytes = Bytes(4000);
  parts.steps = {Step{0, {t}}};
  Timeline timeline;
  const RunResult r = run_schedule(f, testing_support::test_workload(Collective::alltoall, 4000),
                                   Schedule(std::move(parts)), nullptr, &timeline);
  const JsonValue doc = parse_json(trace_report(r, &timeline, f));
  validate_trace(doc);
  const JsonValue* failure = nullptr;
  for (const JsonValue& e : doc.at("traceEvents").items) {
    if (e.at("ph").text == "X" && e.at("cat").text == "failure") failure = &e;
  }
  ASSERT_NE(failure, nullptr);
  EXPECT_EQ(failure->at("name").text, "down");
  EXPECT_EQ(failure->at("pid").integer(), 2 + 4);
  EXPECT_EQ(failure->at("ts").text, "0.025");
  EXPECT_EQ(failure->at("dur").text, "0.1");
  EXPECT_EQ(failure->at("args").at("lost_packets").integer(), 2);
  EXPECT_EQ(failure->at("args").at("lost_bytes").integer(), 2000);
  EXPECT_NE(doc.at("otherData").at("photonsim_tracks").text.find("process failures"), std::string::npos);
}

}  // namespace
}  // namespace photonsim
