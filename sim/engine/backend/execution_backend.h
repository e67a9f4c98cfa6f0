#pragma once
// Contract: how a schedule is executed on a fabric, one backend per fidelity
// (photonsim run --fidelity): the packet-level engine, the same engine with
// one packet per chunk, or the analytical replay (every step at its
// predicted time). Every verb, sweep point and task graph executes through
// this interface; backend_for() picks one by its contract name. A task graph
// always has its prediction (the analytical backend's execute_graph) and,
// when the backend simulates, its simulated iteration.
#include <memory>

#include "core/spec/fabric_spec.h"
#include "core/spec/task_graph.h"
#include "core/work_progress.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/schedule.h"
#include "sim/engine/fidelity.h"
#include "sim/engine/run_progress.h"
#include "sim/engine/run_result.h"
#include "sim/engine/network/timeline.h"
#include "sim/engine/task_graph_execution.h"

namespace photonsim {

class ExecutionBackend {
 public:
  virtual ~ExecutionBackend() = default;
  virtual Fidelity fidelity() const = 0;
  // Whether packets run (false: times come from the schedule's prediction).
  virtual bool simulates() const = 0;
  // The fabric the engine runs for `fabric` (chunk: one packet per chunk).
  virtual FabricSpec engine_fabric(const FabricSpec& fabric) const { return fabric; }
  // Runs `schedule` on `fabric`; `timeline`, when given, receives what every
  // port and transfer did (nothing for a backend that does not simulate).
  // `measure_barrier_wait`: fill the steps' and the run's barrier wait (the
  // execution columns of the reports).
  virtual RunResult execute(const Schedule& schedule, const FabricSpec& fabric, const WorkloadSpec& workload,
                            RunProgress* progress, Timeline* timeline, bool measure_barrier_wait) const = 0;
  // One iteration of `graph` on `fabric` (engine_fabric already applied: the
  // nodes' schedules were made for it), packets cut by workload.chunk;
  // `progress` hears the nodes end, `timeline` what every port did.
  virtual GraphResult execute_graph(const TaskGraph& graph, std::vector<GraphNodeWork> work, const FabricSpec& fabric,
                                    const WorkloadSpec& workload, WorkProgress* progress, Timeline* timeline) const = 0;
};

std::unique_ptr<ExecutionBackend> backend_for(Fidelity fidelity);

}  // namespace photonsim
