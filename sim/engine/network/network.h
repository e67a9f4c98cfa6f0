#pragma once
// Contract: the packet-level fabric, htsim style, the reference DataPlane,
// and the one place its elements (packet_sink.h) are built and wired. Each
// circuit the switch has lit is a Circuit: an EgressPort (the waiting
// packets and a serialiser at line rate) followed by a Pipe (propagation)
// into the GpuRouter, which delivers a packet at the end of its route or
// hands it to the EgressPort of the route's next circuit: store-and-forward
// once a packet has fully arrived, cut-through once its header has. The
// FlowTable cuts the flows' packets and delivers them. A flow has one route
// and every circuit is first in, first out for it, so a flow's packets
// arrive in the order they were cut; a packet out of order is a broken
// invariant (std::logic_error).
// Order at an egress port: at every picosecond, every packet due then lands
// first (and every circuit due to free frees); only then does each idle port
// choose among everything waiting, so the choice never depends on the order
// in which same-time events are handled, nor on GPU numbering. The choice,
// with fabric.egress_order = chunk: smallest chunk index; at equal
// index forwarded packets before the GPU's own; forwarded packets first come
// first served (by the time they became forwardable here), own flows by the
// longer route (the critical path); remaining ties: the longer remaining route,
// then the smaller flow index (the transfer's place in the step).
// With egress_order = fifo: first come first served, the GPU's own packets
// counted as queued at the step's start; ties as above (forwarded before own,
// longer remaining route, smaller flow index). With egress_order =
// chunk_fifo (the default, the all-to-all paper's htsim queues): smallest
// chunk index, then first come first served as fifo. EgressEntry holds the key.
// Lifecycle: the switch lights and darkens circuits (reset_circuits, light,
// darken: DataPlane), the run adds flows at any time and hears each
// delivered (FlowListener); the RunDriver drives the EventList.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/event_list.h"
#include "core/segmentation.h"
#include "core/spec/fabric_spec.h"
#include "sim/engine/network/circuit.h"
#include "sim/engine/network/data_plane.h"
#include "sim/engine/network/decision_batches.h"
#include "sim/engine/network/egress_port.h"
#include "sim/engine/network/event_token.h"
#include "sim/engine/network/flow_recovery.h"
#include "sim/engine/network/flow_table.h"
#include "sim/engine/network/gpu_router.h"
#include "sim/engine/network/network_events.h"
#include "sim/engine/network/network_stats.h"
#include "sim/engine/network/start_batches.h"
#include "sim/engine/network/timeline_recorder.h"
#include "topology/topology.h"

namespace photonsim {

class Network final : public DataPlane, public EventHandler {
 public:
  Network(const FabricSpec& fabric, Segmentation segmentation, EventList& events);
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // Circuit by circuit, as the switch (switch/optical_switch.h) sets them:
  // `slots` dark circuits, then each lit (from -> to on `from`'s egress port
  // `port`, at `rate`) or darkened at `now`. Both throw std::logic_error
  // unless the circuit is idle: nothing waiting, on the wire or being
  // serialised. Which circuit leads where, and when, is the switch's.
  void reset_circuits(size_t slots) override;
  void light(uint32_t circuit, Node from, Node to, uint32_t port, Bandwidth rate, Time now) override;
  void darken(uint32_t circuit, Time now) override;
  bool idle(uint32_t circuit, Time now) const { return circuits_.at(circuit).idle(now); }
  bool lit(uint32_t circuit) const override { return circuits_.at(circuit).lit; }
  // Queues the flows for injection at time `at` (>= now), keeping the flows
  // already started; returns the index of the first flow added. Throws
  // std::logic_error for a route that leaves the circuits, crosses a dark one
  // or does not chain (each circuit must start where the previous one ends),
  // so a packet only ever travels on lit circuits, from where it is.
  uint32_t add_flows(std::vector<FlowSpec> flows, Time at) override;
  void set_listener(FlowListener* listener) override { flows_.set_listener(listener); }
  // Records every port's busy spans (nullptr: none).
  void record_into(TimelineRecorder* recorder) override { shared_.recorder = recorder; }
  // Conservation, once the event list is empty: every flow's bytes were cut
  // into packets and delivered exactly once, and no packet is left. Throws
  // std::logic_error naming the first flow that breaks it.
  void check_conservation() const override { flows_.check_conservation(); }
  bool all_delivered() const override { return flows_.all_delivered(); }
  Time flow_delivered_at(uint32_t flow) const { return flows_.delivered_at(flow); }
  const std::vector<uint32_t>& flow_route(uint32_t flow) const override { return flows_.spec(flow).route; }
  // When every flow is delivered and none waits to start: lets them go, so
  // memory follows the flows in flight (a task graph's nodes come and go).
  // Their ids stay taken (the next flow gets the next one), but the two
  // accessors above no longer answer for them. False (nothing dropped) when
  // flows are still under way.
  bool forget_delivered_flows() override;
  size_t flows_held() const override { return flows_.held(); }
  NetworkStats stats() const override {
    NetworkStats stats = stats_;
    // The pool grows only when every packet in it is live: its size is the peak.
    stats.peak_packets_in_flight = flows_.peak_packets_in_flight();
    stats.trains = stats.packet_hops;  // a packet at a time
    return stats;
  }

  // The events its elements asked for: a start batch's flows queue their
  // first packets, a pipe's front packet lands, a decision batch chooses.
  void on_event(Time now, uint64_t token) override;

 private:
  void start(uint64_t batch, Time now);
  void start_under_failures(uint32_t first, uint32_t end, Time now);
  void decide(uint32_t batch, Time now);

  FabricSpec fabric_;
  NetworkStats stats_;  // all but peak_packets_in_flight, which is the flow table's
  NetworkEvents events_;
  FlowTable flows_;
  DecisionBatches decisions_;
  EgressPortShared shared_;
  // Cut-through runs only where every circuit runs at fabric.bandwidth (the
  // config loader refuses it with bandwidth_scope: gpu), so each GPU receives
  // and sends at the same rate: the router's equal-bandwidth check holds.
  GpuRouter router_;
  std::vector<Circuit> circuits_;  // the elements point into it: built once per reset_circuits
  // Only when fabric.failures takes circuits down (docs/model.md, "Lost circuits").
  std::optional<FlowRecovery> recovery_;
  // Only when fabric.failures degrades links (kind link).
  std::optional<CircuitFailures> degraded_links_;

  StartBatches starts_;  // the flows each start event queues
};

}  // namespace photonsim
