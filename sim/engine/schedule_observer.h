#pragma once
// Contract: a task graph hears when the schedule of one of its nodes
// (a ScheduleExecution) has ended: its last step delivered.
#include <cstdint>

#include "core/time.h"

namespace photonsim {

class ScheduleObserver {
 public:
  virtual ~ScheduleObserver() = default;
  virtual void on_schedule_done(uint32_t node, Time now) = 0;
};

}  // namespace photonsim
