#pragma once
// Contract: hears how a long computation that is not a simulation - a
// synthesis, a planner's search, a prediction over many steps - advances, so
// a user waiting on a 1024-GPU synthesis sees how far it is and about how
// long is left. progressed() names the stage in words ("FAST: decomposing
// the demand into permutations") and how much of it is done, 0 <= done <=
// total in one unit; a stage begins when the name changes. `total` is exact,
// or a bound: at_most where the stage may end early (a search that stops when
// nothing improves), at_least where it may run longer (a decomposition whose
// number of terms shows only as it goes). Callers report at a coarse grain (a step, a topology, a few
// thousand transfers); implementations must be cheap and must not throw. A
// null WorkProgress* means no one listens (report_work checks).
#include <string_view>

namespace photonsim {

enum class WorkTotal { exact, at_most, at_least };

struct WorkDone {
  std::string_view stage;
  double done = 0;
  double total = 1;
  WorkTotal kind = WorkTotal::exact;
};

class WorkProgress {
 public:
  virtual ~WorkProgress() = default;
  virtual void progressed(const WorkDone& work) = 0;
};

inline void report_work(WorkProgress* listener, const WorkDone& work) {
  if (listener != nullptr) listener->progressed(work);
}

}  // namespace photonsim
