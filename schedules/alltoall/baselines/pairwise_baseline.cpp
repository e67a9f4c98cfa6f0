#include "schedules/alltoall/baselines/pairwise_baseline.h"

#include "core/error.h"

namespace photonsim {

AlgorithmInfo PairwiseBaseline::info() const {
  return {"pairwise", {Collective::alltoall},
          "joint",    "the paper's Fig. 5: every flow on a direct circuit, k offsets per topology",
          {},         "n >= 2",
          true};
}

bool PairwiseBaseline::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

std::vector<AlltoallStrategy> PairwiseBaseline::strategies(const JointInput& input, std::optional<int> only) const {
  if (input.fabric.circuits != CircuitKind::directed) {
    throw Error("algorithm 'pairwise' builds directed circuits: set fabric.circuits: directed");
  }
  const int n = input.gpus();
  const int k = input.fabric.ports;
  const int d = (n - 1 + k - 1) / k;
  if (only && *only != d) return {};
  AlltoallStrategy strategy;
  strategy.construction = "pairwise direct, " + std::to_string(k) + " offset(s) per topology";
  for (int first = 1; first < n; first += k) {
    StrategyRound round;
    round.topology = strategy.configurations();
    std::vector<Edge> edges;
    std::string offsets;
    for (int delta = first; delta < first + k && delta < n; ++delta) {
      offsets += (offsets.empty() ? "" : ",") + std::to_string(delta);
      for (int u = 0; u < n; ++u) {
        const auto src = static_cast<Node>(u), dst = static_cast<Node>((u + delta) % n);
        edges.push_back({src, dst});
        const Bytes bytes = input.demand_at(src, dst);
        if (bytes.count() > 0) round.flows.push_back(single_path_flow({src, dst}, bytes));
      }
    }
    strategy.topologies.emplace_back("offsets(" + offsets + ")", n, std::move(edges));
    strategy.rounds.push_back(std::move(round));
  }
  return {strategy};
}

}  // namespace photonsim
