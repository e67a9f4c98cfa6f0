#pragma once
// Contract: hears how a run advances, for runs long enough that a user wants
// to know: its synthesis through WorkProgress::progressed (nothing by
// default), then its simulation. starting() comes once, before the first
// event, with a lower bound on the events the run will fire; advanced()
// after each step and every 2^20 events within one. The engine calls them
// from its loop, so implementations must be cheap and must not throw.
#include <cstddef>
#include <cstdint>

#include "core/work_progress.h"

namespace photonsim {

class RunProgress : public WorkProgress {
 public:
  void progressed(const WorkDone& /*work*/) override {}
  virtual void starting(uint64_t minimum_events, size_t steps) = 0;
  virtual void advanced(size_t step, size_t steps, uint64_t events) = 0;
};

}  // namespace photonsim
