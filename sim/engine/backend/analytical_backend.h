#pragma once
// Contract: fidelity analytical - no simulation: steps back to back at their
// predicted times (the synthesizer's own cost model), so measured =
// predicted; bytes and transfers counted from the schedule; no timeline.
#include "sim/engine/backend/execution_backend.h"

namespace photonsim {

class AnalyticalBackend : public ExecutionBackend {
 public:
  Fidelity fidelity() const override { return Fidelity::analytical; }
  bool simulates() const override { return false; }
  RunResult execute(const Schedule& schedule, const FabricSpec&, const WorkloadSpec&, RunProgress*, Timeline*,
                    bool) const override {
    return analytical_result(schedule);
  }
};

}  // namespace photonsim
