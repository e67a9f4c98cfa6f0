#include "schedules/alltoall/alltoall_strategy.h"

#include <algorithm>
#include <map>
#include <utility>

namespace photonsim {

int StrategyFlow::hops() const {
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

bool contention_free(const StrategyRound& round, const Topology& topology) {
  std::map<std::pair<Edge, size_t>, int> used;  // (circuit, hop index) -> routes on it
  for (const StrategyFlow& f : round.flows) {
    for (const Route& r : f.routes) {
      for (size_t i = 0; i + 1 < r.path.size(); ++i) {
        const Edge e{r.path[i], r.path[i + 1]};
        if (++used[{e, i}] > topology.multiplicity(e.first, e.second)) return false;
      }
    }
  }
  return true;
}

}  // namespace photonsim
