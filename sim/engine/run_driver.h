#pragma once
// Contract: the one run driver. It owns what every run of the fabric shares -
// the event list, the packet Network, the OpticalSwitch that lights its
// circuits and the timeline recorder - and is the one place that:
//  - fires events (run: one loop, with the progress hook every 2^20 events);
//  - sets timers for the policies that execute on it (timer), at arrival
//    priority: what a timer starts at t is waiting when ports choose at t;
//  - injects a transfer's flows into the network (inject) and hands each
//    delivery back to the policy that injected it;
//  - builds the data plane (the TrainNetwork, or the packet-by-packet Network
//    for fabric.packet_engine = reference or where trains are not exact:
//    TrainNetwork::exact_on; DataPlane is what it
//    asks of it) and counts events and checks the network's invariants at the end (finish:
//    every packet accounted for, bytes injected = bytes delivered).
// Policies (RunPolicy: ScheduleExecution for barrier and dataflow,
// TaskGraphExecution for task graphs) enlist and decide what starts and when
// circuits are commanded; they keep no clock, network or circuit state.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/event_list.h"
#include "core/segmentation.h"
#include "core/spec/fabric_spec.h"
#include "sim/engine/network/data_plane.h"
#include "sim/engine/network/network_stats.h"
#include "sim/engine/network/timeline_recorder.h"
#include "sim/engine/run_policy.h"
#include "sim/engine/switch/optical_switch.h"

namespace photonsim {

class RunDriver : public FlowListener, public EventHandler {
 public:
  static constexpr int kPolicyTokenBits = 40;

  // The fabric's GPUs and ports, all dark; `timeline`, when given, receives
  // every port's busy and dark spans.
  RunDriver(const FabricSpec& fabric, Segmentation segmentation, Timeline* timeline = nullptr);
  RunDriver(const RunDriver&) = delete;
  RunDriver& operator=(const RunDriver&) = delete;

  DataPlane& network() { return *network_; }
  OpticalSwitch& fabric_switch() { return switch_; }
  TimelineRecorder* recorder() { return recorder_ ? &*recorder_ : nullptr; }
  uint64_t events_fired() const { return events_.fired(); }

  // A policy to address timers and deliveries to; its id.
  uint32_t enlist(RunPolicy& policy);
  // It hears nothing more (its timers still pending are dropped).
  void retire(uint32_t policy) { policies_.at(policy) = nullptr; }
  // Its timers not yet fired.
  uint32_t pending_timers(uint32_t policy) const { return pending_.at(policy); }
  void timer(uint32_t policy, Time at, uint64_t token);
  // The flows join the network at `at`; the id of the first (the others follow).
  uint32_t inject(uint32_t policy, std::vector<FlowSpec> flows, Time at);
  // While an exception leaves run(): the policy that was hearing a delivery, if any.
  std::optional<uint32_t> delivering_to() const { return delivering_to_; }

  // Fires every event; `every_mebievent`, when given, hears the events fired
  // every 2^20 of them.
  void run(const std::function<void(uint64_t fired)>& every_mebievent = {});
  // The end of a run: the invariants checked (std::logic_error when broken),
  // the timeline closed; the network's totals.
  NetworkStats finish();

  void on_flow_delivered(uint32_t flow, Time now) override;
  void on_event(Time now, uint64_t token) override;

 private:
  EventList events_;
  std::unique_ptr<DataPlane> network_;  // TrainNetwork or Network
  OpticalSwitch switch_;
  std::optional<TimelineRecorder> recorder_;
  std::vector<RunPolicy*> policies_;
  std::vector<uint32_t> pending_;  // per policy: its timers not yet fired
  // The flows' owners, as runs of ids: flows from `first` on are `policy`'s.
  struct FlowOwners {
    uint32_t first;
    uint32_t policy;
  };
  std::vector<FlowOwners> flow_owners_;
  std::optional<uint32_t> delivering_to_;
};

}  // namespace photonsim
