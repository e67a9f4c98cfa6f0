#include "schedules/alltoall/reconfiguration_bound.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"

namespace photonsim {

namespace {

// Least transmission for one topology that serves x destinations per source.
std::vector<int64_t> one_topology_costs(int destinations, int ports) {
  std::vector<int64_t> cost(static_cast<size_t>(destinations) + 1, 0);
  auto min_hops_for = [&](int64_t reach) {
    int64_t covered = 0, layer = 1;
    for (int h = 1;; ++h) {
      layer = std::min<int64_t>(layer * ports, destinations);
      covered = std::min<int64_t>(covered + layer, destinations);
      if (covered >= reach) return h;
    }
  };
  for (int x = 1; x <= destinations; ++x) {
    int64_t total = 0;
    const int rounds = (x + ports - 1) / ports;
    for (int j = 1; j <= rounds; ++j) total += min_hops_for(std::min<int64_t>(int64_t{j} * ports, x));
    cost[static_cast<size_t>(x)] = total;
  }
  return cost;
}

}  // namespace

int64_t transmission_lower_bound(int gpus, int ports, int configurations) {
  if (gpus < 2) throw Error("transmission bound: n (GPUs) must be >= 2, got " + std::to_string(gpus));
  if (ports < 1) throw Error("transmission bound: k (ports) must be >= 1, got " + std::to_string(ports));
  if (configurations < 1 || configurations > gpus - 1) {
    throw Error("transmission bound: d (configured topologies) must be in 1.." + std::to_string(gpus - 1) + " for " +
                std::to_string(gpus) + " GPUs, got " + std::to_string(configurations));
  }
  const int64_t n1 = gpus - 1;
  if (ports == 1) {
    const int64_t d = configurations, q = n1 / d, u = n1 % d;
    return d * q * (q + 1) / 2 + u * (q + 1);
  }
  // best[x] = least cost of serving x destinations with the topologies so far.
  const std::vector<int64_t> single = one_topology_costs(static_cast<int>(n1), ports);
  std::vector<int64_t> best = single;
  for (int t = 2; t <= configurations; ++t) {
    std::vector<int64_t> next(best.size(), std::numeric_limits<int64_t>::max());
    for (size_t x = 0; x < best.size(); ++x) {
      for (size_t y = 0; y <= x; ++y) next[x] = std::min(next[x], best[x - y] + single[y]);
    }
    best = std::move(next);
  }
  return best.back();
}

}  // namespace photonsim
