#include "topology/congestion_dilation.h"

#include <algorithm>
#include <map>
#include <string>

#include "core/error.h"
#include "topology/shortest_path_router.h"

namespace photonsim {

Time CongestionDilation::cost(Time latency, Bandwidth bandwidth, Bytes w) const {
  if (!reachable) return Time::max();
  return latency * dilation + bandwidth.serialization(w * congestion);
}

CongestionDilation compute_congestion_dilation(const Topology& topology, const std::vector<Edge>& transfers) {
  const ShortestPathRouter router(topology);
  const auto n = static_cast<Node>(topology.gpus());
  CongestionDilation result;
  std::map<Edge, int> usage;
  for (size_t i = 0; i < transfers.size(); ++i) {
    const auto [src, dst] = transfers[i];
    for (Node v : {src, dst}) {
      if (v >= n) {
        throw Error("transfer " + std::to_string(i) + " (" + std::to_string(src) + "->" + std::to_string(dst) +
                    "): node " + std::to_string(v) + " is out of range for topology '" + topology.name() + "' with " +
                    std::to_string(n) + " GPUs");
      }
    }
    if (router.hops(src, dst) < 0) {
      // Algorithm 2 stops at the first unroutable pair and returns its penalty.
      CongestionDilation unreachable;
      unreachable.reachable = false;
      unreachable.first_unreachable = transfers[i];
      return unreachable;
    }
    const std::vector<Node> path = router.path(src, dst);
    result.dilation = std::max(result.dilation, static_cast<int>(path.size()) - 1);
    for (size_t h = 0; h + 1 < path.size(); ++h) ++usage[Edge{path[h], path[h + 1]}];
  }
  for (const auto& [edge, count] : usage) {
    const int multiplicity = topology.multiplicity(edge.first, edge.second);
    result.congestion = std::max(result.congestion, count);
    result.congestion_per_circuit = std::max(result.congestion_per_circuit, (count + multiplicity - 1) / multiplicity);
    result.edge_usage.emplace_back(edge, count);
  }
  return result;
}

}  // namespace photonsim
