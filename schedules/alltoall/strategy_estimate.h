#pragma once
// Contract: what predict_alpha_beta_congestion(strategy_schedule(s, input))
// gives for the strategy s an outline stands for - to the picosecond - and
// which steps reconfigure, computed from the outline in O(steps) without
// building s: the same chunk waves, the same rule for the first step (free
// when synthesis.topology equals the first topology) and the same per-step
// bounds (predict_alpha_beta_congestion_uniform_step). Topology names are
// looked up only when `with_names` is set (photonsim plan prints them).
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/time.h"
#include "schedules/alltoall/strategy_outline.h"
#include "schedules/alltoall/strategy_schedule.h"

namespace photonsim {

struct StrategyEstimate {
  Time predicted;
  int reconfigurations = 0;
  std::vector<std::pair<size_t, std::string>> reconfigure_before;  // step, topology name (with_names only)
};

StrategyEstimate estimate_strategy(const StrategyOutline& outline, const StrategyScheduleInput& input,
                                   bool with_names = false);

}  // namespace photonsim
