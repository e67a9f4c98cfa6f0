#pragma once
// Contract: one way a synthesizer could place a collective, for `photonsim
// plan`: the planner's YAML name, for joint synthesis also the number of
// configured topologies d and the strategy's TotalCost in the paper's units,
// and the predicted Schedule - or, when that planner cannot place it, why.
#include <optional>
#include <string>

#include "schedules/model/schedule.h"

namespace photonsim {

struct PlanCandidate {
  std::string planner;
  std::optional<Schedule> schedule;  // with its Prediction; empty when `error` says why not
  std::string error;
  std::optional<int> configurations;  // joint synthesis: the d of this strategy
  int64_t hop_sum = -1;               // joint synthesis: transmission in units of T; -1 unless contention-free
  std::string construction;           // joint synthesis: how the strategy was built

  bool ok() const { return schedule.has_value(); }
  // "static", or "joint d=3" for joint synthesis.
  std::string label() const { return configurations ? planner + " d=" + std::to_string(*configurations) : planner; }
};

}  // namespace photonsim
