#pragma once
// Contract: where each circuit of a schedule lives on the fabric's egress
// ports, and which ports change at each reconfiguration, for partial
// reconfiguration and dataflow runs. Port p of GPU u is slot u * ports + p.
// A circuit that stays from one configuration to the next keeps its port.
// Scope `all`: every circuit in place or wanted goes dark, as one group (a
// group of no port when there is neither: from no circuits to none).
// Scope `changed`: only ports whose circuit differs go dark; with directed
// circuits on k > 1 ports (k optical switches, port p on switch p) each
// configuration is placed switch by switch by docs/model.md's rules ("Which
// switch each circuit takes": circuits in place stay, the rest go to the first
// switch with both ends free, preferring switches already reconfigured, an
// alternating path making room when none has), and each switch's changed
// ports form one group (a switch whose circuits all stay is not reconfigured
// at all); otherwise all changed ports form one group. A bidirectional
// circuit is a port at each end, placed, kept and changed whole, so both its
// ends always go dark and light together. When a group is commanded and how
// long it is dark is the switch's; when to command, the ScheduleExecution's.
// The schedule must fit the fabric (GPU count, ports per topology): checked
// once, before it reaches the engine (sim/app's check_schedule_fits, or its
// synthesizer's own Topology::check_ports).
// Failures known when planning (core/spec/planning_failures.h): a switch
// failed at 0 carries no circuit. Everything above runs on the working ports,
// port k of a GPU being surviving switch k (the k-th lowest), and so does
// "on k > 1 ports" (k surviving switches); the slots are still the fabric's
// (u * ports + p, p the switch), so no circuit, group or step's slot is ever
// on a failed switch. With no such failure the placement is the fabric's own.
// A configuration needing more ports than survive (a schedule not planned
// around the failures, replayed) is an Error naming the entry
// (check_surviving_ports), as is a fabric with no switch left (unless the
// schedule places no circuit at all).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "schedules/model/schedule.h"

namespace photonsim {

struct CircuitChange {
  uint32_t slot = 0;
  Node from = 0;
  int to = -1;  // the GPU the port leads to after the change; -1: left unused (dark)
  // Its circuit's line rate when not fabric.bandwidth: bandwidth_scope gpu,
  // the configuration's share (topology/circuit_rates.h).
  std::optional<Bandwidth> rate;
};

struct ReconfigurationGroup {
  size_t step = 0;  // the step it is for
  std::vector<CircuitChange> changes;
};

class CircuitPlan {
 public:
  // Throws Error when a configuration exceeds the ports.
  CircuitPlan(const Schedule& schedule, const FabricSpec& fabric);
  // Throws Error, naming the last `switch` entry at 0 ("fabric.failures[i]
  // (switch s, at 0): the schedule does not fit the switches that survive
  // ..."), when a configuration of the schedule (its initial topology, its
  // steps') needs more ports than the switches that survive the failures
  // known when planning; nothing without such failures.
  static void check_surviving_ports(const Schedule& schedule, const FabricSpec& fabric);

  uint32_t slots() const { return slots_; }
  uint32_t ports_per_gpu() const { return ports_; }
  // Circuits lit before step 0, at no cost (the schedule's initial topology).
  const std::vector<CircuitChange>& initial() const { return initial_; }
  const std::vector<ReconfigurationGroup>& groups() const { return groups_; }
  // The groups for step s, as indices into groups() (empty: no reconfiguration).
  std::span<const uint32_t> groups_before(size_t step) const {
    return {group_ids_.data() + group_offsets_[step], group_ids_.data() + group_offsets_[step + 1]};
  }
  // Step s's topology: edge e is on slot slots_of_step(s)[e].
  const std::vector<uint32_t>& slots_of_step(size_t step) const { return epoch_slots_[step_epoch_[step]]; }

 private:
  uint32_t ports_ = 1;
  uint32_t slots_ = 0;
  std::vector<CircuitChange> initial_;
  std::vector<ReconfigurationGroup> groups_;
  std::vector<uint32_t> group_ids_;
  std::vector<size_t> group_offsets_;
  std::vector<size_t> step_epoch_;
  std::vector<std::vector<uint32_t>> epoch_slots_;
};

}  // namespace photonsim
