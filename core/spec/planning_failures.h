#pragma once
// Contract: the failures known when planning (issue 55, item 3;
// docs/model.md, "Failures known when planning"), read from a FabricSpec:
//  - every `switch` entry of fabric.failures with at == 0, whatever its
//    `for`: a planner chooses every topology before the run, so a switch
//    down when the run starts is left out of the whole plan (using it once
//    it is back would need the plan to know when each step runs, which only
//    the run knows); an entry with at > 0 is the run's (Lost circuits).
//    Except when that would leave no switch: then only the entries without
//    `for` (down for good) are left out, the others kept in the plan
//    (`kept`; the run waits for them, Lost circuits L7), so that "no switch
//    left" means what the run's L8 means, every port down until the end;
//  - every `mzi` entry (an MZI failure has no `at`: it is there from the start;
//    the physical layer routes around it, topology/physical/physical_layer.h).
// planning_fabric() is the fabric every synthesizer and planner sees: its
// `ports` are the switches that survive (port p of every GPU is on switch p,
// so each GPU keeps one port per surviving switch), with bandwidth_scope gpu
// its bandwidth the surviving transmitters' share (fabric.bandwidth / ports
// per transmitter, as before), and without the switch entries it planned
// around or kept (so planning_fabric(planning_fabric(f)) == planning_fabric(f)) and
// with configured_ports set to fabric.ports (for messages); the
// engine places a circuit planned on port k on surviving switch k
// (sim/engine/switch/circuit_plan.h). A fabric with no such entry is its own
// planning fabric, unchanged. When no switch survives it throws Error
// "fabric.failures[i] (switch s, at 0): cannot complete: GPU 0 has no
// working port ...", naming the last entry that took a switch for good (the
// caller puts the entry's file:line in front: sim/app's
// located_failure_message).
#include <cstddef>
#include <string>
#include <vector>

#include "core/spec/fabric_spec.h"

namespace photonsim {

struct PlanningFailures {
  struct SwitchExclusion {
    size_t entry = 0;        // its index in fabric.failures
    int optical_switch = 0;  // 0 .. fabric.ports-1
  };

  int ports = 0;                          // fabric.ports
  std::vector<SwitchExclusion> switches;  // the `switch` entries at 0 left out, in the file's order
  std::vector<SwitchExclusion> kept;      // those at 0 kept in the plan (every switch down at 0), in order
  std::vector<int> surviving;             // the other switches, ascending (0..ports-1 when none failed)
  std::vector<size_t> mzis;               // the `mzi` entries, in the file's order

  static PlanningFailures of(const FabricSpec& fabric);

  // Whether any failure is known when planning (a switch at 0, an MZI).
  bool any() const { return !switches.empty() || !kept.empty() || !mzis.empty(); }
  // Whether fabric.failures[entry] is a switch the plan leaves out: it carries
  // no circuit of the run, so a run has nothing to lose or re-plan there.
  bool leaves_out(size_t entry) const {
    for (const SwitchExclusion& s : switches)
      if (s.entry == entry) return true;
    return false;
  }
  // "fabric.failures[2] (switch 1, at 0)", "fabric.failures[3] (mzi, server 0, row 4, col 7)".
  static std::string entry_name(const FabricSpec& fabric, size_t entry);
};

// The fabric the synthesizers and planners plan on (above). Throws Error when
// every switch failed at 0.
FabricSpec planning_fabric(const FabricSpec& fabric);

// The port limit as a message states it: "fabric.ports is 2", or on a
// planning fabric with switches taken away "fabric.ports less the switches
// failed at 0 is 1 (of 2)".
std::string ports_limit(const FabricSpec& fabric);

}  // namespace photonsim
