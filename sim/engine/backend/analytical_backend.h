#pragma once
// Contract: fidelity analytical - no simulation: steps back to back at their
// predicted times (the synthesizer's own cost model), so measured =
// predicted; bytes and transfers counted from the schedule; no timeline. A
// task graph's nodes each take their predicted time under the graph's own
// rules (ports, circuits, setups and priorities: GraphTiming::analytical).
#include <string>

#include "core/error.h"
#include "core/spec/planning_failures.h"
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
    refuse_lost_circuits(fabric);
    return analytical_result(schedule, fabric.failures);
  }
  GraphResult execute_graph(const TaskGraph& graph, std::vector<GraphNodeWork> work, const FabricSpec& fabric,
                            const WorkloadSpec& workload, WorkProgress* progress, Timeline*) const override {
    return run_task_graph(fabric, Segmentation(workload.chunk, fabric.packet), graph, std::move(work), nullptr,
                          GraphTiming::analytical, progress);
  }

 private:
  // Losses and degraded links need packets: the analytical model moves none (docs/model.md, "Lost circuits", L9).
  // A switch down at 0 that the plan left out carries no circuit: nothing to lose.
  static void refuse_lost_circuits(const FabricSpec& fabric) {
    const FailureSpec& failures = fabric.failures;
    const PlanningFailures planning = PlanningFailures::of(fabric);
    for (size_t i = 0; i < failures.entries.size(); ++i) {
      const FailureKind kind = failures.entries[i].kind;
      if (planning.leaves_out(i)) continue;
      if (kind == FailureKind::link) {
        throw Error("fabric.failures[" + std::to_string(i) +
                    "] (link): --fidelity analytical predicts the healthy fabric and moves no packets to slow: run "
                    "it at packet, packet_reference or chunk fidelity");
      }
      if (!takes_circuits_down(kind)) continue;
      throw Error("fabric.failures[" + std::to_string(i) + "] (" + to_string(kind) +
                  "): --fidelity analytical moves no packets to lose: run it at packet, packet_reference or chunk "
                  "fidelity");
    }
  }
};

}  // namespace photonsim
