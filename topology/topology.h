#pragma once
// Contract: an immutable directed multigraph of circuits on n GPUs. Edges are
// kept sorted, so two topologies are equal exactly when they hold the same
// circuits (with multiplicity), whatever their names. A bidirectional circuit
// is stored as its two directed edges.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/spec/fabric_spec.h"

namespace photonsim {

using Node = uint32_t;
using Edge = std::pair<Node, Node>;

class Topology {
 public:
  Topology() = default;
  // Throws Error if an endpoint is out of range or an edge is a self-loop.
  Topology(std::string name, int gpus, std::vector<Edge> edges);

  const std::string& name() const { return name_; }
  int gpus() const { return gpus_; }
  const std::vector<Edge>& edges() const { return edges_; }
  bool empty() const { return edges_.empty(); }
  int out_degree(Node u) const;
  int in_degree(Node u) const;
  // Number of parallel circuits u -> v.
  int multiplicity(Node u, Node v) const;
  // True when every GPU has exactly one circuit out (k = 1 shifted rings):
  // then each pair has at most one simple path, the walk along them, and
  // edges()[u] is u's circuit.
  bool one_circuit_out_of_every_gpu() const;
  // CSR offsets: node u's out-circuits are edges()[offsets[u] .. offsets[u+1]).
  std::vector<uint32_t> out_offsets() const;

  // Throws Error naming the first node whose circuits exceed the fabric's
  // ports (directed: out- and in-degree <= ports; bidirectional: every edge
  // has its reverse and each node ends <= ports circuits).
  void check_ports(const FabricSpec& fabric) const;

  bool operator==(const Topology& o) const { return gpus_ == o.gpus_ && edges_ == o.edges_; }

 private:
  std::string name_;
  int gpus_ = 0;
  std::vector<Edge> edges_;
};

}  // namespace photonsim
