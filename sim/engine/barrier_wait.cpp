#include "sim/engine/barrier_wait.h"

#include <algorithm>
#include <utility>

namespace photonsim {

BarrierWait measure_barrier_wait(const TransferDependencies& deps, const std::vector<Time>& delivered,
                                 const std::vector<StepResult>& steps) {
  BarrierWait out;
  out.per_step.assign(steps.size(), Time::zero());
  std::vector<std::pair<Time, Time>> held;
  for (size_t s = 0; s < steps.size(); ++s) {
    const uint32_t first = deps.first_of_step(s), end = deps.first_of_step(s + 1);
    if (first == end) continue;
    Time earliest = steps[s].begin;
    for (uint32_t t = first; t < end; ++t) {
      Time ready = Time::zero();
      for (uint32_t w : deps.waits_for(t)) ready = std::max(ready, delivered[w]);
      earliest = std::min(earliest, ready);
    }
    if (earliest < steps[s].begin) {
      out.per_step[s] = steps[s].begin - earliest;
      held.emplace_back(earliest, steps[s].begin);
    }
  }
  std::sort(held.begin(), held.end());
  Time covered_to = Time::zero();
  for (const auto& [from, to] : held) {
    const Time start = std::max(from, covered_to);
    if (to > start) out.total += to - start;
    covered_to = std::max(covered_to, to);
  }
  return out;
}

}  // namespace photonsim
