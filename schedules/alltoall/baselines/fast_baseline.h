#pragma once
// Contract: `fast`, the all-to-all paper's FAST baseline (Lei et al. 2025: an
// all-to-all scheduler built on a Birkhoff-von Neumann decomposition). The
// demand matrix, in whole bytes, is padded to equal row and column sums M
// (slack on the diagonal first, the rest on dummy entries) and decomposed into
// weighted permutations whose weights sum to M: each term is a bottleneck
// (max-min) perfect matching on the remaining positive entries, weighted by
// its smallest entry, which is then subtracted (the search and its exact
// tie-breaking: bottleneck_matcher.h). A term's real pairs (no fixed
// points, no dummy bytes) travel on direct circuits; a pair split across
// terms travels in pieces. Terms are sorted by weight (heaviest first) and
// dealt to topologies k = fabric.ports at a time, one per optical switch, so
// one reconfiguration configures k permutations. Parameter `rounds`:
//   per_topology (default): the k permutations of a topology run at once, one
//     1-hop round per topology (each GPU drives its k ports together);
//   per_permutation: one 1-hop round per permutation.
// d = the number of topologies (one d only). Uniform demand gives exactly the
// n-1 offsets u -> u+delta, so it equals `pairwise`. Directed circuits only.
#include <string>
#include <vector>

#include "schedules/alltoall/joint_synthesizer.h"

namespace photonsim {

class FastBaseline : public JointSynthesizer {
 public:
  // One term of the decomposition: `weight` times the permutation matrix
  // row -> column_of[row]; real[row] of those bytes are demand (the rest is
  // padding). Fixed points (column_of[row] == row) carry no real bytes.
  struct Term {
    Bytes weight;
    std::vector<Node> column_of;
    std::vector<Bytes> real;
  };

  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  std::vector<AlltoallStrategy> strategies(const JointInput& input, std::optional<int> only) const override;

  // The padded decomposition of a row-major n x n demand (zero diagonal):
  // real bytes summed over the terms give back `demand` exactly, weights sum
  // to the largest row or column sum. Deterministic. `progress` hears the
  // terms found so far, of at least that many plus the most positive entries
  // left in one row or column.
  static std::vector<Term> decompose(const std::vector<Bytes>& demand, int gpus, WorkProgress* progress = nullptr);
};

}  // namespace photonsim
