#include "schedules/alltoall/baselines/static_ring_baseline.h"

#include <numeric>

#include "core/error.h"
#include "schedules/alltoall/ring_shift_search.h"
#include "schedules/alltoall/shifted_ring_strategy.h"

namespace photonsim {

AlgorithmInfo StaticRingBaseline::info() const {
  return {"static_ring",
          {Collective::alltoall},
          "joint",
          "the paper's Fig. 4: the directed n-cycle, flows grouped by hop count (d = 1)",
          {},
          "n >= 2",
          true};
}

bool StaticRingBaseline::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

std::vector<AlltoallStrategy> StaticRingBaseline::strategies(const JointInput& input, std::optional<int> only) const {
  if (input.fabric.circuits != CircuitKind::directed) {
    throw Error("algorithm 'static_ring' builds a directed ring: set fabric.circuits: directed");
  }
  if (only && *only != 1) return {};
  const RingShiftSearch rings(input.gpus(), 0);
  std::vector<Node> identity(static_cast<size_t>(input.gpus()));
  std::iota(identity.begin(), identity.end(), Node{0});
  return {shifted_ring_strategy(rings, 1, identity, input.demand, "static ring")};
}

}  // namespace photonsim
