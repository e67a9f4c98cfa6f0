#pragma once
// Contract: a task-graph run (a training iteration) as a Chrome trace-event
// document that ui.perfetto.dev opens, in the layout of trace_report: process
// "graph" with thread "critical path" (its nodes' spans, start to end); per
// GPU u a process "GPU u" with threads "compute" (its compute nodes),
// "communication" (its communication nodes from start to end, and "setup"
// from taking the ports to the first circuits lit), "wait" ("waiting for
// ports": released until the ports were free; "waiting for circuits":
// released until lit, when the setup was still going) and "port p" (busy
// "-> v" and "dark" spans, steps numbered across the graph). Size bound:
// every process's node tracks are written whole; port tracks GPU by GPU while
// the document stays within options.event_limit events, and otherData
// "photonsim_aggregation" says how many GPUs kept theirs. Pure function of
// its inputs.
#include <string>

#include "core/spec/fabric_spec.h"
#include "core/spec/task_graph.h"
#include "sim/engine/task_graph_execution.h"
#include "sim/engine/network/timeline.h"
#include "sim/reports/trace_report.h"

namespace photonsim {

std::string graph_trace_report(const TaskGraph& graph, const GraphResult& result, const Timeline& timeline,
                               const FabricSpec& fabric, const TraceOptions& options = {});

}  // namespace photonsim
