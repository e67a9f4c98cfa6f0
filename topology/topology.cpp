#include "topology/topology.h"

#include <algorithm>

#include "core/error.h"
#include "core/spec/planning_failures.h"

namespace photonsim {

Topology::Topology(std::string name, int gpus, std::vector<Edge> edges)
    : name_(std::move(name)), gpus_(gpus), edges_(std::move(edges)) {
  for (const Edge& e : edges_) {
    if (e.first >= static_cast<Node>(gpus_) || e.second >= static_cast<Node>(gpus_)) {
      throw Error("topology '" + name_ + "': circuit " + std::to_string(e.first) + "->" + std::to_string(e.second) +
                  " names a GPU outside 0.." + std::to_string(gpus_ - 1));
    }
    if (e.first == e.second) {
      throw Error("topology '" + name_ + "': self-loop circuit at node " + std::to_string(e.first));
    }
  }
  std::sort(edges_.begin(), edges_.end());
}

int Topology::out_degree(Node u) const {
  auto lo = std::lower_bound(edges_.begin(), edges_.end(), Edge{u, 0});
  auto hi = std::lower_bound(edges_.begin(), edges_.end(), Edge{u + 1, 0});
  return static_cast<int>(hi - lo);
}

int Topology::in_degree(Node u) const {
  return static_cast<int>(std::count_if(edges_.begin(), edges_.end(), [u](const Edge& e) { return e.second == u; }));
}

bool Topology::one_circuit_out_of_every_gpu() const {
  if (edges_.size() != static_cast<size_t>(gpus_)) return false;
  for (size_t v = 0; v < edges_.size(); ++v) {
    if (edges_[v].first != static_cast<Node>(v)) return false;
  }
  return true;
}

int Topology::multiplicity(Node u, Node v) const {
  auto range = std::equal_range(edges_.begin(), edges_.end(), Edge{u, v});
  return static_cast<int>(range.second - range.first);
}

std::vector<uint32_t> Topology::out_offsets() const {
  std::vector<uint32_t> offsets(static_cast<size_t>(gpus_) + 1, 0);
  for (const Edge& e : edges_) ++offsets[e.first + 1];
  for (size_t u = 1; u < offsets.size(); ++u) offsets[u] += offsets[u - 1];
  return offsets;
}

void Topology::check_ports(const FabricSpec& fabric) const {
  std::vector<int> out(gpus_, 0), in(gpus_, 0);
  for (const Edge& e : edges_) {
    ++out[e.first];
    ++in[e.second];
  }
  const std::string prefix = "topology '" + name_ + "': ";
  for (int u = 0; u < gpus_; ++u) {
    if (fabric.circuits == CircuitKind::directed) {
      if (out[u] > fabric.ports || in[u] > fabric.ports) {
        throw Error(prefix + "node " + std::to_string(u) + " needs " + std::to_string(std::max(out[u], in[u])) +
                    " ports (out " + std::to_string(out[u]) + ", in " + std::to_string(in[u]) + ") but " +
                    ports_limit(fabric));
      }
    } else if (out[u] > fabric.ports) {
      throw Error(prefix + "node " + std::to_string(u) + " ends " + std::to_string(out[u]) +
                  " bidirectional circuits but " + ports_limit(fabric));
    }
  }
  if (fabric.circuits == CircuitKind::bidirectional) {
    for (const Edge& e : edges_) {
      if (multiplicity(e.first, e.second) != multiplicity(e.second, e.first)) {
        throw Error(prefix + "circuit " + std::to_string(e.first) + "->" + std::to_string(e.second) + " at node " +
                    std::to_string(e.first) + " has no reverse, but fabric.circuits is bidirectional");
      }
    }
  }
}

}  // namespace photonsim
