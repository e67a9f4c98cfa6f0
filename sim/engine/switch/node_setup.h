#pragma once
// Contract: what a task-graph node's first circuits ask of the switch
// (OpticalSwitch::setup_for, then set_up): the circuits it does not want
// that go dark at once, the ports commanded to the circuits it wants, and
// every port it wants (a port already commanded toward its circuit by a node
// that ended before it lit is waited for, not commanded again).
#include <cstdint>
#include <vector>

#include "sim/engine/switch/port_command.h"

namespace photonsim {

struct NodeSetup {
  std::vector<uint32_t> darkened;     // slots, ascending
  std::vector<PortCommand> commands;  // one switch command
  std::vector<uint32_t> wanted;       // slots, ascending
  bool reconfigures = false;          // a wanted circuit differs from the one in place
};

}  // namespace photonsim
