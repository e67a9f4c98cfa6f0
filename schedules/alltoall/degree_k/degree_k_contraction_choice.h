#pragma once
// Contract: after a contraction adds a topology, both degree-k families have
// two candidate schedules: the old rounds plus one 1-hop round of the
// contracted flows (`simple`), and every pair rescheduled on its best
// topology (`reassigned`). A candidate counts only when every topology keeps
// a round (`*_ok`). Returns the one with the smaller hop sum (ties:
// `simple`), or nullptr when neither counts or neither beats `current_hops`.
#include <cstdint>

namespace photonsim {

template <class Stage>
Stage* better_contraction(Stage& simple, bool simple_ok, Stage& reassigned, bool reassigned_ok, int64_t current_hops) {
  Stage* next = nullptr;
  if (reassigned_ok && (!simple_ok || reassigned.hop_sum < simple.hop_sum)) {
    next = &reassigned;
  } else if (simple_ok) {
    next = &simple;
  }
  return next != nullptr && next->hop_sum < current_hops ? next : nullptr;
}

}  // namespace photonsim
