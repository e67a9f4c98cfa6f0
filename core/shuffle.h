#pragma once
// Contract: the one Fisher-Yates shuffle, driven by the portable Rng, so
// seeded constructions (degree-k ties, random derangements, Zipf ranks) give
// the same order on every platform (the std:: shuffles are
// implementation-defined). It draws rng.uniform(size), ..., rng.uniform(2).
#include <cstddef>
#include <utility>
#include <vector>

#include "core/rng.h"

namespace photonsim {

template <typename T>
void shuffle_with(std::vector<T>& items, Rng& rng) {
  for (size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<size_t>(rng.uniform(i));
    std::swap(items[i - 1], items[j]);
  }
}

}  // namespace photonsim
