#pragma once
// Contract: the fabric's control plane - the optical switches behind the
// GPUs' ports - as one type that DependencyRun and TaskGraphRun drive. It owns what the fabric spec says of the switches:
//  - how long a command keeps the ports it changes dark (fabric.reconfig_model,
//    a ReconfigurationModel over fabric.reconfig_delay);
//  - which ports a reconfiguration changes and which switch each circuit
//    takes (CircuitPlan, by fabric.reconfiguration's scope: all | changed);
//  - whether a task-graph node may set its circuits up before it is released
//    (fabric.preconfigure).
// command() re-aims ports on the Network: each goes dark at once and lights
// dark_time() later; a port commanded again while still dark lights after the
// newer command (docs/model.md "What a run means", rule 3). When to command is the
// run's: at a barrier, once a group's ports have drained, when a node takes
// its ports.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>

#include "core/spec/fabric_spec.h"
#include "sim/engine/network/network.h"
#include "sim/engine/switch/reconfiguration_model.h"

namespace photonsim {

class OpticalSwitch {
 public:
  // One port to re-aim: fabric slot (GPU * ports + port), its GPU, the GPU it
  // is to lead to (-1: nowhere, left dark), its new circuit's rate when not
  // fabric.bandwidth (bandwidth_scope gpu).
  struct PortCommand {
    uint32_t slot = 0;
    Node from = 0;
    int to = -1;
    std::optional<Bandwidth> rate;
  };

  // Throws Error for an unknown fabric.reconfig_model.
  explicit OpticalSwitch(const FabricSpec& fabric);

  ReconfigurationScope scope() const { return fabric_.reconfiguration; }
  bool preconfigures() const { return fabric_.preconfigure; }
  // The dark time of a command that changes `ports_changed` ports.
  Time dark_time(size_t ports_changed) const;
  // Re-aims `ports` at `now`, one command, for step `step` (the timeline's
  // label); returns when they light (a command of no ports takes its time too).
  Time command(Network& network, std::span<const PortCommand> ports, uint32_t step, Time now) const;

 private:
  const FabricSpec& fabric_;
  std::unique_ptr<ReconfigurationModel> model_;
};

}  // namespace photonsim
