#pragma once
// Contract: a group of translations of the node ids that maps a topology and
// a demand matrix onto themselves, used to shrink the max-concurrent-flow LP
// to one source. Node ids are read as row-major mixed-radix numbers with
// radices d_1..d_k (product n); the translation by s adds s's digits to a
// node's digits, each modulo its radix, so it maps node 0 to s and the group
// acts on the GPUs transitively and without fixed points. find() tries every
// ordered factorization of n, the cyclic group Z_n first, and returns the
// first whose unit translations map every circuit to a circuit with the same
// multiplicity and keep every off-diagonal demand: circulants (and rings,
// complete graphs) give Z_n, row-major tori Z_a x Z_b [x Z_c], hypercubes
// Z_2^k. A translation maps parallel circuits u -> v to the circuits
// u+s -> v+s keeping their rank among the copies (edges are sorted). Pure and
// deterministic.
#include <cstdint>
#include <optional>
#include <vector>

#include "topology/demand_matrix.h"
#include "topology/topology.h"

namespace photonsim {

class TranslationSymmetry {
 public:
  // nullopt when no factorization works (or the topology has no GPUs).
  static std::optional<TranslationSymmetry> find(const Topology& topology, const DemandMatrix& demand);

  const std::vector<int>& radices() const { return radices_; }
  // u + s and u - s, digit-wise.
  Node translate(Node u, Node s) const;
  Node subtract(Node u, Node s) const;
  // Index of the circuit that edges()[e] becomes under translation by s.
  uint32_t translate_edge(uint32_t e, Node s) const;

 private:
  TranslationSymmetry(const Topology& topology, std::vector<int> radices);
  // Circuits tail -> head as an index range into the sorted edges.
  std::pair<uint32_t, uint32_t> circuits(Node tail, Node head) const;
  // Translation by one in digit `digit` (a generator of the group).
  Node step(Node u, size_t digit) const;
  bool keeps(const DemandMatrix& demand, size_t digit) const;
  bool keeps_circuits(size_t digit) const;

  std::vector<int> radices_;
  std::vector<int> strides_;
  std::vector<Edge> edges_;
  std::vector<uint32_t> out_begin_;  // size n + 1
};

}  // namespace photonsim
