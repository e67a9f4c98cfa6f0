#pragma once
// Contract: hears each flow's last byte delivered, at that picosecond, from
// inside the data plane's event (so it may start flows or change circuits).
#include <cstdint>

#include "core/time.h"

namespace photonsim {

class FlowListener {
 public:
  virtual ~FlowListener() = default;
  virtual void on_flow_delivered(uint32_t flow, Time now) = 0;
};

}  // namespace photonsim
