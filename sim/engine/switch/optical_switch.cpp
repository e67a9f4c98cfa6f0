#include "sim/engine/switch/optical_switch.h"

#include <algorithm>

#include "sim/engine/switch/reconfiguration_models.h"

namespace photonsim {

OpticalSwitch::OpticalSwitch(const FabricSpec& fabric)
    : fabric_(fabric), model_(make_reconfiguration_model(fabric.reconfig_model)) {}

Time OpticalSwitch::dark_time(size_t ports_changed) const {
  return model_->dark_time(SwitchCommandSize{fabric_.reconfig_delay, ports_changed,
                                             static_cast<size_t>(fabric_.gpus) * static_cast<size_t>(fabric_.ports)});
}

Time OpticalSwitch::command(Network& network, std::span<const PortCommand> ports, uint32_t step, Time now) const {
  // A command of no ports (from no circuits to none) still takes its time:
  // the schedule says the fabric reconfigures.
  const Time delay = dark_time(ports.size());
  Time lit = now + delay;
  for (const PortCommand& p : ports) {
    lit = std::max(lit, network.command(p.slot, p.from, p.to, p.slot % static_cast<uint32_t>(fabric_.ports), step, now,
                                        delay, p.rate));
  }
  return lit;
}

}  // namespace photonsim
