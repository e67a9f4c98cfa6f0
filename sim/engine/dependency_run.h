#pragma once
// Contract: one replay of a schedule under fabric.sync = dataflow, or under
// fabric.reconfiguration = changed (with either sync). Event-driven around
// the Network:
//  - a transfer is released when what it carries is at its sender
//    (TransferDependencies; with sync = barrier, instead, when every transfer
//    of the earlier steps has been delivered: the barrier);
//  - it starts once its circuits are lit for its step (CircuitPlan) and then
//    pays step_overhead; its flows join the Network, where a port sends an
//    earlier step's packets first;
//  - a reconfiguration group goes dark once each of its ports has carried
//    every flow routed over it before the change (with sync = barrier: at the
//    barrier), for reconfig_delay, then lights its new circuits.
// With sync = barrier, an empty step still takes its reconfiguration and
// step_overhead, as in the barrier Replayer. A step's begin is the earliest
// release among its transfers (the barrier, with sync = barrier), its end
// the last delivery; steps may overlap, and the run completes at the latest end.
#include <optional>
#include <vector>

#include "core/event_list.h"
#include "core/fabric_spec.h"
#include "core/segmentation.h"
#include "schedules/model/schedule.h"
#include "sim/engine/circuit_plan.h"
#include "sim/engine/network.h"
#include "sim/engine/run_progress.h"
#include "sim/engine/run_result.h"
#include "sim/engine/timeline_recorder.h"
#include "sim/engine/transfer_dependencies.h"

namespace photonsim {

class DependencyRun : public FlowListener, public EventHandler {
 public:
  DependencyRun(const FabricSpec& fabric, Segmentation segmentation, const Schedule& schedule, Timeline* timeline);
  // `measure_barrier_wait`: with sync = barrier, fill the barrier waits.
  // `progress` hears the steps completed so far every 2^20 events.
  RunResult run(bool measure_barrier_wait = false, RunProgress* progress = nullptr);

  void on_flow_delivered(uint32_t flow, Time now) override;
  void on_event(Time now, uint64_t token) override;

 private:
  enum class Timer : uint8_t { group_lit = 1, transfer_done = 2 };
  struct TransferState {
    uint32_t step = 0;
    uint32_t data_waiting = 0;     // transfers it waits for (sync = barrier: 1, the barrier)
    uint32_t circuit_waiting = 0;  // reconfiguration groups that must light its circuits
    uint32_t flows_left = 0;
    Time released;  // its data (or the barrier) was there
    Time injected;  // its first packet could leave
    Time delivered;
    bool done = false;
  };
  struct SlotState {
    std::vector<uint32_t> change_steps;   // the steps its changes are for, ascending
    std::vector<uint32_t> change_groups;  // the group of each change
    std::vector<uint32_t> uses;           // per segment (before change k; after the last): flows not yet delivered
    uint32_t completed = 0;               // changes done
  };

  uint32_t segment(uint32_t slot, uint32_t step) const;
  // Step s's flows per transfer, routed over the plan's ports.
  std::vector<std::vector<FlowSpec>> route_flows(size_t step) const;
  size_t last_step_begun() const;
  void schedule_timer(Time at, Timer kind, uint64_t id);
  void data_ready(uint32_t transfer, Time now);     // one of its data waits is over
  void circuit_ready(uint32_t transfer, Time now);  // one of its circuit waits is over
  void inject(uint32_t transfer, Time now);
  void transfer_delivered(uint32_t transfer, Time now);
  void slot_drained(uint32_t slot, Time now);  // check whether its next change may start
  void group_ready(uint32_t group, Time now);  // one more of its ports (or the barrier) is ready
  void group_lit(uint32_t group, Time now);
  void barrier(uint32_t step, Time now);  // sync = barrier: every step before `step` is done

  const FabricSpec& fabric_;
  const Schedule& schedule_;
  const bool barrier_sync_;
  const Segmentation segmentation_;
  EventList events_;
  std::optional<TimelineRecorder> recorder_;
  Network network_;
  CircuitPlan plan_;
  TransferDependencies deps_;
  std::vector<uint64_t> dependent_offsets_;  // CSR: transfers waiting for each transfer
  std::vector<uint32_t> dependents_;
  std::vector<TransferState> transfers_;
  // Per step: its transfers' flows, while some have not started; the place
  // its first flow takes in the schedule; its transfers not yet started.
  std::vector<std::vector<std::vector<FlowSpec>>> step_flows_;
  std::vector<uint32_t> step_place_base_;
  std::vector<uint32_t> step_uninjected_;
  std::vector<uint32_t> flow_transfer_;  // Network flow -> transfer
  // Per transfer: (slot, segment) of its flows of no bytes, used until it is delivered.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> empty_flow_uses_;
  std::vector<SlotState> slots_;
  std::vector<uint32_t> group_waiting_;               // per group: ports (and barrier) not yet ready
  std::vector<std::vector<uint32_t>> group_waiters_;  // per group: transfers waiting for it to light
  std::vector<uint32_t> step_left_;                   // per step: transfers not yet delivered
  size_t steps_done_ = 0;                             // steps whose every transfer has been delivered
  std::vector<StepResult> steps_;
  std::vector<char> step_started_;  // dataflow: a transfer of the step has been released
};

}  // namespace photonsim
