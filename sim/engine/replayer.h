#pragma once
// Contract: executes a Schedule step by step on a packet-level Network built
// from the FabricSpec: global barrier after each step; if the step's circuits
// differ from those in place, they go dark for reconfig_delay; then the step
// pays step_overhead and injects its transfers. With fabric.sync = dataflow
// or fabric.reconfiguration = changed, DependencyRun replays it instead. Checks every configuration
// against the port limits and, at the end, that every byte injected was
// delivered. Throws Error for a schedule that does not fit the fabric (GPU
// count, ports, an unroutable transfer); a step that cannot finish despite
// those checks is a broken engine invariant (std::logic_error: exit 3).
#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/schedule.h"
#include "sim/engine/run_progress.h"
#include "sim/engine/run_result.h"
#include "sim/engine/network/timeline.h"

namespace photonsim {

class Replayer {
 public:
  Replayer(FabricSpec fabric, WorkloadSpec workload) : fabric_(std::move(fabric)), workload_(std::move(workload)) {}
  // `progress`, when given, hears the run advance (sim/engine/run_progress.h);
  // `timeline`, when given, receives what every port and transfer did;
  // `measure_barrier_wait` fills the steps' and the run's barrier_wait
  // (sync = barrier; it costs the schedule's block dependencies).
  RunResult replay(const Schedule& schedule, RunProgress* progress = nullptr, Timeline* timeline = nullptr,
                   bool measure_barrier_wait = false) const;
  // A lower bound on the events replay() fires: two per packet per hop, one
  // hop unless a transfer's path says more. Cheap: no routing.
  uint64_t minimum_events(const Schedule& schedule) const;

 private:
  FabricSpec fabric_;
  WorkloadSpec workload_;
};

}  // namespace photonsim
