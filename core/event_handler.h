#pragma once
// Contract: a component that the EventList calls back. `token` is whatever the
// component passed to EventList::schedule, so one component can multiplex
// several kinds of events without allocating closures.
#include <cstdint>

#include "core/time.h"

namespace photonsim {

class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void on_event(Time now, uint64_t token) = 0;
};

}  // namespace photonsim
