#include "schedules/algorithms/broadcast_binomial.h"

namespace photonsim {

AlgorithmInfo BroadcastBinomial::info() const {
  return {"binomial",
          {Collective::broadcast},
          "every_step",
          "binomial-tree broadcast from workload.root in ceil(log2 n) steps"};
}

bool BroadcastBinomial::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

StepPattern BroadcastBinomial::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  const int root = input.workload.root;
  StepPattern pattern;
  pattern.blocks = 1;
  for (int span = 1; span < n; span *= 2) {
    std::vector<Transfer> step;
    for (int i = 0; i < span && i + span < n; ++i) {
      Transfer t;
      t.src = static_cast<Node>((root + i) % n);
      t.dst = static_cast<Node>((root + i + span) % n);
      t.bytes = input.workload.message;
      t.blocks = {0};
      step.push_back(std::move(t));
    }
    pattern.steps.push_back(std::move(step));
  }
  return pattern;
}

}  // namespace photonsim
