#include "sim/engine/port_blockers.h"

#include <algorithm>

#include "core/reachability.h"

namespace photonsim {

std::vector<std::vector<uint32_t>> port_blockers(const TaskGraph& graph,
                                                 const std::vector<std::vector<uint32_t>>& resources,
                                                 size_t resource_count) {
  const size_t n = graph.nodes().size();
  Reachability reach(graph.predecessors(), graph.topological_order());
  // Only a node something waits for can be waited for: per resource, its
  // users in topological order, and of them those with a successor (the
  // candidates; a send nothing waits for is none, so sends that wait only
  // for compute cost nothing here however many share a port).
  std::vector<char> waited_for(n, 0);
  for (const std::vector<uint32_t>& preds : graph.predecessors()) {
    for (uint32_t p : preds) waited_for[p] = 1;
  }
  std::vector<std::vector<uint32_t>> users(resource_count);
  for (uint32_t v : graph.topological_order()) {
    for (uint32_t r : resources[v]) users[r].push_back(v);
  }
  std::vector<std::vector<uint32_t>> before(n);
  std::vector<uint32_t> candidates;
  // low[j]: the first candidate of the run low..j-1 that candidate j waits for every one of.
  std::vector<size_t> low;
  for (const std::vector<uint32_t>& u : users) {
    candidates.clear();
    low.clear();
    for (uint32_t v : u) {
      // Search the candidates before it, from the last.
      size_t first_of_run = candidates.size();
      bool run = true;
      for (size_t i = candidates.size(); i-- > 0;) {
        if (!reach.reaches(candidates[i], v)) {
          run = false;
          continue;
        }
        before[v].push_back(candidates[i]);
        if (run) first_of_run = low[i];
        i = low[i];  // candidates low[i]..i-1 come before candidate i: covered by it
      }
      if (waited_for[v] != 0) {
        candidates.push_back(v);
        low.push_back(first_of_run);
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
