#pragma once
// Contract: the matching step of FAST's Birkhoff-von Neumann decomposition
// (fast_baseline.h) on a non-negative n x n matrix that only ever loses
// weight along permutations. next() gives the perfect matching on the
// positive entries whose smallest entry is largest, found as the reference
// algorithm finds it - binary search over the sorted distinct positive
// values, each threshold tried by completing the last feasible matching with
// Kuhn's augmenting paths, every row trying its columns clockwise (offset
// 1, 2, ..., n-1, then the diagonal) - so the same matching comes out, not
// just one of the same bottleneck. What makes it fast, without changing a
// single step of that search:
//   - the distinct values live in an order-statistics map updated per
//     subtraction instead of being sorted again per term;
//   - a threshold above some row's or column's largest entry has no perfect
//     matching, so it fails without a search (the reference's search would
//     fail too, and failed trials leave nothing behind);
//   - Kuhn's scan over a row is a word-wise scan of bitsets (entries >= the
//     threshold, and the columns seen in this search) in the same clockwise
//     order; a row's bits are kept for the last threshold it was asked at and
//     moved to a new one by toggling only the entries in between (its entries
//     sorted by value give them), and a subtraction fixes the one bit it changes;
//     the first trial of a search, at the smallest positive value, uses
//     separate bits (entry > 0), so it does not drag the rows' bits down and
//     back up again.
// Memory O(n^2). Not thread-safe (it reuses its buffers).
#include <cstdint>
#include <memory>
#include <vector>

namespace photonsim {

class BottleneckMatcher {
 public:
  // `entries` row-major n x n, non-negative, with equal row and column sums.
  BottleneckMatcher(int gpus, std::vector<int64_t> entries);
  ~BottleneckMatcher();
  BottleneckMatcher(const BottleneckMatcher&) = delete;
  BottleneckMatcher& operator=(const BottleneckMatcher&) = delete;

  int64_t entry(int row, int col) const {
    return entries_[static_cast<size_t>(row) * static_cast<size_t>(n_) + static_cast<size_t>(col)];
  }
  // The bottleneck perfect matching on the positive entries (row -> column),
  // warm-started from `column_of` (-1 = unmatched), as described above.
  // Throws Error when there is none (unequal line sums).
  std::vector<int> next(std::vector<int> column_of);
  // Subtracts `weight` from entry (row, column_of[row]) of every row; each
  // of those entries must be at least `weight`.
  void subtract(const std::vector<int>& column_of, int64_t weight);

 private:
  struct Slot {
    int64_t value;
    int col;
  };
  struct DistinctValues;  // positive value -> how many entries hold it, with ranks

  // Completes `column_of` into a perfect matching on entries >= threshold
  // (pairs below it dropped first); false when none exists.
  bool complete(std::vector<int>& column_of, int64_t threshold, bool smallest = false);
  bool augment(int row, std::vector<int>& column_of);
  // The first column in [from, end) set in `bits` (a row's eligible columns) and not yet seen; -1 if none.
  int next_column(const uint64_t* bits, int from, int end) const;
  const uint64_t* eligible(int row);
  // The largest threshold that can have a perfect matching: no row's or column's largest entry is below it.
  int64_t line_bound() const;
  void set_entry(int row, int col, int64_t value);

  int n_;
  size_t words_;                  // 64-bit words per row of a bitset
  std::vector<int64_t> entries_;  // row-major
  std::vector<int64_t> by_col_;   // column-major copy, for column maxima
  std::vector<Slot> by_value_;    // each row's entries, largest first
  std::vector<int64_t> col_max_;
  std::unique_ptr<DistinctValues> values_;

  // One threshold trial's state.
  int64_t threshold_ = 1;
  bool at_smallest_ = false;        // threshold_ is the smallest positive value: use positive_
  std::vector<uint64_t> positive_;  // per row: bit c = entry(row, c) > 0
  std::vector<int64_t> bits_at_;    // per row: the threshold its eligible bits are for
  std::vector<size_t> bits_cut_;    // per row: how many of its by_value_ slots are >= bits_at_
  std::vector<uint64_t> eligible_;  // per row: bit c = entry(row, c) >= bits_at_[row]
  std::vector<uint64_t> seen_;      // columns seen by the current augmenting search
  std::vector<int> row_of_;
};

}  // namespace photonsim
