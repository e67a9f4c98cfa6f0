#include "sim/engine/switch/optical_switch.h"

#include <algorithm>

#include "sim/engine/switch/reconfiguration_models.h"

namespace photonsim {

OpticalSwitch::OpticalSwitch(const FabricSpec& fabric, Network& network, size_t slots)
    : fabric_(fabric), model_(make_reconfiguration_model(fabric.reconfig_model)), network_(network), ports_(slots) {
  network_.reset_circuits(slots);
}

Time OpticalSwitch::dark_time(size_t ports_changed) const {
  return model_->dark_time(SwitchCommandSize{fabric_.reconfig_delay, ports_changed,
                                             static_cast<size_t>(fabric_.gpus) * static_cast<size_t>(fabric_.ports)});
}

int OpticalSwitch::leads_to(uint32_t slot) const {
  const Port& port = ports_.at(slot);
  return port.commanded ? port.target : port.lit_to;
}

void OpticalSwitch::record_dark(const Port& port, uint32_t slot, Time until) const {
  if (recorder_ == nullptr) return;
  const Node peer = port.target >= 0 ? static_cast<Node>(port.target) : port.from;
  recorder_->dark(port.from, port_number(slot), peer, port.step, port.dark_since, until);
}

void OpticalSwitch::connect(const PortCommand& command, Time now) {
  network_.light(command.slot, command.from, static_cast<Node>(command.to), port_number(command.slot),
                 command.rate.value_or(fabric_.bandwidth), now);
  Port& port = ports_.at(command.slot);
  port.from = command.from;
  port.lit_to = command.to;
  port.commanded = false;
}

void OpticalSwitch::disconnect(uint32_t slot, Time now) {
  network_.darken(slot, now);
  Port& port = ports_.at(slot);
  if (port.commanded) record_dark(port, slot, now);
  port.lit_to = -1;
  port.commanded = false;
}

Time OpticalSwitch::command(std::span<const PortCommand> commands, uint32_t step, Time now) {
  // A command of no ports (from no circuits to none) still takes its time:
  // the schedule says the fabric reconfigures.
  const Time delay = dark_time(commands.size());
  const Time lit = now + delay;
  for (const PortCommand& c : commands) {
    network_.darken(c.slot, now);
    Port& port = ports_.at(c.slot);
    if (!port.commanded) port.dark_since = now;  // else still dark from the earlier command
    port.from = c.from;
    port.lit_to = -1;
    port.commanded = true;
    port.target = c.to;
    port.rate = c.rate;
    port.step = step;
    port.lights_at = lit;
  }
  return lit;
}

void OpticalSwitch::settle(uint32_t slot, Time now) {
  Port& port = ports_.at(slot);
  if (!port.commanded || port.lights_at > now) return;
  port.commanded = false;
  record_dark(port, slot, port.lights_at);
  if (port.target < 0) return;
  port.lit_to = port.target;
  network_.light(slot, port.from, static_cast<Node>(port.target), port_number(slot),
                 port.rate.value_or(fabric_.bandwidth), now);
}

}  // namespace photonsim
