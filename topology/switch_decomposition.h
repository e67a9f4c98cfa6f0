#pragma once
// Contract: splits a topology's circuits among k optical switches; switch i
// realises one (partial) permutation of the GPUs.
//  - Directed circuits (the all-to-all paper's k switches): every node must
//    send and receive at most k circuits. By König's edge-colouring theorem the
//    bipartite multigraph (out-copy u -> in-copy v per circuit) then splits
//    into k matchings; they are found as successive perfect matchings
//    (Hopcroft-Karp) of the graph padded to k-regular with dummy circuits,
//    which are dropped afterwards. Always succeeds when the degrees fit.
//  - Bidirectional circuits: each switch pairs ports, so the undirected
//    multigraph needs a proper k-edge-colouring, which may not exist even
//    when every degree is <= k (odd cycle with k = 2, Petersen with k = 3).
//    Bipartite graphs take König's route; others an exact backtracking search
//    bounded by a step limit. Impossibility and hitting the limit are both
//    Errors: a returned decomposition is always exact.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "topology/topology.h"

namespace photonsim {

class SwitchDecomposition {
 public:
  // Colour assignments the bidirectional search may try before giving up.
  static constexpr int64_t default_search_steps = 2'000'000;

  // Throws Error naming `switches` when it is < 1, the node whose degree
  // exceeds it, a bidirectional circuit without its reverse, or why no
  // bidirectional split exists (or that the search gave up).
  static SwitchDecomposition decompose(const Topology& topology, int switches, CircuitKind circuits,
                                       int64_t search_steps = default_search_steps);

  CircuitKind circuits() const { return circuits_; }
  int switches() const { return static_cast<int>(permutations_.size()); }
  int gpus() const { return gpus_; }
  // permutations()[i][u] = v: switch i connects u's port to v (directed:
  // u -> v; bidirectional: u <-> v, so permutations()[i][v] == u as well);
  // -1 leaves u's port on switch i unused.
  const std::vector<std::vector<int>>& permutations() const { return permutations_; }
  // Switch i's circuits as a topology named "<name>/switch<i>" (both directions
  // of each bidirectional circuit); it passes check_ports with ports = 1.
  Topology switch_topology(size_t i) const;

 private:
  SwitchDecomposition(std::string name, int gpus, CircuitKind circuits, std::vector<std::vector<int>> permutations)
      : name_(std::move(name)), gpus_(gpus), circuits_(circuits), permutations_(std::move(permutations)) {}

  std::string name_;
  int gpus_ = 0;
  CircuitKind circuits_ = CircuitKind::directed;
  std::vector<std::vector<int>> permutations_;
};

}  // namespace photonsim
