#pragma once
// Contract: one slow reconfiguration as the OpticalSwitch applies it
// (fabric.failures, kind reconfiguration): its entry's index, and the switch
// commands it lengthened so far with the dark time it added (extra_delay
// per command issued for its step).
#include <cstddef>
#include <cstdint>

#include "core/time.h"

namespace photonsim {

struct SlowReconfiguration {
  size_t entry = 0;  // its index in fabric.failures
  uint32_t step = 0;
  Time extra_delay;
  uint64_t commands = 0;
  Time extra_dark;
};

}  // namespace photonsim
