#include "schedules/alltoall/shifted_ring_strategy.h"

#include <map>
#include <utility>

namespace photonsim {

AlltoallStrategy shifted_ring_strategy(const RingShiftSearch& search, int configurations,
                                       const std::vector<Node>& gpu_of, const std::vector<Bytes>& demand,
                                       const std::string& construction) {
  const int n = search.gpus();
  const auto un = static_cast<size_t>(n);
  const std::vector<int>& shifts = search.shifts(configurations);
  AlltoallStrategy strategy;
  strategy.construction = construction;
  for (int s : shifts) {
    std::vector<Edge> edges;
    for (int j = 0; j < n; ++j)
      edges.push_back({gpu_of[static_cast<size_t>(j)], gpu_of[static_cast<size_t>((j + s) % n)]});
    strategy.topologies.emplace_back("shifted_ring(" + std::to_string(s) + ")", n, std::move(edges));
  }
  std::map<std::pair<int, int>, int> round_offset;  // (topology, hops) -> offset
  for (int delta = 1; delta < n; ++delta) {
    int topology = -1, hops = 0;
    for (size_t i = 0; i < shifts.size(); ++i) {
      const int h = search.hops(shifts[i], delta);
      if (h != 0 && (topology < 0 || h < hops)) {
        topology = static_cast<int>(i);
        hops = h;
      }
    }
    round_offset[{topology, hops}] = delta;
  }
  for (const auto& [key, delta] : round_offset) {
    const auto [topology, hops] = key;
    const int s = shifts[static_cast<size_t>(topology)];
    StrategyRound round;
    round.topology = topology;
    for (int j = 0; j < n; ++j) {
      std::vector<Node> path;
      for (int h = 0; h <= hops; ++h) path.push_back(gpu_of[static_cast<size_t>((j + h * s) % n)]);
      const Bytes bytes = demand[path.front() * un + path.back()];
      if (bytes.count() > 0) round.flows.push_back(single_path_flow(std::move(path), bytes));
    }
    strategy.rounds.push_back(std::move(round));
  }
  return strategy;
}

}  // namespace photonsim
