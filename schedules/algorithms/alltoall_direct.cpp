#include "schedules/algorithms/alltoall_direct.h"

#include "core/spec/flow_sizes.h"

namespace photonsim {

AlgorithmInfo AlltoallDirect::info() const {
  return {"direct",
          {Collective::alltoall},
          "static",
          "all-to-all in n-1 pairwise rounds; on one topology, flows regrouped by hop count",
          {ParameterSpec::choice("rounds", {"pairwise", "one"},
                                 "pairwise: n-1 rounds (regrouped by hop count on one topology); one: every flow in "
                                 "a single step, each on its shortest path (ReTri's static shortest-path baseline)")}};
}

bool AlltoallDirect::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

StepPattern AlltoallDirect::pattern(const AlgorithmInput& input) const {
  const auto n = static_cast<Node>(input.gpus());
  StepPattern pattern;
  pattern.independent_steps = true;
  pattern.blocks = n * n;
  const std::vector<Bytes> sizes = alltoall_flow_sizes(input.workload, input.gpus(), input.seed);
  if (input.workload.distribution != FlowDistribution::uniform) pattern.block_sizes = sizes;
  const bool one_step = input.params.text("rounds") == "one";
  // One step is not to be regrouped: its flows run at once, as a single phase.
  pattern.independent_steps = !one_step;
  for (Node r = 1; r < n; ++r) {
    std::vector<Transfer> round;
    for (Node i = 0; i < n; ++i) {
      Transfer t;
      t.src = i;
      t.dst = (i + r) % n;
      t.bytes = sizes[i * n + t.dst];
      t.blocks = {i * n + t.dst};
      round.push_back(std::move(t));
    }
    if (one_step && !pattern.steps.empty()) {
      for (Transfer& t : round) pattern.steps.front().push_back(std::move(t));
    } else {
      pattern.steps.push_back(std::move(round));
    }
  }
  return pattern;
}

}  // namespace photonsim
