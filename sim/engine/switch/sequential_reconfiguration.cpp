#include "sim/engine/switch/sequential_reconfiguration.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace photonsim {

Time SequentialReconfiguration::dark_time(const SwitchCommand& command) const {
  const size_t switches = command.ports_per_gpu == 0 ? 1 : command.ports_per_gpu;
  std::vector<bool> touched(switches, false);
  int64_t distinct = 0;
  for (const PortCommand& port : command.ports) {
    const size_t optical_switch = port.slot % switches;
    if (touched[optical_switch]) continue;
    touched[optical_switch] = true;
    ++distinct;
  }
  return command.reconfig_delay * std::max<int64_t>(distinct, 1) +
         per_port_ * static_cast<int64_t>(command.ports_changed());
}

}  // namespace photonsim
