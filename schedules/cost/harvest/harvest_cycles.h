#pragma once
// Contract: a topology in which every GPU has exactly one circuit out and one
// in (a permutation: a union of directed cycles, as every k = 1 shifted ring,
// directed step matching and directed degree-1 expander is) as its cycles,
// so that hop counts are O(1) and a demand's loads follow from difference
// arrays over the cycles, in O(n) memory instead of an n x n hop table.
// Circuit u (edges()[u], since one leaves each GPU) has a slot: the circuits
// of one cycle hold consecutive slots in walking order.
#include <cstdint>
#include <optional>
#include <vector>

#include "topology/topology.h"

namespace photonsim {

class HarvestCycles {
 public:
  // nullopt unless every GPU has exactly one circuit out and one in.
  static std::optional<HarvestCycles> of(const Topology& topology);

  // Hops of the walk s -> t: -1 when t is on another cycle, 0 when s == t.
  int hops(Node s, Node t) const {
    if (cycle_[s] != cycle_[t]) return -1;
    const uint32_t length = length_[cycle_[s]];
    return static_cast<int>((slot_[t] + length - slot_[s]) % length);
  }
  uint32_t slot(Node u) const { return slot_[u]; }
  // First slot and length of u's cycle.
  uint32_t cycle_begin(Node u) const { return begin_[cycle_[u]]; }
  uint32_t cycle_length(Node u) const { return length_[cycle_[u]]; }
  size_t gpus() const { return slot_.size(); }
  // Cycles by index: slots begin(c) .. begin(c) + length(c) - 1.
  size_t cycles() const { return begin_.size(); }
  uint32_t begin(size_t c) const { return begin_[c]; }
  uint32_t length(size_t c) const { return length_[c]; }

 private:
  std::vector<uint32_t> cycle_;   // [u]
  std::vector<uint32_t> slot_;    // [u]
  std::vector<uint32_t> begin_;   // [cycle]
  std::vector<uint32_t> length_;  // [cycle]
};

}  // namespace photonsim
