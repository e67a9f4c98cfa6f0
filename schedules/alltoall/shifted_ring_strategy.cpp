#include "schedules/alltoall/shifted_ring_strategy.h"

#include <map>
#include <utility>

namespace photonsim {

std::string shifted_ring_name(int shift) { return "shifted_ring(" + std::to_string(shift) + ")"; }

Topology shifted_ring_topology(int shift, const std::vector<Node>& gpu_of) {
  const size_t n = gpu_of.size();
  std::vector<Edge> edges;
  edges.reserve(n);
  for (size_t j = 0; j < n; ++j) edges.push_back({gpu_of[j], gpu_of[(j + static_cast<size_t>(shift)) % n]});
  return Topology(shifted_ring_name(shift), static_cast<int>(n), std::move(edges));
}

AlltoallStrategy shifted_ring_strategy(const RingShiftSearch& search, int configurations,
                                       const std::vector<Node>& gpu_of, const std::vector<Bytes>& demand,
                                       const std::string& construction) {
  const int n = search.gpus();
  const auto un = static_cast<size_t>(n);
  const std::vector<int>& shifts = search.shifts(configurations);
  AlltoallStrategy strategy;
  strategy.construction = construction;
  for (int s : shifts) strategy.topologies.push_back(shifted_ring_topology(s, gpu_of));
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
      const Node src = gpu_of[static_cast<size_t>(j)];
      const Node dst = gpu_of[static_cast<size_t>((j + hops * s) % n)];
      const Bytes bytes = demand[src * un + dst];
      if (bytes.count() > 0) round.flows.push_back(implicit_path_flow(src, dst, hops, bytes));
    }
    strategy.rounds.push_back(std::move(round));
  }
  return strategy;
}

}  // namespace photonsim
