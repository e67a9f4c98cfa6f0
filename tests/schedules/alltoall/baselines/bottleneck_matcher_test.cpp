// BottleneckMatcher against the reference it replaces: sort the distinct
// values every time, binary search them, try every threshold with Kuhn's
// augmenting paths over plain entries. The matchings (not just their
// bottleneck values) must agree step by step through a whole decomposition.
#include "schedules/alltoall/baselines/bottleneck_matcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/error.h"

namespace photonsim {
namespace {

class ReferenceMatcher {
 public:
  ReferenceMatcher(int n, const std::vector<int64_t>& entries) : n_(n), entries_(entries) {}

  bool complete(std::vector<int>& column_of, int64_t threshold) {
    threshold_ = threshold;
    row_of_.assign(static_cast<size_t>(n_), -1);
    for (int row = 0; row < n_; ++row) {
      int& col = column_of[static_cast<size_t>(row)];
      if (col >= 0 && entry(row, col) < threshold) col = -1;
      if (col >= 0) row_of_[static_cast<size_t>(col)] = row;
    }
    seen_.assign(static_cast<size_t>(n_), 0);
    for (int row = 0; row < n_; ++row) {
      if (column_of[static_cast<size_t>(row)] >= 0) continue;
      ++stamp_;
      if (!augment(row, column_of)) return false;
    }
    return true;
  }

 private:
  int64_t entry(int row, int col) const { return entries_[static_cast<size_t>(row * n_ + col)]; }

  bool augment(int row, std::vector<int>& column_of) {
    for (int offset = 1; offset <= n_; ++offset) {
      const int col = (row + offset) % n_;
      if (entry(row, col) < threshold_ || seen_[static_cast<size_t>(col)] == stamp_) continue;
      seen_[static_cast<size_t>(col)] = stamp_;
      const int holder = row_of_[static_cast<size_t>(col)];
      if (holder < 0 || augment(holder, column_of)) {
        row_of_[static_cast<size_t>(col)] = row;
        column_of[static_cast<size_t>(row)] = col;
        return true;
      }
    }
    return false;
  }

  int n_;
  const std::vector<int64_t>& entries_;
  int64_t threshold_ = 1;
  std::vector<int> row_of_;
  std::vector<uint64_t> seen_;
  uint64_t stamp_ = 0;
};

std::vector<int> reference_bottleneck(int n, const std::vector<int64_t>& entries, std::vector<int> column_of) {
  std::vector<int64_t> values;
  for (int64_t v : entries) {
    if (v > 0) values.push_back(v);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  ReferenceMatcher matcher(n, entries);
  std::vector<int> best = column_of;
  EXPECT_TRUE(matcher.complete(best, values.front()));
  size_t lo = 0, hi = values.size() - 1;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    std::vector<int> trial = best;
    if (matcher.complete(trial, values[mid])) {
      lo = mid;
      best = std::move(trial);
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

// A random doubly stochastic-like matrix: a sum of weighted random
// permutations (equal line sums), `terms` of them, values up to `top`.
std::vector<int64_t> random_balanced(int n, int terms, int64_t top, std::mt19937_64& rng) {
  std::vector<int64_t> m(static_cast<size_t>(n * n), 0);
  std::vector<int> perm(static_cast<size_t>(n));
  for (int t = 0; t < terms; ++t) {
    for (int i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    const auto w = static_cast<int64_t>(rng() % static_cast<uint64_t>(top)) + 1;
    for (int i = 0; i < n; ++i) m[static_cast<size_t>(i * n + perm[static_cast<size_t>(i)])] += w;
  }
  return m;
}

TEST(BottleneckMatcher, FollowsTheReferenceSearchThroughAWholeDecomposition) {
  std::mt19937_64 rng(7);
  for (int n : {2, 3, 5, 8, 17, 64, 70}) {
    for (int64_t top : {int64_t{3}, int64_t{1000}, int64_t{1} << 40}) {
      std::vector<int64_t> entries = random_balanced(n, n + 3, top, rng);
      BottleneckMatcher matcher(n, entries);
      std::vector<int> mine(static_cast<size_t>(n), -1), theirs(static_cast<size_t>(n), -1);
      int64_t left = 0;
      for (int c = 0; c < n; ++c) left += entries[static_cast<size_t>(c)];
      int terms = 0;
      while (left > 0) {
        theirs = reference_bottleneck(n, entries, std::move(theirs));
        mine = matcher.next(std::move(mine));
        ASSERT_EQ(mine, theirs) << "n=" << n << " top=" << top << " term " << terms;
        int64_t weight = left;
        for (int row = 0; row < n; ++row) {
          const int64_t e = entries[static_cast<size_t>(row * n + theirs[static_cast<size_t>(row)])];
          ASSERT_EQ(matcher.entry(row, theirs[static_cast<size_t>(row)]), e);
          weight = std::min(weight, e);
        }
        for (int row = 0; row < n; ++row)
          entries[static_cast<size_t>(row * n + theirs[static_cast<size_t>(row)])] -= weight;
        matcher.subtract(mine, weight);
        left -= weight;
        ++terms;
      }
      EXPECT_THROW(matcher.next(mine), Error);  // nothing left to match
    }
  }
}

TEST(BottleneckMatcher, RejectsUnequalLineSumsAndRaisedEntries) {
  // Row 0 has nothing positive: no perfect matching on the positive entries.
  BottleneckMatcher lopsided(2, {0, 0, 3, 1});
  EXPECT_THROW(lopsided.next({-1, -1}), Error);
  BottleneckMatcher matcher(2, {0, 2, 2, 0});
  EXPECT_EQ(matcher.next({-1, -1}), (std::vector<int>{1, 0}));
  EXPECT_THROW(matcher.subtract({1, 0}, -1), Error);
  EXPECT_THROW(BottleneckMatcher(2, {1, 2, 3}), Error);
}

}  // namespace
}  // namespace photonsim
