#include "sim/engine/reconfiguration_failure_check.h"

#include <string>

#include "core/error.h"

namespace photonsim {

namespace {

// "0, 2 and 5", at most ten of them.
std::string reconfiguring_steps(const Schedule& schedule) {
  std::string out;
  size_t listed = 0, total = 0;
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    if (!schedule.reconfigures_before(s)) continue;
    ++total;
    if (listed < 10) {
      out += (out.empty() ? "" : ", ") + std::to_string(s);
      ++listed;
    }
  }
  if (total == 0) return "none of its steps reconfigures";
  if (total > listed) out += ", ... (" + std::to_string(total) + " in all)";
  return "the steps with a reconfiguration before them: " + out;
}

}  // namespace

void check_reconfiguration_failures(const Schedule& schedule, const FabricSpec& fabric, const CircuitPlan* plan) {
  const auto& entries = fabric.failures.entries;
  const size_t steps = schedule.steps().size();
  for (size_t i = 0; i < entries.size(); ++i) {
    const Failure& f = entries[i];
    if (f.kind != FailureKind::reconfiguration) continue;
    const auto k = static_cast<size_t>(f.step);
    const std::string name =
        "fabric.failures[" + std::to_string(i) + "] (reconfiguration, step " + std::to_string(f.step) + "): ";
    if (k >= steps) {
      throw Error(name + "the schedule has " + std::to_string(steps) + (steps == 1 ? " step" : " steps") +
                  (steps == 0 ? std::string() : " (0.." + std::to_string(steps - 1) + ")") + ", so there is no step " +
                  std::to_string(f.step) + " to slow the reconfiguration of");
    }
    if (!schedule.reconfigures_before(k)) {
      throw Error(name + "step " + std::to_string(f.step) +
                  " keeps its circuits (its configuration is the one in place), so no reconfiguration precedes it "
                  "to slow; " +
                  reconfiguring_steps(schedule));
    }
    if (plan != nullptr && plan->groups_before(k).empty()) {
      throw Error(name + "step " + std::to_string(f.step) +
                  "'s reconfiguration changes no port under fabric.reconfiguration: changed (from no circuits to "
                  "none), so nothing is dark for extra_delay to lengthen");
    }
  }
}

}  // namespace photonsim
