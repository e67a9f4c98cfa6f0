#include "schedules/synthesis/plan_candidate.h"

namespace photonsim {

CandidateSummary CandidateSummary::of(const Schedule& schedule) {
  CandidateSummary summary;
  summary.predicted = schedule.prediction().total();
  for (size_t i = 0; i < schedule.steps().size(); ++i) {
    if (!schedule.reconfigures_before(i)) continue;
    ++summary.reconfigurations;
    summary.reconfigure_before.emplace_back(
        i, schedule.topologies()[static_cast<size_t>(schedule.steps()[i].topology)].name());
  }
  return summary;
}

}  // namespace photonsim
