#include "sim/engine/backend/packet_backend.h"

#include "sim/engine/schedule_execution.h"

namespace photonsim {

RunResult PacketBackend::execute(const Schedule& schedule, const FabricSpec& fabric, const WorkloadSpec& workload,
                                 RunProgress* progress, Timeline* timeline, bool measure_barrier_wait) const {
  return run_schedule(engine_fabric(fabric), workload, schedule, progress, timeline, measure_barrier_wait);
}

}  // namespace photonsim
