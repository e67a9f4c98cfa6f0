#pragma once
// Contract: how the Network's elements ask for their events on the driver's
// clock: each is an EventToken (kind, circuit or batch) that the one handler
// (the Network) dispatches back to the element concerned.
#include <cstdint>

#include "core/event_handler.h"
#include "core/event_list.h"
#include "core/time.h"
#include "sim/engine/network/event_token.h"

namespace photonsim {

class NetworkEvents {
 public:
  NetworkEvents(EventList& clock, EventHandler& handler) : clock_(&clock), handler_(&handler) {}

  void schedule(Time at, EventToken::Kind kind, uint64_t id, EventPriority priority) const {
    clock_->schedule(at, *handler_, EventToken(kind, id).raw(), priority);
  }

 private:
  EventList* clock_;
  EventHandler* handler_;
};

}  // namespace photonsim
