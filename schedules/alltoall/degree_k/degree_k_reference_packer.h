#pragma once
// Contract: the all-to-all paper's reference-node schedule on one directed
// circulant u -> u + g (section 4.2). Node 0 reaches each destination offset
// along a shortest sequence of generators and every node u follows the same
// sequences from u, so a round is contention-free in the time-expanded graph
// exactly when no two of its sequences use the same generator at the same hop
// index (translation symmetry); hence at most one sequence per generator, k
// per round. pack() places the destinations first-fit: a destination joins
// the first open round where one of its shortest sequences fits (all
// orderings of every shortest generator multiset, or a seeded uniform sample
// of kSequenceCap when there are more), or, failing that, where
// arrange_sequences() can order the multisets of the round's members and its
// own anew; otherwise it opens a round. pack() keeps the cheapest of kPasses
// passes (longest first, which fills the holes of long rounds with short
// paths for free, and the paper's shortest first; with and without
// rearranging; destinations of equal length in a seeded random order) and
// stops early once a pass reaches hop_bound().
// Offsets not reachable from 0 (generators sharing a factor with n) have
// hops() == -1 and must not be packed (Error).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/rng.h"

namespace photonsim {

struct ReferenceRound {
  int hops = 0;                             // the longest sequence
  std::vector<std::vector<int>> sequences;  // generator indices, hop by hop
};

class DegreeKReferencePacker {
 public:
  static constexpr size_t kSequenceCap = 48;       // shortest sequences tried per destination
  static constexpr int kPasses = 8;                // greedy passes per pack()
  static constexpr int kMultisetCombinations = 8;  // multiset choices tried when rearranging a round
  static constexpr int kArrangeBudget = 256;       // search steps per arrange_sequences()

  // Throws Error unless the generators are distinct and in 1..n-1.
  DegreeKReferencePacker(int gpus, std::vector<int> generators);

  int gpus() const { return gpus_; }
  const std::vector<int>& generators() const { return generators_; }
  int hops(int offset) const { return distance_[static_cast<size_t>(offset)]; }
  // Where `sequence` leads from node 0.
  int offset_of(const std::vector<int>& sequence) const;

  // No packing of these offsets costs less: a round holds at most k
  // sequences, so the cheapest grouping of the sorted lengths takes them k at
  // a time from the longest.
  int64_t hop_bound(const std::vector<int>& offsets) const;
  // Rounds serving every offset once, fewer hops first.
  std::vector<ReferenceRound> pack(const std::vector<int>& offsets, Rng& rng) const;
  static int64_t hop_sum(const std::vector<ReferenceRound>& rounds);

 private:
  std::vector<std::vector<int>> shortest_sequences(int offset, Rng& rng) const;
  void collect_all(int offset, std::vector<int>& reversed, std::vector<std::vector<int>>& out) const;
  std::vector<int> sample(int offset, Rng& rng) const;

  int gpus_;
  std::vector<int> generators_;
  std::vector<int> distance_;    // per offset from node 0, -1 = unreachable
  std::vector<uint64_t> count_;  // shortest sequences per offset, saturating
};

}  // namespace photonsim
