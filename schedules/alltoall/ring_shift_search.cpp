#include "schedules/alltoall/ring_shift_search.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "core/error.h"

namespace photonsim {

namespace {
constexpr int kUnreached = std::numeric_limits<int>::max();
}

RingShiftSearch::RingShiftSearch(int gpus, int local_search_limit) : n_(gpus) {
  if (gpus < 2 || gpus > 65535) {
    throw Error("ring shift search: gpus must be in 2..65535, got " + std::to_string(gpus));
  }
  const auto n = static_cast<size_t>(n_);
  table_.assign(n * n, 0);
  for (size_t s = 1; s < n; ++s) {
    size_t v = s;
    for (uint16_t h = 1; v != 0; ++h, v = (v + s) % n) table_[s * n + v] = h;
  }
  search(local_search_limit);
}

int RingShiftSearch::hops(int shift, int delta) const {
  return table_[static_cast<size_t>(shift) * static_cast<size_t>(n_) + static_cast<size_t>(delta)];
}

const std::vector<int>& RingShiftSearch::shifts(int configurations) const {
  if (configurations < 1 || configurations > n_ - 1) {
    throw Error("ring shift search: d must be in 1.." + std::to_string(n_ - 1) + ", got " +
                std::to_string(configurations));
  }
  return shifts_[static_cast<size_t>(configurations - 1)];
}

int64_t RingShiftSearch::hop_sum(int configurations) const {
  shifts(configurations);
  return sums_[static_cast<size_t>(configurations - 1)];
}

int64_t RingShiftSearch::evaluate(const std::vector<int>& shifts) const {
  int64_t sum = 0;
  for (int delta = 1; delta < n_; ++delta) {
    int best = kUnreached;
    for (int s : shifts) {
      const int h = hops(s, delta);
      if (h != 0) best = std::min(best, h);
    }
    sum += best;
  }
  return sum;
}

// Swap one shift (the base stays) for an unused one while that helps. Per
// offset the best and second-best hop counts make each trial O(n).
bool RingShiftSearch::improve_by_swaps(std::vector<int>& shifts, int64_t& sum) const {
  const auto n = static_cast<size_t>(n_);
  std::vector<char> used(n, 0);
  for (int s : shifts) used[static_cast<size_t>(s)] = 1;
  std::vector<int> best(n, kUnreached), second(n, kUnreached), owner(n, -1);
  for (size_t i = 0; i < shifts.size(); ++i) {
    for (size_t delta = 1; delta < n; ++delta) {
      const int h = hops(shifts[i], static_cast<int>(delta));
      if (h == 0) continue;
      if (h < best[delta]) {
        second[delta] = best[delta];
        best[delta] = h;
        owner[delta] = static_cast<int>(i);
      } else if (h < second[delta]) {
        second[delta] = h;
      }
    }
  }
  for (size_t i = 1; i < shifts.size(); ++i) {
    std::vector<int> without(n, kUnreached);
    bool finite = true;
    for (size_t delta = 1; delta < n; ++delta) {
      without[delta] = owner[delta] == static_cast<int>(i) ? second[delta] : best[delta];
    }
    for (size_t candidate = 1; candidate < n; ++candidate) {
      if (used[candidate]) continue;
      int64_t trial = 0;
      finite = true;
      for (size_t delta = 1; delta < n && trial < sum; ++delta) {
        const int h = hops(static_cast<int>(candidate), static_cast<int>(delta));
        const int v = std::min(without[delta], h == 0 ? kUnreached : h);
        if (v == kUnreached) {
          finite = false;
          break;
        }
        trial += v;
      }
      if (finite && trial < sum) {
        shifts[i] = static_cast<int>(candidate);
        sum = trial;
        return true;
      }
    }
  }
  return false;
}

void RingShiftSearch::search(int local_search_limit) {
  const auto n = static_cast<size_t>(n_);
  std::vector<int> current{1};
  std::vector<int> best(n, 0);
  for (size_t delta = 1; delta < n; ++delta) best[delta] = static_cast<int>(delta);
  int64_t sum = static_cast<int64_t>(n) * static_cast<int64_t>(n - 1) / 2;
  shifts_.push_back(current);
  sums_.push_back(sum);
  std::vector<char> used(n, 0);
  used[1] = 1;
  for (int d = 2; d <= n_ - 1; ++d) {
    // Saving of shift s: walk its multiples while they can still beat the best.
    const int worst = *std::max_element(best.begin() + 1, best.end());
    int chosen = -1;
    int64_t chosen_gain = -1;
    bool chosen_cycle = false;
    for (size_t s = n - 1; s >= 1; --s) {  // the (n-1)-shift first: it wins d = 2's ties
      if (used[s]) continue;
      int64_t gain = 0;
      size_t v = s;
      for (int h = 1; h < worst && v != 0; ++h, v = (v + s) % n) {
        if (best[v] > h) gain += best[v] - h;
      }
      const bool cycle = std::gcd(s, n) == 1;
      if (gain > chosen_gain || (gain == chosen_gain && cycle && !chosen_cycle)) {
        chosen = static_cast<int>(s);
        chosen_gain = gain;
        chosen_cycle = cycle;
      }
    }
    current.push_back(chosen);
    used[static_cast<size_t>(chosen)] = 1;
    sum -= chosen_gain;
    if (n_ <= local_search_limit) {
      while (improve_by_swaps(current, sum)) {
      }
      std::fill(used.begin(), used.end(), 0);
      for (int s : current) used[static_cast<size_t>(s)] = 1;
    }
    if (n_ <= local_search_limit) {
      for (size_t delta = 1; delta < n; ++delta) {
        int b = kUnreached;
        for (int s : current) {
          const int h = hops(s, static_cast<int>(delta));
          if (h != 0) b = std::min(b, h);
        }
        best[delta] = b;
      }
    } else {
      const auto s = static_cast<size_t>(chosen);
      size_t v = s;
      for (int h = 1; v != 0; ++h, v = (v + s) % n) best[v] = std::min(best[v], h);
    }
    shifts_.push_back(current);
    sums_.push_back(sum);
  }
}

}  // namespace photonsim
