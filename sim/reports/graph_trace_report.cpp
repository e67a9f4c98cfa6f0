#include "sim/reports/graph_trace_report.h"

#include <algorithm>

#include "core/version.h"
#include "sim/reports/json_writer.h"
#include "sim/reports/trace_events.h"

namespace photonsim {

namespace {

constexpr int64_t kGraphPid = 1;
constexpr int64_t kCriticalTid = 1;

// Per GPU: the nodes that used it, in the graph's order.
std::vector<std::vector<uint32_t>> nodes_by_gpu(const TaskGraph& graph, size_t gpus) {
  std::vector<std::vector<uint32_t>> by_gpu(gpus);
  for (uint32_t v = 0; v < graph.nodes().size(); ++v) {
    for (int g : TaskGraph::gpus_of(graph.nodes()[v])) by_gpu[static_cast<size_t>(g)].push_back(v);
  }
  return by_gpu;
}

// The node spans one GPU's tracks hold: compute, communication (+ setup),
// waits. Counted before writing, for the size bound.
size_t node_events(const TaskGraph& graph, const GraphResult& result, const std::vector<uint32_t>& nodes) {
  size_t n = 8;  // process name and sort index; three thread names and sort indexes
  for (uint32_t v : nodes) {
    const GraphNodeResult& r = result.nodes[v];
    n += 1;
    if (runs_off_network(graph.nodes()[v].kind)) continue;
    if (r.lit > r.acquired) ++n;
    if (r.acquired > r.released) ++n;
    if (r.start > std::max(r.released, r.acquired)) ++n;
  }
  return n;
}

}  // namespace

std::string graph_trace_report(const TaskGraph& graph, const GraphResult& result, const Timeline& timeline,
                               const FabricSpec& fabric, const TraceOptions& options) {
  const size_t gpus = static_cast<size_t>(std::max(fabric.gpus, 0));
  const auto by_gpu = nodes_by_gpu(graph, gpus);
  std::vector<size_t> port_events(gpus, 0);
  size_t recorded_port_spans = 0;
  for (const PortTimeline& p : timeline.ports) {
    port_events[p.gpu] += 2 + p.spans.size();
    recorded_port_spans += p.spans.size();
  }
  size_t budget = 4 + result.critical_path.size();
  for (size_t u = 0; u < gpus; ++u) budget += node_events(graph, result, by_gpu[u]);
  size_t port_gpus = 0;
  while (port_gpus < gpus && budget + port_events[port_gpus] <= options.event_limit) budget += port_events[port_gpus++];
  const std::string note = port_gpus == gpus
                               ? "none: all " + std::to_string(recorded_port_spans) + " recorded port spans are written"
                               : "port tracks left out past the limit of " + std::to_string(options.event_limit) +
                                     " events: only the ports of the first " + std::to_string(port_gpus) + " of " +
                                     std::to_string(gpus) +
                                     " GPUs are written (every GPU keeps its compute, communication and wait tracks)";

  JsonWriter w;
  w.begin_object().key("traceEvents").begin_array();
  TraceEvents events(w);
  const auto& nodes = graph.nodes();
  const auto node_args = [&](uint32_t v) {
    return [&, v](JsonWriter& a) {
      const GraphNodeResult& r = result.nodes[v];
      a.field("kind", to_string(nodes[v].kind)).field("released_ps", r.released.picoseconds());
      a.field("exposed_reconfiguration_ps", r.exposed_reconfiguration.picoseconds());
      a.field("reconfigurations", r.reconfigurations);
    };
  };
  events.name("process_name", kGraphPid, kCriticalTid, "graph");
  events.sort_index("process_sort_index", kGraphPid, kCriticalTid, 0);
  events.name("thread_name", kGraphPid, kCriticalTid, "critical path");
  events.sort_index("thread_sort_index", kGraphPid, kCriticalTid, 0);
  for (uint32_t v : result.critical_path) {
    events.span(nodes[v].name, "graph", kGraphPid, kCriticalTid, result.nodes[v].start, result.nodes[v].end,
                node_args(v));
  }
  // Thread ids unique across processes and never 0, in writing order.
  int64_t next_tid = kCriticalTid + 1;
  size_t port_index = 0, written_port_spans = 0;
  for (size_t u = 0; u < gpus; ++u) {
    const int64_t pid = 2 + static_cast<int64_t>(u);
    const int64_t compute = next_tid, communication = next_tid + 1, wait = next_tid + 2;
    next_tid += 3;
    events.name("process_name", pid, compute, "GPU " + std::to_string(u));
    events.sort_index("process_sort_index", pid, compute, static_cast<int64_t>(u) + 1);
    const char* names[] = {"compute", "communication", "wait"};
    for (int64_t t = 0; t < 3; ++t) {
      events.name("thread_name", pid, compute + t, names[t]);
      events.sort_index("thread_sort_index", pid, compute + t, t);
    }
    for (uint32_t v : by_gpu[u]) {
      const GraphNodeResult& r = result.nodes[v];
      if (nodes[v].kind == TaskKind::compute) {
        events.span(nodes[v].name, "compute", pid, compute, r.start, r.end, node_args(v));
        continue;
      }
      if (nodes[v].kind == TaskKind::delay) {  // host-side work: the GPU waits on it
        events.span(nodes[v].name, "host", pid, wait, r.start, r.end, node_args(v));
        continue;
      }
      if (r.lit > r.acquired) {
        events.span("setup " + nodes[v].name, "reconfiguration", pid, communication, r.acquired, r.lit,
                    [](JsonWriter&) {});
      }
      events.span(nodes[v].name, "communication", pid, communication, r.start, r.end, node_args(v));
      if (r.acquired > r.released) {
        events.span("waiting for ports", "wait", pid, wait, r.released, r.acquired,
                    [&](JsonWriter& a) { a.field("node", nodes[v].name); });
      }
      const Time ready = std::max(r.released, r.acquired);
      if (r.start > ready) {
        events.span("waiting for circuits", "wait", pid, wait, ready, r.start,
                    [&](JsonWriter& a) { a.field("node", nodes[v].name); });
      }
    }
    for (; port_index < timeline.ports.size() && timeline.ports[port_index].gpu == u; ++port_index) {
      if (u >= port_gpus) continue;
      const PortTimeline& p = timeline.ports[port_index];
      const int64_t tid = next_tid++;
      events.name("thread_name", pid, tid, "port " + std::to_string(p.port));
      events.sort_index("thread_sort_index", pid, tid, 3 + static_cast<int64_t>(p.port));
      for (const PortSpan& s : p.spans) {
        ++written_port_spans;
        const bool dark = s.activity == PortActivity::dark;
        events.span(dark ? "dark" : "-> " + std::to_string(s.peer), "port", pid, tid, s.begin, s.end,
                    [&](JsonWriter& a) {
                      a.field("step", static_cast<uint64_t>(s.step)).field("peer", static_cast<uint64_t>(s.peer));
                    });
      }
    }
  }
  w.end_array();
  w.key("otherData").begin_object();
  w.field("photonsim_version", PHOTONSIM_VERSION);
  for (const auto& [key, value] : options.about) w.field(key, value);
  w.field("gpus", fabric.gpus).field("ports", fabric.ports).field("nodes", static_cast<uint64_t>(nodes.size()));
  w.field("iteration_ps", result.iteration.picoseconds());
  w.field("time_units",
          "ts and dur are microseconds in whole nanoseconds (Perfetto's resolution): each span's begin and end "
          "are the simulator's integer picoseconds rounded down to the nanosecond; args *_ps are exact "
          "picoseconds");
  w.field("photonsim_tracks",
          "process graph: critical path (its nodes, start to end); per GPU u, process GPU u: compute (compute "
          "nodes), communication (communication nodes; setup: ports taken to first circuits lit), wait (waiting "
          "for ports; waiting for circuits), port p (busy: -> peer; dark: reconfiguration; steps numbered across "
          "the graph)");
  w.field("photonsim_aggregation", note);
  w.field("photonsim_event_limit", static_cast<uint64_t>(options.event_limit));
  w.field("photonsim_events", static_cast<uint64_t>(events.count()));
  w.field("photonsim_port_spans_recorded", static_cast<uint64_t>(recorded_port_spans));
  w.field("photonsim_port_spans_written", static_cast<uint64_t>(written_port_spans));
  w.field("photonsim_gpus_with_ports", static_cast<uint64_t>(port_gpus));
  w.end_object().end_object();
  return w.text();
}

}  // namespace photonsim
