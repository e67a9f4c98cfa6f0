#pragma once
// Contract: fidelity analytical - no simulation: steps back to back at their
// predicted times (the synthesizer's own cost model), so measured =
// predicted; bytes and transfers counted from the schedule; no timeline. A
// task graph's nodes each take their predicted time under the graph's own
// rules (ports, circuits, setups and priorities: GraphTiming::analytical).
#include "sim/engine/backend/execution_backend.h"
#include "sim/engine/reconfiguration_failure_check.h"

namespace photonsim {

class AnalyticalBackend : public ExecutionBackend {
 public:
  Fidelity fidelity() const override { return Fidelity::analytical; }
  bool simulates() const override { return false; }
  RunResult execute(const Schedule& schedule, const FabricSpec& fabric, const WorkloadSpec&, RunProgress*, Timeline*,
                    bool) const override {
    check_reconfiguration_failures(schedule, fabric);
    return analytical_result(schedule, fabric.failures);
  }
  GraphResult execute_graph(const TaskGraph& graph, std::vector<GraphNodeWork> work, const FabricSpec& fabric,
                            const WorkloadSpec& workload, WorkProgress* progress, Timeline*) const override {
    return run_task_graph(fabric, Segmentation(workload.chunk, fabric.packet), graph, std::move(work), nullptr,
                          GraphTiming::analytical, progress);
  }
};

}  // namespace photonsim
