#include "topology/step_circuits.h"

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

}  // namespace photonsim
