#pragma once
// Contract: the fabric's control plane - the optical switches behind the
// GPUs' ports - as one type that the RunDriver owns and its policies drive, and
// the one holder of circuit state: for every port (slot: GPU * ports + port)
// what it leads to, whether it is lit, and the command it is dark for. It
// owns what the fabric spec says of the switches:
//  - how long a command keeps the ports it changes dark (fabric.reconfig_model,
//    a ReconfigurationModel over fabric.reconfig_delay);
//  - which ports a reconfiguration changes and which switch each circuit
//    takes (CircuitPlan, by fabric.reconfiguration's scope: all | changed);
//  - whether a task-graph node may set its circuits up before it is released
//    (fabric.preconfigure);
//  - which reconfigurations are slow (fabric.failures, kind reconfiguration):
//    every command issued for a slow step is dark its extra_delay longer than
//    the model says (docs/model.md "Failures"), and the switch counts them.
// command() re-aims ports: each goes dark at once and lights dark_time()
// later; a port commanded again while still dark lights dark_time() after the
// newer command, and the earlier target never lights (docs/model.md "What a
// run means", rule 3). The Network carries packets over the circuits the
// switch has lit and nothing else (Network::light / darken); the switch
// records each port's dark spans on the timeline. When to command is the
// run's: at a barrier, once a group's ports have drained, when a node takes
// its ports.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "sim/engine/network/data_plane.h"
#include "sim/engine/network/timeline_recorder.h"
#include "sim/engine/switch/node_setup.h"
#include "sim/engine/switch/port_command.h"
#include "sim/engine/switch/reconfiguration_model.h"
#include "sim/engine/switch/slow_reconfiguration.h"

namespace photonsim {

class OpticalSwitch {
 public:
  using PortCommand = photonsim::PortCommand;

  // `slots` ports of `network`, all dark. Throws Error for an unknown
  // fabric.reconfig_model.
  OpticalSwitch(const FabricSpec& fabric, DataPlane& network, size_t slots);

  ReconfigurationScope scope() const { return fabric_.reconfiguration; }
  bool preconfigures() const { return fabric_.preconfigure; }
  size_t slots() const { return ports_.size(); }
  // Records every port's dark spans (nullptr: none).
  void record_into(TimelineRecorder* recorder) { recorder_ = recorder; }

  // The dark time of a command that re-aims `ports`.
  Time dark_time(std::span<const PortCommand> ports) const;
  // Lights the port's circuit at once (circuits in place before the run).
  void connect(const PortCommand& port, Time now);
  // Darkens the port at once, cancelling any command pending on it (its dark
  // span ends now, its target unlit).
  void disconnect(uint32_t slot, Time now);
  // Re-aims `ports` at `now`, one command, for step `step` (the timeline's
  // label); returns when they light (a command of no ports takes its time too):
  // dark_time(ports), plus the extra_delay of a reconfiguration failure for
  // that step.
  Time command(std::span<const PortCommand> ports, uint32_t step, Time now);
  // Per reconfiguration failure, in fabric.failures' order: the commands it
  // lengthened so far and the dark time it added.
  const std::vector<SlowReconfiguration>& slow_reconfigurations() const { return slow_; }
  // Lights the port if its latest command's delay is over at `now` (a port
  // commanded to nothing just stops being pending) and records its dark span
  // (from the first of its commands since it was last lit); otherwise does
  // nothing, so whoever waits for a port may call it when the delay they were
  // told is over.
  void settle(uint32_t slot, Time now);

  // A task-graph node's first circuits (docs/model.md, task graphs): `want`
  // per slot the GPU it wants the port to lead to (-1: none), `sends` and
  // `receives` per GPU whether the node holds its transmitters and its
  // receivers, `transmitters_held` per GPU whether any node holds them. A
  // circuit it does not want goes dark at once - with scope all, every one
  // on its GPUs' ports and every one into its GPUs; with changed, only those
  // whose receiver it needs (directed: a circuit into v on switch p when it
  // wants one into v on switch p; bidirectional: a circuit x -> v when v's
  // circuit back to x changes) - and a port of a GPU another node holds is
  // left to that node. Its wanted circuits not in place are commanded (all:
  // every wanted port, once one differs; changed: those that differ).
  NodeSetup setup_for(const std::vector<int>& want, const std::vector<char>& sends, const std::vector<char>& receives,
                      const std::vector<char>& transmitters_held) const;
  // Carries it out at `now` for step `step`; returns when its wanted circuits
  // are lit (a port commanded earlier and not yet lit: when that command says).
  Time set_up(const NodeSetup& setup, uint32_t step, Time now);

  // The GPU the port's circuit leads to, lit or commanded (-1: none).
  int leads_to(uint32_t slot) const;
  // A command pending on the port, and when it lights.
  bool commanded(uint32_t slot) const { return ports_.at(slot).commanded; }
  Time lights_at(uint32_t slot) const { return ports_.at(slot).lights_at; }

 private:
  struct Port {
    Node from = 0;
    int lit_to = -1;  // the GPU its lit circuit leads to (-1: dark)
    // A command pending: dark since `dark_since`, it lights at `lights_at`
    // leading to `target` (-1: left unused) at `rate`, for step `step`.
    bool commanded = false;
    int target = -1;
    std::optional<Bandwidth> rate;
    Time dark_since;
    Time lights_at;
    uint32_t step = 0;
  };

  uint32_t port_number(uint32_t slot) const { return slot % static_cast<uint32_t>(fabric_.ports); }
  void record_dark(const Port& port, uint32_t slot, Time until) const;

  const FabricSpec& fabric_;
  std::unique_ptr<ReconfigurationModel> model_;
  DataPlane& network_;
  TimelineRecorder* recorder_ = nullptr;
  std::vector<Port> ports_;
  std::vector<SlowReconfiguration> slow_;  // one per reconfiguration failure
};

}  // namespace photonsim
