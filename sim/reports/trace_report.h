#pragma once
// Contract: renders a run as a Chrome trace-event-format document, the JSON
// Object Format ({"traceEvents": [...], "otherData": {...}}) that Perfetto
// (ui.perfetto.dev, trace_processor) opens. Complete events ("ph": "X")
// carry "ts" and "dur" in microseconds of whole nanoseconds, Perfetto's
// resolution (begin and end rounded down: 1234567 ps -> 1.234); no
// displayTimeUnit, which older trace processors took for the unit of ts;
// metadata events ("ph": "M") name and order processes and threads.
//
// Layout: process "steps" (one thread: per step "step k", with nested
// "reconfiguration k" and "start-up k" when they last); per GPU u a process
// "GPU u" with threads "send" (per step, from its first transfer injected to
// its last delivered), "wait" (from that last delivery to the next barrier,
// when positive: "barrier wait") and "port p" (busy spans "-> v", dark spans
// "dark"); with fabric.failures entries that act on circuits (port, flap,
// switch, link) a process "failures", one thread per entry and its span
// ("down" or "degraded", from `at` to its end or the run's; args: entry and
// lost_packets/lost_bytes or bandwidth_bps), kept whole like the steps.
// Without a timeline (no packet run: --fidelity analytical) only the steps
// process is written and otherData says so.
//
// Size bound: when the whole trace would pass options.event_limit events,
// each port's busy spans in one step are merged into one (first begin to
// last end, args.aggregated = spans merged); if that is still too many, only
// the ports of the first GPUs that fit are kept (and, if even the send and
// wait tracks do not fit, only those GPUs' processes). otherData
// "photonsim_aggregation" says in a sentence what was merged or left out,
// with counts. The steps process is always whole. Output is a pure function
// of the inputs: the same run gives the same bytes.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "sim/engine/run_result.h"
#include "sim/engine/network/timeline.h"

namespace photonsim {

struct TraceOptions {
  size_t event_limit = 500'000;  // events in the whole document; the steps process is kept whole beyond it
  // Extra otherData strings, in this order (config, algorithm, fidelity, ...).
  std::vector<std::pair<std::string, std::string>> about;
};

// `timeline` nullptr: no packet run, the steps process alone.
std::string trace_report(const RunResult& result, const Timeline* timeline, const FabricSpec& fabric,
                         const TraceOptions& options = {});

}  // namespace photonsim
