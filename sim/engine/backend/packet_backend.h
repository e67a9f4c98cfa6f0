#pragma once
// Contract: fidelity packet - the packet-level engine (run_schedule) with
// fabric.packet as configured.
#include "sim/engine/backend/execution_backend.h"

namespace photonsim {

class PacketBackend : public ExecutionBackend {
 public:
  Fidelity fidelity() const override { return Fidelity::packet; }
  bool simulates() const override { return true; }
  RunResult execute(const Schedule& schedule, const FabricSpec& fabric, const WorkloadSpec& workload,
                    RunProgress* progress, Timeline* timeline, bool measure_barrier_wait) const override;
  GraphResult execute_graph(const TaskGraph& graph, std::vector<GraphNodeWork> work, const FabricSpec& fabric,
                            const WorkloadSpec& workload, WorkProgress* progress, Timeline* timeline) const override;
};

}  // namespace photonsim
