#pragma once
// Contract: the policy that executes one schedule on the RunDriver, whatever
// fabric.sync (barrier | dataflow) and fabric.reconfiguration (all |
// changed). Event-driven around the driver's Network and OpticalSwitch:
//  - a transfer is released when what it carries is at its sender
//    (TransferDependencies; with sync = barrier, instead, when every transfer
//    of the earlier steps has been delivered: the barrier);
//  - it starts once its circuits are lit for its step (CircuitPlan) and then
//    pays step_overhead; its flows join the Network, where a port sends an
//    earlier step's packets first;
//  - a reconfiguration group is commanded once each of its ports has carried
//    every flow routed over it before the change and its previous change has
//    been commanded (with sync = barrier: at the barrier); its ports light
//    reconfig_delay later (OpticalSwitch::command: a port commanded again before it
//    lit lights only reconfig_delay after the newer command, and its
//    intermediate circuit never lights).
// An empty step is a stand-in transfer of no bytes over the ports its
// reconfiguration changes: released at the barrier (dataflow: at the run's
// start), it waits for them to light, pays step_overhead, is delivered and
// only then lets them change again; under the barrier it costs its
// reconfiguration and step_overhead. A step's
// begin is the earliest release among its transfers (the barrier, with sync =
// barrier), its end the last delivery; steps may overlap, and the run
// completes at the latest end. Its reconfiguration (StepResult) is the dark
// time it exposed: the union of [command, command + reconfig_delay] over the
// groups its transfers wait for, within [begin, end].
// As one node of a task graph (TaskGraphExecution), a schedule shares the
// graph's RunDriver: its GPUs and ports are placed on the fabric's
// (NodePlacement), the graph sets up its first circuits (plan().initial())
// and calls start() once they are lit and the node is released, and the
// execution tells its ScheduleObserver when its last step ends.
#include <memory>
#include <optional>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"
#include "core/segmentation.h"
#include "schedules/model/schedule.h"
#include "sim/engine/switch/circuit_plan.h"
#include "sim/engine/network/data_plane.h"
#include "sim/engine/node_placement.h"
#include "sim/engine/run_driver.h"
#include "sim/engine/run_policy.h"
#include "sim/engine/run_progress.h"
#include "sim/engine/run_result.h"
#include "sim/engine/schedule_observer.h"
#include "sim/engine/transfer_dependencies.h"

namespace photonsim {

class ScheduleExecution : public RunPolicy {
 public:
  // A lower bound on the events a run of `schedule` fires, one hop unless a
  // transfer's path says more: packet by packet, two per packet per hop;
  // moving trains, one per transfer per hop (a train of all its packets).
  // Cheap: no routing.
  static uint64_t minimum_events(const Schedule& schedule, const Segmentation& segmentation, bool trains);

  // `schedule` (for its `fabric`: a task-graph node's has gpus = the
  // schedule's) on `driver`, placed by `placement` (empty: the whole fabric);
  // a task graph's node tells `observer` (if any) when it ends.
  ScheduleExecution(RunDriver& driver, const FabricSpec& fabric, Segmentation segmentation, const Schedule& schedule,
                    NodePlacement placement = {}, ScheduleObserver* observer = nullptr, uint32_t node = 0);
  ScheduleExecution(const ScheduleExecution&) = delete;
  ScheduleExecution& operator=(const ScheduleExecution&) = delete;
  ~ScheduleExecution() override;
  // A whole experiment: its first circuits lit at time 0, the driver run to
  // the end.
  // `measure_barrier_wait`: with sync = barrier, fill the barrier waits (it
  // costs the schedule's block dependencies). `progress` hears the run start,
  // each step but the last end, every 2^20 events and the run's end.
  // Every byte injected must be delivered (std::logic_error otherwise: exit 3).
  RunResult run(bool measure_barrier_wait = false, RunProgress* progress = nullptr);

  const CircuitPlan& plan() const { return plan_; }
  const NodePlacement& placement() const { return placement_; }
  uint32_t places() const { return places_; }  // its flows' places: place_base of the next run
  // Task graphs: the node may begin now (its first circuits are lit).
  void start(Time now);
  // Task graphs: once done, its steps and reconfigurations (no network totals).
  RunResult result();
  // Task graphs: timers of its own still pending (a reconfiguration it
  // commanded may light after its last step ended): it must outlive them.
  bool has_pending_timers() const { return driver_.pending_timers(policy_id_) > 0; }
  uint32_t policy_id() const { return policy_id_; }

  void on_flow_delivered(uint32_t flow, Time now) override;
  void on_timer(Time now, uint64_t token) override;

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
    uint32_t commanded = 0;               // changes commanded so far
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
  // The dark time step `step` exposed (StepResult::reconfiguration), once it has ended.
  Time exposed_reconfiguration(size_t step) const;
  void barrier(uint32_t step, Time now);  // sync = barrier: every step before `step` is done
  // Whether the step's transfers all start at one instant once released now
  // (the groups they wait for commanded, lighting together).
  bool starts_at_one_instant(uint32_t step, Time now) const;

  uint32_t fabric_slot(uint32_t slot) const { return placement_.slot.empty() ? slot : placement_.slot[slot]; }
  Node fabric_gpu(Node gpu) const { return placement_.gpu.empty() ? gpu : placement_.gpu[gpu]; }
  uint32_t local_slot(uint32_t fabric_slot) const {
    return local_slot_.empty() ? fabric_slot : local_slot_[fabric_slot];
  }
  void connect(const CircuitChange& change, Time now);

  const FabricSpec& fabric_;
  const Schedule& schedule_;
  const bool barrier_sync_;
  const Segmentation segmentation_;
  const NodePlacement placement_;
  std::vector<uint32_t> local_slot_;  // task graphs: fabric slot -> the run's
  ScheduleObserver* const observer_;
  const uint32_t node_;
  RunDriver& driver_;
  DataPlane& network_;
  OpticalSwitch& switch_;
  const uint32_t policy_id_;
  CircuitPlan plan_;
  TransferDependencies deps_;
  std::vector<uint64_t> dependent_offsets_;  // CSR: transfers waiting for each transfer
  std::vector<uint32_t> dependents_;
  std::vector<TransferState> transfers_;
  // Per step: its transfers' flows, while some have not started; the place
  // its first flow takes in the schedule; its transfers not yet started.
  std::vector<std::vector<std::vector<FlowSpec>>> step_flows_;
  std::vector<uint32_t> step_place_base_;
  uint32_t places_ = 0;
  std::vector<uint32_t> step_uninjected_;
  std::vector<uint32_t> flow_transfer_;  // Network flow - first_flow_ -> transfer
  uint32_t first_flow_ = 0;
  // Per transfer (and empty step's stand-in): (slot, segment) of its flows of
  // no bytes (the stand-in: its reconfiguration's ports), used until it is delivered.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> empty_flow_uses_;
  std::vector<SlotState> slots_;
  std::vector<uint32_t> group_waiting_;               // per group: ports (and barrier) not yet ready
  std::vector<std::vector<uint32_t>> group_waiters_;  // per group: transfers waiting for it to light
  std::vector<Time> group_commanded_at_;              // per group: when its ports were commanded
  std::vector<Time> group_lit_at_;                    // per group: when they light
  std::vector<std::vector<uint32_t>> step_groups_;    // per step: the groups its transfers wait for
  std::vector<uint32_t> step_left_;                   // per step: transfers not yet delivered
  size_t steps_done_ = 0;                             // steps whose every transfer has been delivered
  std::vector<StepResult> steps_;
  std::vector<char> step_started_;   // dataflow: a transfer of the step has been released
  std::vector<uint32_t> step_window_flows_;  // per step: its flows of bytes
  std::vector<char> step_closed_;            // per step: its flows are one closed window (barrier)
  RunProgress* progress_ = nullptr;  // run(): hears each step but the last end
};

// A whole experiment's run: `schedule` on the Network `fabric` describes,
// packets cut by `workload.chunk` and fabric.packet; `timeline`, when given,
// receives what every port and transfer did. The schedule fits the fabric
// (GPU count, ports): its caller has checked (check_schedule_fits, once per
// run). Throws Error for a transfer over more packets than photonsim counts;
// a step that cannot finish is a broken engine invariant (std::logic_error:
// exit 3).
RunResult run_schedule(const FabricSpec& fabric, const WorkloadSpec& workload, const Schedule& schedule,
                       RunProgress* progress = nullptr, Timeline* timeline = nullptr,
                       bool measure_barrier_wait = false);

}  // namespace photonsim
