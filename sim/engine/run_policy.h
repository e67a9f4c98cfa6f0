#pragma once
// Contract: what executes on a RunDriver - a schedule's transfers released by
// the barrier or by their data (ScheduleExecution), a task graph's nodes
// given their GPUs' ports in turn (TaskGraphExecution) - hears the driver's
// events addressed to it: the timers it set (RunDriver::timer) and the
// deliveries of the flows it injected (RunDriver::inject). The driver owns
// the clock, the network and the switch; a policy only decides what to start
// and when to command circuits.
#include <cstdint>

#include "core/time.h"

namespace photonsim {

class RunPolicy {
 public:
  virtual ~RunPolicy() = default;
  // A timer it set fires; `token` is the one it gave (below 2^40).
  virtual void on_timer(Time now, uint64_t token) = 0;
  // Every byte of a flow it injected has arrived.
  virtual void on_flow_delivered(uint32_t flow, Time now) = 0;
};

}  // namespace photonsim
