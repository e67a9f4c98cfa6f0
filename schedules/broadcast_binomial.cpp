#include "schedules/broadcast_binomial.h"

namespace photonsim {

StepPattern BroadcastBinomial::pattern(const FabricSpec& fabric, const WorkloadSpec& workload) const {
  const int n = fabric.gpus;
  const int root = workload.root;
  StepPattern pattern;
  for (int span = 1; span < n; span *= 2) {
    std::vector<Transfer> step;
    for (int i = 0; i < span && i + span < n; ++i) {
      Transfer t;
      t.src = static_cast<Node>((root + i) % n);
      t.dst = static_cast<Node>((root + i + span) % n);
      t.bytes = workload.message;
      t.blocks = {0};
      step.push_back(std::move(t));
    }
    pattern.steps.push_back(std::move(step));
  }
  return pattern;
}

}  // namespace photonsim
