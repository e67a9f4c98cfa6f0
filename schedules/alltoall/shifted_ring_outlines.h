#pragma once
// Contract: the outlines (strategy_outline.h) of shifted_ring_strategy over the
// identity labelling with `bytes` for every pair, for every d in 1..n-1 in
// order (or only `only`), named `construction(d)`. Each offset is one round of
// n flows; on its s-shifted ring a round of h hops loads every circuit with h
// flows. Per d this is O(n) values: each offset's (topology, hops) is carried
// over from d - 1 when the search's shift set only grew, so all of them take
// O(n^2 log n) time and O(n) memory beyond the search.
#include <functional>
#include <optional>
#include <string>

#include "core/units.h"
#include "schedules/alltoall/ring_shift_search.h"
#include "schedules/alltoall/strategy_outline.h"

namespace photonsim {

void for_each_shifted_ring_outline(const RingShiftSearch& search, Bytes bytes, std::optional<int> only,
                                   const std::function<std::string(int)>& construction,
                                   const std::function<void(StrategyOutline&&)>& visit);

}  // namespace photonsim
