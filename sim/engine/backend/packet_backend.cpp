#include "sim/engine/backend/packet_backend.h"

#include "sim/engine/schedule_execution.h"

namespace photonsim {

RunResult PacketBackend::execute(const Schedule& schedule, const FabricSpec& fabric, const WorkloadSpec& workload,
                                 RunProgress* progress, Timeline* timeline, bool measure_barrier_wait) const {
  return run_schedule(engine_fabric(fabric), workload, schedule, progress, timeline, measure_barrier_wait);
}

GraphResult PacketBackend::execute_graph(const TaskGraph& graph, std::vector<GraphNodeWork> work,
                                         const FabricSpec& fabric, const WorkloadSpec& workload, WorkProgress* progress,
                                         Timeline* timeline) const {
  const FabricSpec engine = engine_fabric(fabric);
  return run_task_graph(engine, Segmentation(workload.chunk, engine.packet), graph, std::move(work), timeline,
                        GraphTiming::packet, progress);
}

}  // namespace photonsim
