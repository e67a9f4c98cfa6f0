#include "sim/reports/trace_report.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "core/version.h"
#include "sim/reports/json_writer.h"
#include "sim/reports/trace_events.h"

namespace photonsim {

namespace {

using Layout = JsonWriter::Layout;

constexpr int64_t kStepsPid = 1;

// One GPU's sending in one step.
struct GpuStep {
  uint32_t step = 0;
  Time first_injected;
  Time last_delivered;
  uint64_t transfers = 0;
};

// A port span as written: recorded, or several busy ones of a step merged.
struct WrittenSpan {
  PortSpan span;
  uint64_t merged = 1;
  bool several_peers = false;
};

// Consecutive busy spans of one step become one; dark spans stay apart.
// Spans are in time order, so the merged ones never overlap.
template <class Emit>
void aggregate(const std::vector<PortSpan>& spans, Emit emit) {
  WrittenSpan current;
  bool open = false;
  for (const PortSpan& s : spans) {
    if (open && s.activity == PortActivity::busy && current.span.activity == PortActivity::busy &&
        current.span.step == s.step) {
      current.span.end = std::max(current.span.end, s.end);
      current.several_peers = current.several_peers || current.span.peer != s.peer;
      ++current.merged;
      continue;
    }
    if (open) emit(current);
    current = WrittenSpan{s, 1, false};
    open = true;
  }
  if (open) emit(current);
}

size_t aggregated_count(const std::vector<PortSpan>& spans) {
  size_t n = 0;
  aggregate(spans, [&](const WrittenSpan&) { ++n; });
  return n;
}

// What the size bound keeps.
struct Selection {
  bool aggregate = false;
  size_t port_gpus = 0;     // GPUs 0 .. port_gpus-1 get their port tracks
  size_t process_gpus = 0;  // GPUs 0 .. process_gpus-1 get a process at all
  std::string note;
};

struct Counts {
  size_t steps = 0;            // the steps process
  std::vector<size_t> base;    // per GPU: its process, send and wait tracks
  std::vector<size_t> ports;   // per GPU: its port tracks, every span
  std::vector<size_t> merged;  // per GPU: its port tracks, aggregated
  size_t recorded_port_spans = 0;
};

size_t sum(const std::vector<size_t>& v, size_t n) {
  size_t s = 0;
  for (size_t i = 0; i < n && i < v.size(); ++i) s += v[i];
  return s;
}

Selection select(const Counts& c, size_t limit) {
  const size_t gpus = c.base.size();
  Selection s;
  s.port_gpus = s.process_gpus = gpus;
  const size_t base = c.steps + sum(c.base, gpus);
  const size_t whole = base + sum(c.ports, gpus);
  if (whole <= limit) {
    s.note = "none: all " + std::to_string(c.recorded_port_spans) + " recorded port spans are written";
    return s;
  }
  s.aggregate = true;
  const size_t merged = sum(c.merged, gpus);
  s.note = "port spans aggregated: the whole trace would have " + std::to_string(whole) +
           " events, over the limit of " + std::to_string(limit) +
           ", so each port's busy spans within one step are merged into one span from the first busy begin to the "
           "last busy end (args.aggregated: how many were merged)";
  if (base + merged > limit) {
    size_t total = base, kept = 0;
    if (base <= limit) {
      while (kept < gpus && total + c.merged[kept] <= limit) total += c.merged[kept++];
      s.port_gpus = kept;
      s.note += "; still over the limit, so only the ports of the first " + std::to_string(kept) + " of " +
                std::to_string(gpus) + " GPUs are written (every GPU keeps its send and wait tracks)";
    } else {
      total = c.steps;
      while (kept < gpus && total + c.base[kept] + c.merged[kept] <= limit) {
        total += c.base[kept] + c.merged[kept];
        ++kept;
      }
      s.port_gpus = s.process_gpus = kept;
      s.note += "; still over the limit, so only the first " + std::to_string(kept) + " of " + std::to_string(gpus) +
                " GPUs are written (their processes whole; the other GPUs are left out)";
    }
  }
  if (c.steps > limit) {
    s.note +=
        "; the steps track alone has " + std::to_string(c.steps) + " events, over the limit, and is written whole";
  }
  return s;
}

// Per GPU, its sending in each step it sends in, in step order.
std::vector<std::vector<GpuStep>> gpu_steps(const Timeline& timeline, size_t gpus, size_t steps) {
  std::vector<std::vector<GpuStep>> out(gpus);
  for (const TransferSpan& t : timeline.transfers) {
    if (t.src >= gpus || t.step >= steps) {
      throw std::logic_error("trace: transfer " + std::to_string(t.src) + "->" + std::to_string(t.dst) + " of step " +
                             std::to_string(t.step) + " is outside the run");
    }
    std::vector<GpuStep>& v = out[t.src];
    if (v.empty() || v.back().step != t.step) {
      v.push_back(GpuStep{t.step, t.injected, t.delivered, 1});
      continue;
    }
    v.back().first_injected = std::min(v.back().first_injected, t.injected);
    v.back().last_delivered = std::max(v.back().last_delivered, t.delivered);
    ++v.back().transfers;
  }
  return out;
}

// The barrier that ends step k: the next step's begin, or the run's end.
Time barrier_after(const RunResult& result, size_t k) {
  return k + 1 < result.steps.size() ? result.steps[k + 1].begin : result.completion;
}

std::vector<size_t> step_lanes(const RunResult& result, size_t& count) {
  std::vector<std::pair<Time, Time>> spans;
  for (const StepResult& s : result.steps) spans.emplace_back(s.begin, s.end);
  return lanes(spans, count);
}

// The steps process: thread ids 1 .. lanes.
void write_steps(TraceEvents& events, const RunResult& result) {
  size_t count = 0;
  const std::vector<size_t> lane = step_lanes(result, count);
  events.name("process_name", kStepsPid, 1, "steps");
  events.sort_index("process_sort_index", kStepsPid, 1, 0);
  for (size_t l = 0; l < count; ++l) {
    events.name("thread_name", kStepsPid, 1 + static_cast<int64_t>(l), lane_name("steps", l));
    events.sort_index("thread_sort_index", kStepsPid, 1 + static_cast<int64_t>(l), static_cast<int64_t>(l));
  }
  for (size_t k = 0; k < result.steps.size(); ++k) {
    const StepResult& s = result.steps[k];
    const int64_t tid = 1 + static_cast<int64_t>(lane[k]);
    const std::string n = std::to_string(k);
    const auto step_arg = [&](JsonWriter& w) { w.field("step", static_cast<uint64_t>(k)); };
    events.span("step " + n, "step", kStepsPid, tid, s.begin, s.end, [&](JsonWriter& w) {
      step_arg(w);
      w.field("reconfiguration_ps", s.reconfiguration.picoseconds()).field("startup_ps", s.startup.picoseconds());
      w.field("bytes", s.bytes).field("transfers", s.transfers);
    });
    const Time dark_end = s.begin + s.reconfiguration;
    if (s.reconfiguration > Time::zero()) {
      events.span("reconfiguration " + n, "step", kStepsPid, tid, s.begin, dark_end, step_arg);
    }
    if (s.startup > Time::zero()) {
      events.span("start-up " + n, "step", kStepsPid, tid, dark_end, dark_end + s.startup, step_arg);
    }
  }
}

std::vector<size_t> send_lanes(const std::vector<GpuStep>& sends, size_t& count) {
  std::vector<std::pair<Time, Time>> spans;
  for (const GpuStep& g : sends) spans.emplace_back(g.first_injected, g.last_delivered);
  return lanes(spans, count);
}

size_t steps_events(const RunResult& result) {
  size_t count = 0;
  step_lanes(result, count);
  size_t n = 2 + 2 * count;
  for (const StepResult& s : result.steps) {
    n += 1 + (s.reconfiguration > Time::zero() ? 1 : 0) + (s.startup > Time::zero() ? 1 : 0);
  }
  return n;
}

struct Wait {
  uint32_t step;
  Time begin;
  Time end;
};

// A GPU's waits at the barriers, in step order. When steps overlap (dataflow)
// a wait that would overlap the one before is left out: there is no barrier
// to wait at then.
std::vector<Wait> waits(const RunResult& result, const std::vector<GpuStep>& sends) {
  std::vector<Wait> out;
  for (const GpuStep& g : sends) {
    const Time barrier = barrier_after(result, g.step);
    if (barrier <= g.last_delivered || (!out.empty() && out.back().end > g.last_delivered)) continue;
    out.push_back(Wait{g.step, g.last_delivered, barrier});
  }
  return out;
}

// The entries of fabric.failures that act on circuits (port, flap, switch,
// link): each on its own thread of process "failures", its span from `at`
// to its end or the run's, whichever is first.
std::vector<size_t> circuit_failures(const FabricSpec& fabric) {
  std::vector<size_t> out;
  for (size_t i = 0; i < fabric.failures.entries.size(); ++i) {
    const FailureKind k = fabric.failures.entries[i].kind;
    if (takes_circuits_down(k) || k == FailureKind::link) out.push_back(i);
  }
  return out;
}

size_t failures_events(const FabricSpec& fabric, const RunResult& result) {
  size_t n = 0;
  for (const size_t i : circuit_failures(fabric)) {
    n += 2 + (fabric.failures.entries[i].at < result.completion ? 1 : 0);
  }
  return n == 0 ? 0 : n + 2;
}

std::string failure_title(const Failure& f, size_t entry) {
  const std::string where = f.kind == FailureKind::optical_switch
                                ? "switch " + std::to_string(f.optical_switch)
                                : "GPU " + std::to_string(f.gpu) + " port " + std::to_string(f.port);
  return "failures[" + std::to_string(entry) + "] " + to_string(f.kind) + " " + where;
}

void write_failures(TraceEvents& events, const FabricSpec& fabric, const RunResult& result, int64_t pid,
                    int64_t& next_tid) {
  const std::vector<size_t> entries = circuit_failures(fabric);
  if (entries.empty()) return;
  events.name("process_name", pid, next_tid, "failures");
  events.sort_index("process_sort_index", pid, next_tid, static_cast<int64_t>(fabric.gpus) + 1);
  for (size_t t = 0; t < entries.size(); ++t) {
    const Failure& f = fabric.failures.entries[entries[t]];
    const int64_t tid = next_tid++;
    events.name("thread_name", pid, tid, failure_title(f, entries[t]));
    events.sort_index("thread_sort_index", pid, tid, static_cast<int64_t>(t));
    if (f.at >= result.completion) continue;
    const FailureCost* cost = nullptr;
    for (const FailureCost& c : result.failures) {
      if (c.entry == entries[t]) cost = &c;
    }
    events.span(f.kind == FailureKind::link ? "degraded" : "down", "failure", pid, tid, f.at,
                std::min(f.end(), result.completion), [&](JsonWriter& a) {
                  a.field("entry", static_cast<uint64_t>(entries[t]));
                  if (f.kind == FailureKind::link) {
                    a.field("bandwidth_bps", f.bandwidth.bps());
                  } else if (cost != nullptr) {
                    a.field("lost_packets", cost->lost_packets).field("lost_bytes", cost->lost_bytes);
                  }
                });
  }
}

}  // namespace

std::string trace_report(const RunResult& result, const Timeline* timeline, const FabricSpec& fabric,
                         const TraceOptions& options) {
  const size_t gpus = timeline != nullptr ? static_cast<size_t>(std::max(fabric.gpus, 0)) : 0;
  const std::vector<std::vector<GpuStep>> sends =
      timeline != nullptr ? gpu_steps(*timeline, gpus, result.steps.size()) : std::vector<std::vector<GpuStep>>{};

  Counts counts;
  // The failures process is kept whole, like the steps.
  counts.steps = steps_events(result) + failures_events(fabric, result);
  counts.base.assign(gpus, 6);  // process name and sort index, send and wait thread names and sort indexes
  counts.ports.assign(gpus, 0);
  counts.merged.assign(gpus, 0);
  for (size_t u = 0; u < gpus; ++u) {
    size_t send_threads = 0;
    send_lanes(sends[u], send_threads);
    counts.base[u] += 2 * (send_threads - 1) + sends[u].size() + waits(result, sends[u]).size();
  }
  if (timeline != nullptr) {
    const PortTimeline* previous = nullptr;
    for (const PortTimeline& p : timeline->ports) {
      if (p.gpu >= gpus || p.port >= static_cast<uint32_t>(fabric.ports) ||
          (previous != nullptr && std::pair(previous->gpu, previous->port) >= std::pair(p.gpu, p.port))) {
        throw std::logic_error("trace: port " + std::to_string(p.port) + " of GPU " + std::to_string(p.gpu) +
                               " is outside the fabric or out of (gpu, port) order");
      }
      previous = &p;
      counts.ports[p.gpu] += 2 + p.spans.size();
      counts.merged[p.gpu] += 2 + aggregated_count(p.spans);
      counts.recorded_port_spans += p.spans.size();
    }
  }
  Selection selection = select(counts, options.event_limit);
  if (timeline == nullptr) selection.note = "none: no packet run, so no port spans";

  JsonWriter w;
  w.begin_object().key("traceEvents").begin_array();
  TraceEvents events(w);
  write_steps(events, result);
  // Thread ids are unique across processes and never 0 (viewers that key
  // threads by tid alone still keep them apart): given in writing order.
  size_t step_threads = 0;
  step_lanes(result, step_threads);
  int64_t next_tid = 1 + static_cast<int64_t>(step_threads);
  size_t port_index = 0;
  size_t written_port_spans = 0;
  for (size_t u = 0; u < selection.process_gpus; ++u) {
    const int64_t pid = 2 + static_cast<int64_t>(u);
    size_t send_threads = 0;
    const std::vector<size_t> lane = send_lanes(sends[u], send_threads);
    const int64_t send = next_tid, wait = send + static_cast<int64_t>(send_threads);
    next_tid = wait + 1;
    events.name("process_name", pid, send, "GPU " + std::to_string(u));
    events.sort_index("process_sort_index", pid, send, static_cast<int64_t>(u) + 1);
    for (size_t l = 0; l < send_threads; ++l) {
      events.name("thread_name", pid, send + static_cast<int64_t>(l), lane_name("send", l));
      events.sort_index("thread_sort_index", pid, send + static_cast<int64_t>(l), static_cast<int64_t>(l));
    }
    events.name("thread_name", pid, wait, "wait");
    events.sort_index("thread_sort_index", pid, wait, static_cast<int64_t>(send_threads));
    for (size_t i = 0; i < sends[u].size(); ++i) {
      const GpuStep& g = sends[u][i];
      events.span("step " + std::to_string(g.step) + " send", "gpu", pid, send + static_cast<int64_t>(lane[i]),
                  g.first_injected, g.last_delivered, [&](JsonWriter& a) {
                    a.field("step", static_cast<uint64_t>(g.step)).field("transfers", g.transfers);
                  });
    }
    for (const Wait& gap : waits(result, sends[u])) {
      events.span("barrier wait", "gpu", pid, wait, gap.begin, gap.end,
                  [&](JsonWriter& a) { a.field("step", static_cast<uint64_t>(gap.step)); });
    }
    for (; port_index < timeline->ports.size() && timeline->ports[port_index].gpu == u; ++port_index) {
      if (u >= selection.port_gpus) continue;
      const PortTimeline& p = timeline->ports[port_index];
      const int64_t tid = next_tid++;
      events.name("thread_name", pid, tid, "port " + std::to_string(p.port));
      events.sort_index("thread_sort_index", pid, tid,
                        static_cast<int64_t>(send_threads) + 1 + static_cast<int64_t>(p.port));
      const auto write = [&](const WrittenSpan& ws) {
        const PortSpan& s = ws.span;
        ++written_port_spans;
        if (s.activity == PortActivity::dark) {
          events.span("dark", "port", pid, tid, s.begin, s.end, [&](JsonWriter& a) {
            a.field("step", static_cast<uint64_t>(s.step)).field("peer", static_cast<uint64_t>(s.peer));
          });
          return;
        }
        events.span(ws.several_peers ? "-> several" : "-> " + std::to_string(s.peer), "port", pid, tid, s.begin, s.end,
                    [&](JsonWriter& a) {
                      a.field("step", static_cast<uint64_t>(s.step));
                      if (!ws.several_peers) a.field("peer", static_cast<uint64_t>(s.peer));
                      if (selection.aggregate) a.field("aggregated", ws.merged);
                    });
      };
      if (selection.aggregate) {
        aggregate(p.spans, write);
      } else {
        for (const PortSpan& s : p.spans) write(WrittenSpan{s, 1, false});
      }
    }
  }
  write_failures(events, fabric, result, 2 + static_cast<int64_t>(gpus), next_tid);
  w.end_array();
  w.key("otherData").begin_object();
  w.field("photonsim_version", PHOTONSIM_VERSION);
  for (const auto& [key, value] : options.about) w.field(key, value);
  w.field("gpus", fabric.gpus).field("ports", fabric.ports).field("steps", static_cast<uint64_t>(result.steps.size()));
  w.field("completion_ps", result.completion.picoseconds()).field("reconfigurations", result.reconfigurations);
  w.field("time_units",
          "ts and dur are microseconds in whole nanoseconds (Perfetto's resolution): each span's begin and end "
          "are the simulator's integer picoseconds rounded down to the nanosecond; args *_ps are exact "
          "picoseconds");
  w.field("photonsim_tracks",
          timeline != nullptr
              ? std::string("process steps (per step: reconfiguration, start-up); per GPU u, process GPU u: send "
                            "(first injection to last delivery of its transfers per step), wait (last delivery to "
                            "the next barrier), port p (busy: -> peer; dark: reconfiguration)") +
                    (circuit_failures(fabric).empty()
                         ? ""
                         : "; process failures: one thread per port, flap, switch or link entry, down or degraded "
                           "from its at to its end or the run's")
              : "process steps alone: no packet run (fidelity analytical), so the steps' spans are the "
                "predicted ones and there are no GPU or port tracks");
  w.field("photonsim_aggregation", selection.note);
  w.field("photonsim_event_limit", static_cast<uint64_t>(options.event_limit));
  w.field("photonsim_events", static_cast<uint64_t>(events.count()));
  w.field("photonsim_port_spans_recorded", static_cast<uint64_t>(counts.recorded_port_spans));
  w.field("photonsim_port_spans_written", static_cast<uint64_t>(written_port_spans));
  w.field("photonsim_gpu_processes", static_cast<uint64_t>(selection.process_gpus));
  w.field("photonsim_gpus_with_ports", static_cast<uint64_t>(std::min(selection.port_gpus, selection.process_gpus)));
  w.end_object().end_object();
  return w.text();
}

}  // namespace photonsim
