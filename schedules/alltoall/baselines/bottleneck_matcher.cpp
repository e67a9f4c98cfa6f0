#include "schedules/alltoall/baselines/bottleneck_matcher.h"

#include <algorithm>
#include <bit>
#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
#include <functional>
#include <utility>

#include "core/error.h"

namespace photonsim {

struct BottleneckMatcher::DistinctValues {
  __gnu_pbds::tree<int64_t, int64_t, std::less<int64_t>, __gnu_pbds::rb_tree_tag,
                   __gnu_pbds::tree_order_statistics_node_update>
      count;

  void add(int64_t value) {
    if (value > 0) ++count[value];
  }
  void remove(int64_t value) {
    if (value <= 0) return;
    auto it = count.find(value);
    if (--it->second == 0) count.erase(it);
  }
  int64_t at_rank(size_t rank) const { return count.find_by_order(rank)->first; }
};

BottleneckMatcher::BottleneckMatcher(int gpus, std::vector<int64_t> entries)
    : n_(gpus),
      words_((static_cast<size_t>(gpus) + 63) / 64),
      entries_(std::move(entries)),
      values_(std::make_unique<DistinctValues>()) {
  const auto n = static_cast<size_t>(n_);
  if (entries_.size() != n * n) throw Error("fast: the matrix to decompose is not n x n");
  by_col_.resize(n * n);
  by_value_.resize(n * n);
  col_max_.assign(n, 0);
  for (size_t row = 0; row < n; ++row) {
    for (size_t col = 0; col < n; ++col) {
      const int64_t v = entries_[row * n + col];
      by_col_[col * n + row] = v;
      by_value_[row * n + col] = Slot{v, static_cast<int>(col)};
      col_max_[col] = std::max(col_max_[col], v);
      values_->add(v);
    }
    std::sort(by_value_.begin() + static_cast<std::ptrdiff_t>(row * n),
              by_value_.begin() + static_cast<std::ptrdiff_t>((row + 1) * n),
              [](const Slot& a, const Slot& b) { return a.value > b.value; });
  }
  bits_at_.assign(n, INT64_MAX);  // no entry reaches it: all bits clear
  bits_cut_.assign(n, 0);
  eligible_.assign(n * words_, 0);
  positive_.assign(n * words_, 0);
  for (size_t e = 0; e < n * n; ++e) {
    if (entries_[e] > 0) positive_[(e / n) * words_ + (e % n) / 64] |= uint64_t{1} << (e % n % 64);
  }
  seen_.assign(words_, 0);
}

BottleneckMatcher::~BottleneckMatcher() = default;

std::vector<int> BottleneckMatcher::next(std::vector<int> column_of) {
  const size_t distinct = values_->count.size();
  if (distinct == 0) throw Error("fast: BvN decomposition of an empty matrix");
  std::vector<int> best = std::move(column_of);
  // Equal row and column sums guarantee a perfect matching on the positive support.
  if (!complete(best, values_->at_rank(0), true))
    throw Error("fast: BvN decomposition found no perfect matching (padding bug)");
  const int64_t bound = line_bound();
  size_t lo = 0, hi = distinct - 1;  // values[lo] feasible
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    const int64_t threshold = values_->at_rank(mid);
    if (threshold > bound) {  // the search would fail, and a failed trial changes nothing
      hi = mid - 1;
      continue;
    }
    std::vector<int> trial = best;
    if (complete(trial, threshold)) {
      lo = mid;
      best = std::move(trial);
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

void BottleneckMatcher::subtract(const std::vector<int>& column_of, int64_t weight) {
  for (int row = 0; row < n_; ++row) {
    const int col = column_of[static_cast<size_t>(row)];
    set_entry(row, col, entry(row, col) - weight);
  }
}

bool BottleneckMatcher::complete(std::vector<int>& column_of, int64_t threshold, bool smallest) {
  threshold_ = threshold;
  at_smallest_ = smallest;
  row_of_.assign(static_cast<size_t>(n_), -1);
  for (int row = 0; row < n_; ++row) {
    int& col = column_of[static_cast<size_t>(row)];
    if (col >= 0 && entry(row, col) < threshold) col = -1;
    if (col >= 0) row_of_[static_cast<size_t>(col)] = row;
  }
  for (int row = 0; row < n_; ++row) {
    if (column_of[static_cast<size_t>(row)] >= 0) continue;
    std::fill(seen_.begin(), seen_.end(), 0);
    // Kuhn: a row that finds no augmenting path now never will at this threshold.
    if (!augment(row, column_of)) return false;
  }
  return true;
}

bool BottleneckMatcher::augment(int row, std::vector<int>& column_of) {
  const uint64_t* bits = eligible(row);
  // Clockwise: columns row+1 .. n-1, then 0 .. row (the diagonal last).
  for (const auto& [from, end] : {std::pair{row + 1, n_}, std::pair{0, row + 1}}) {
    for (int col = next_column(bits, from, end); col >= 0; col = next_column(bits, col + 1, end)) {
      seen_[static_cast<size_t>(col) >> 6] |= uint64_t{1} << (col & 63);
      const int holder = row_of_[static_cast<size_t>(col)];
      if (holder < 0 || augment(holder, column_of)) {
        row_of_[static_cast<size_t>(col)] = row;
        column_of[static_cast<size_t>(row)] = col;
        return true;
      }
    }
  }
  return false;
}

int BottleneckMatcher::next_column(const uint64_t* bits, int from, int end) const {
  if (from >= end) return -1;
  auto word = static_cast<size_t>(from) >> 6;
  const auto last = static_cast<size_t>(end - 1) >> 6;
  uint64_t open = bits[word] & ~seen_[word] & (~uint64_t{0} << (from & 63));
  while (open == 0) {
    if (++word > last) return -1;
    open = bits[word] & ~seen_[word];
  }
  const int col = static_cast<int>(word * 64) + std::countr_zero(open);
  return col < end ? col : -1;
}

const uint64_t* BottleneckMatcher::eligible(int row) {
  const auto r = static_cast<size_t>(row);
  if (at_smallest_) return positive_.data() + r * words_;
  uint64_t* bits = eligible_.data() + r * words_;
  if (bits_at_[r] == threshold_) return bits;
  const Slot* slots = by_value_.data() + r * static_cast<size_t>(n_);
  size_t cut = bits_cut_[r];
  const auto flip = [bits](int col) { bits[static_cast<size_t>(col) >> 6] ^= uint64_t{1} << (col & 63); };
  if (threshold_ < bits_at_[r]) {
    for (; cut < static_cast<size_t>(n_) && slots[cut].value >= threshold_; ++cut) flip(slots[cut].col);
  } else {
    for (; cut > 0 && slots[cut - 1].value < threshold_; --cut) flip(slots[cut - 1].col);
  }
  bits_at_[r] = threshold_;
  bits_cut_[r] = cut;
  return bits;
}

int64_t BottleneckMatcher::line_bound() const {
  const auto n = static_cast<size_t>(n_);
  int64_t bound = *std::min_element(col_max_.begin(), col_max_.end());
  for (size_t row = 0; row < n; ++row) bound = std::min(bound, by_value_[row * n].value);
  return bound;
}

void BottleneckMatcher::set_entry(int row, int col, int64_t value) {
  const auto n = static_cast<size_t>(n_);
  const auto r = static_cast<size_t>(row), c = static_cast<size_t>(col);
  const int64_t old = entries_[r * n + c];
  if (value == old) return;
  if (value > old || value < 0) throw Error("fast: BvN subtraction would raise or negate an entry");
  entries_[r * n + c] = value;
  by_col_[c * n + r] = value;
  values_->remove(old);
  values_->add(value);
  // The row's slot moves right past the entries still >= value (largest first).
  const auto first = by_value_.begin() + static_cast<std::ptrdiff_t>(r * n);
  const auto last = first + static_cast<std::ptrdiff_t>(n);
  auto slot = std::lower_bound(first, last, old, [](const Slot& s, int64_t v) { return s.value > v; });
  while (slot->col != col) ++slot;
  const auto after = std::lower_bound(slot + 1, last, value, [](const Slot& s, int64_t v) { return s.value >= v; });
  std::rotate(slot, slot + 1, after);
  *(after - 1) = Slot{value, col};
  if (value == 0) positive_[r * words_ + (c >> 6)] &= ~(uint64_t{1} << (c & 63));
  if (old >= bits_at_[r] && value < bits_at_[r]) {  // it leaves the row's eligible prefix
    eligible_[r * words_ + (c >> 6)] &= ~(uint64_t{1} << (c & 63));
    --bits_cut_[r];
  }
  if (old == col_max_[c]) {
    const auto column = by_col_.begin() + static_cast<std::ptrdiff_t>(c * n);
    col_max_[c] = *std::max_element(column, column + static_cast<std::ptrdiff_t>(n));
  }
}

}  // namespace photonsim
