#include "sim/engine/switch/optical_switch.h"

#include <algorithm>

#include "sim/engine/switch/reconfiguration_models.h"

namespace photonsim {

OpticalSwitch::OpticalSwitch(const FabricSpec& fabric, DataPlane& network, size_t slots)
    : fabric_(fabric),
      model_(make_reconfiguration_model(fabric.reconfig_model, fabric.reconfig_params)),
      network_(network),
      ports_(slots) {
  network_.reset_circuits(slots);
  for (size_t i = 0; i < fabric.failures.entries.size(); ++i) {
    const Failure& f = fabric.failures.entries[i];
    if (f.kind == FailureKind::reconfiguration)
      slow_.push_back(SlowReconfiguration{i, static_cast<uint32_t>(f.step), f.extra_delay, 0, Time::zero()});
  }
}

Time OpticalSwitch::dark_time(std::span<const PortCommand> ports) const {
  return model_->dark_time(SwitchCommand{fabric_.reconfig_delay, ports, static_cast<size_t>(fabric_.ports),
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
  Time delay = dark_time(commands);
  for (SlowReconfiguration& slow : slow_) {
    if (slow.step != step) continue;
    delay += slow.extra_delay;
    ++slow.commands;
    slow.extra_dark += slow.extra_delay;
  }
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

NodeSetup OpticalSwitch::setup_for(const std::vector<int>& want, const std::vector<char>& sends,
                                   const std::vector<char>& receives,
                                   const std::vector<char>& transmitters_held) const {
  const auto ports = static_cast<uint32_t>(fabric_.ports);
  const auto slots = static_cast<uint32_t>(ports_.size());
  // Where each port leads as the setup darkens circuits one by one, in slot order.
  std::vector<int> leads(slots);
  for (uint32_t fs = 0; fs < slots; ++fs) leads[fs] = leads_to(fs);
  NodeSetup setup;
  const bool changed = fabric_.reconfiguration == ReconfigurationScope::changed;
  const bool directed = fabric_.circuits == CircuitKind::directed;
  std::vector<char> receiver_wanted(slots, 0);  // directed: v * ports + switch
  for (uint32_t fs = 0; fs < slots; ++fs) {
    if (want[fs] >= 0) receiver_wanted[static_cast<size_t>(want[fs]) * ports + fs % ports] = 1;
  }
  const auto own = [&](uint32_t fs) { return sends[fs / ports] != 0; };
  const auto stays = [&](uint32_t fs) { return !own(fs) || want[fs] < 0 || want[fs] == leads[fs]; };
  std::vector<char> changing(slots, 0);
  for (uint32_t fs = 0; fs < slots; ++fs) {
    const int cur = leads[fs];
    if (own(fs) && want[fs] >= 0) {
      if (cur != want[fs]) {
        changing[fs] = 1;
        setup.reconfigures = true;
      }
      continue;
    }
    const bool inbound = cur >= 0 && receives[static_cast<size_t>(cur)] != 0;
    if (cur < 0 || (!own(fs) && (!inbound || transmitters_held[fs / ports] != 0))) continue;
    if (changed && !inbound) continue;
    if (changed && directed && !receiver_wanted[static_cast<size_t>(cur) * ports + fs % ports]) continue;
    if (changed && !directed) {
      // The circuit's other half, cur -> this GPU: does it change?
      bool back_changes = false;
      for (uint32_t p = 0; p < ports; ++p) {
        const uint32_t other = static_cast<uint32_t>(cur) * ports + p;
        back_changes = back_changes || (leads[other] == static_cast<int>(fs / ports) && !stays(other));
      }
      if (!back_changes) continue;
    }
    setup.darkened.push_back(fs);
    leads[fs] = -1;
  }
  if (!changed && setup.reconfigures) {
    for (uint32_t fs = 0; fs < slots; ++fs) changing[fs] = want[fs] >= 0 ? 1 : 0;
  }
  for (uint32_t fs = 0; fs < slots; ++fs) {
    if (want[fs] < 0) continue;
    setup.wanted.push_back(fs);
    if (changing[fs] != 0) setup.commands.push_back({fs, fs / ports, want[fs], std::nullopt});
  }
  return setup;
}

Time OpticalSwitch::set_up(const NodeSetup& setup, uint32_t step, Time now) {
  for (uint32_t fs : setup.darkened) disconnect(fs, now);
  Time lit_at = now;
  size_t next_command = 0;
  for (uint32_t fs : setup.wanted) {
    if (next_command < setup.commands.size() && setup.commands[next_command].slot == fs) {
      ++next_command;
    } else if (commanded(fs)) {
      lit_at = std::max(lit_at, lights_at(fs));
    }
  }
  if (!setup.commands.empty()) lit_at = std::max(lit_at, command(setup.commands, step, now));
  return lit_at;
}

}  // namespace photonsim
