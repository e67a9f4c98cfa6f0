#pragma once
// Contract: the all-to-all paper's degree-1 topology sequences (section 4.3)
// for every d = 1..n-1 at once. Topology i is the s_i-shifted ring over the
// sigma-sequence 0..n-1 (position v -> v + s_i mod n), s_1 = 1 is the base
// n-cycle. Offset delta is served on the topology with the fewest hops,
// h_i(delta) = min{h >= 1 : h * s_i = delta (mod n)} (ties: the earlier
// topology); each (topology, h) that serves an offset is one contention-free
// round of n flows, so hop_sum(d) = sum over offsets of that minimum.
// The search: d = 2 adds the (n-1)-shift (the paper's preference, and optimal:
// it meets Theorem 1); each further d adds the shift with the largest saving
// (ties: an n-cycle, then the larger shift) to the previous set, then, when
// n <= local_search_limit, swaps single shifts for unused ones while that
// lowers the hop sum (first improvement). Shifts need not be coprime to n: a
// shift of gcd g > 1 is g disjoint cycles, still one circuit per port.
#include <cstdint>
#include <vector>

namespace photonsim {

class RingShiftSearch {
 public:
  static constexpr int kDefaultLocalSearchLimit = 256;

  // Throws Error unless 2 <= gpus <= 65535.
  explicit RingShiftSearch(int gpus, int local_search_limit = kDefaultLocalSearchLimit);

  int gpus() const { return n_; }
  // d in 1..n-1; shifts in the order they are configured (base first).
  const std::vector<int>& shifts(int configurations) const;
  int64_t hop_sum(int configurations) const;
  // Hops from position 0 to position delta on the s-shifted ring; 0 when unreachable.
  int hops(int shift, int delta) const;

 private:
  void search(int local_search_limit);
  int64_t evaluate(const std::vector<int>& shifts) const;
  bool improve_by_swaps(std::vector<int>& shifts, int64_t& sum) const;

  int n_;
  std::vector<uint16_t> table_;  // table_[s * n + delta] = hops, 0 = unreachable
  std::vector<std::vector<int>> shifts_;
  std::vector<int64_t> sums_;
};

}  // namespace photonsim
