#pragma once
// Contract: one way a synthesizer could place a collective, for `photonsim
// plan`: the planner's YAML name, for joint synthesis also the number of
// configured topologies d and the strategy's TotalCost in the paper's units,
// its summary (predicted time, where it reconfigures) and, when asked for
// (CandidateDetail::schedules), the predicted Schedule - or, when that planner
// cannot place it, why. Summaries alone keep `plan` at O(one schedule) memory
// and let joint synthesis rank every d from its outline without building it.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/time.h"
#include "schedules/model/schedule.h"

namespace photonsim {

enum class CandidateDetail { schedules, summaries };

struct CandidateSummary {
  Time predicted;
  int reconfigurations = 0;
  std::vector<std::pair<size_t, std::string>> reconfigure_before;  // step index, topology name

  static CandidateSummary of(const Schedule& schedule);
  bool operator==(const CandidateSummary&) const = default;
};

struct PlanCandidate {
  std::string planner;
  std::optional<CandidateSummary> summary;  // empty when `error` says why not
  std::optional<Schedule> schedule;         // with its Prediction; CandidateDetail::schedules only
  std::string error;
  std::optional<int> configurations;  // joint synthesis: the d of this strategy
  int64_t hop_sum = -1;               // joint synthesis: transmission in units of T; -1 unless contention-free
  std::string construction;           // joint synthesis: how the strategy was built

  bool ok() const { return summary.has_value(); }
  // "static", or "joint d=3" for joint synthesis.
  std::string label() const { return configurations ? planner + " d=" + std::to_string(*configurations) : planner; }
};

}  // namespace photonsim
