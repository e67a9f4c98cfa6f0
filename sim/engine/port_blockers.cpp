#include "sim/engine/port_blockers.h"

#include <algorithm>

#include "core/reachability.h"

namespace photonsim {

std::vector<std::vector<uint32_t>> port_blockers(const TaskGraph& graph,
                                                 const std::vector<std::vector<uint32_t>>& resources,
                                                 size_t resource_count) {
  const size_t n = graph.nodes().size();
  Reachability reach(graph.predecessors(), graph.topological_order());
  std::vector<std::vector<uint32_t>> users(resource_count);
  for (uint32_t v : graph.topological_order()) {
    for (uint32_t r : resources[v]) users[r].push_back(v);
  }
  std::vector<std::vector<uint32_t>> before(n);
  // low[j]: the first user of the run low..j-1 that user j waits for every one of.
  std::vector<size_t> low;
  for (const std::vector<uint32_t>& u : users) {
    low.assign(u.size(), 0);
    for (size_t j = 0; j < u.size(); ++j) {
      low[j] = j;
      bool run = true;
      for (size_t i = j; i-- > 0;) {
        if (!reach.reaches(u[i], u[j])) {
          run = false;
          continue;
        }
        before[u[j]].push_back(u[i]);
        if (run) low[j] = low[i];
        i = low[i];  // users low[i]..i-1 come before user i: covered by it
      }
    }
  }
  for (std::vector<uint32_t>& b : before) {
    std::sort(b.begin(), b.end());
    b.erase(std::unique(b.begin(), b.end()), b.end());
    b.shrink_to_fit();
  }
  return before;
}

}  // namespace photonsim
