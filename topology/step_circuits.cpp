#include "topology/step_circuits.h"

#include <algorithm>
#include <set>

namespace photonsim {

Topology circuits_for_pairs(std::string name, int gpus, const std::vector<Edge>& pairs, CircuitKind kind) {
  std::set<Edge> circuits;
  for (const Edge& e : pairs) {
    circuits.insert(e);
    if (kind == CircuitKind::bidirectional) circuits.insert({e.second, e.first});
  }
  return Topology(std::move(name), gpus, std::vector<Edge>(circuits.begin(), circuits.end()));
}

Topology parallel_circuits_for_pairs(std::string name, const FabricSpec& fabric, const std::vector<Edge>& pairs) {
  const bool bidirectional = fabric.circuits == CircuitKind::bidirectional;
  std::set<Edge> distinct;
  for (const Edge& e : pairs) {
    if (e.first == e.second) continue;
    distinct.insert(bidirectional ? Edge{std::min(e.first, e.second), std::max(e.first, e.second)} : e);
  }
  std::vector<int> used_out(static_cast<size_t>(fabric.gpus), 0);
  std::vector<int> used_in(static_cast<size_t>(fabric.gpus), 0);
  for (const Edge& e : distinct) {
    ++used_out[e.first];
    ++(bidirectional ? used_out : used_in)[e.second];
  }
  const std::vector<int>& used_at_second = bidirectional ? used_out : used_in;
  std::vector<Edge> circuits;
  for (const Edge& e : distinct) {
    const int copies =
        std::max(1, std::min(fabric.ports / used_out[e.first], fabric.ports / used_at_second[e.second]));
    for (int k = 0; k < copies; ++k) {
      circuits.push_back(e);
      if (bidirectional) circuits.push_back({e.second, e.first});
    }
  }
  return Topology(std::move(name), fabric.gpus, std::move(circuits));
}

}  // namespace photonsim
