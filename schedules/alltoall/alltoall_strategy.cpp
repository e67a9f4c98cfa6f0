#include "schedules/alltoall/alltoall_strategy.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "topology/shortest_path_router.h"

namespace photonsim {

int StrategyFlow::hops() const {
  if (routes.empty()) return implicit_hops;
  int longest = 0;
  for (const Route& r : routes) longest = std::max(longest, static_cast<int>(r.path.size()) - 1);
  return longest;
}

int StrategyRound::hops() const {
  int longest = 0;
  for (const StrategyFlow& f : flows) longest = std::max(longest, f.hops());
  return longest;
}

int64_t AlltoallStrategy::hop_sum() const {
  int64_t sum = 0;
  for (const StrategyRound& r : rounds) sum += r.hops();
  return sum;
}

StrategyFlow single_path_flow(std::vector<Node> path, Bytes bytes) {
  StrategyFlow flow;
  flow.src = path.front();
  flow.dst = path.back();
  flow.bytes = bytes;
  flow.routes.push_back(Route{std::move(path), bytes});
  return flow;
}

StrategyFlow implicit_path_flow(Node src, Node dst, int hops, Bytes bytes) {
  StrategyFlow flow;
  flow.src = src;
  flow.dst = dst;
  flow.bytes = bytes;
  flow.implicit_hops = hops;
  return flow;
}

bool contention_free(const StrategyRound& round, const Topology& topology) {
  std::map<std::pair<Edge, size_t>, int> used;  // (circuit, hop index) -> routes on it
  std::optional<ShortestPathRouter> router;
  const auto fits = [&](const std::vector<Node>& path) {
    for (size_t i = 0; i + 1 < path.size(); ++i) {
      const Edge e{path[i], path[i + 1]};
      if (++used[{e, i}] > topology.multiplicity(e.first, e.second)) return false;
    }
    return true;
  };
  for (const StrategyFlow& f : round.flows) {
    if (f.routes.empty()) {
      if (!router) router.emplace(topology);
      if (!fits(router->path(f.src, f.dst))) return false;
    }
    for (const Route& r : f.routes) {
      if (!fits(r.path)) return false;
    }
  }
  return true;
}

}  // namespace photonsim
