#pragma once
// Contract: what the RunDriver and the OpticalSwitch ask of the engine that
// moves packets, so that a second engine (one that moves several packets per
// event, say) can run under the same driver and switch with the
// packet-by-packet Network kept beside it as the reference. The switch
// lights and darkens circuits (slot = GPU * ports + port); the driver injects
// flows, hears their deliveries and checks the invariants at the end. Packet
// events stay inside the engine: it schedules them on the driver's EventList.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/time.h"
#include "core/units.h"
#include "sim/engine/network/flow_listener.h"
#include "sim/engine/network/flow_spec.h"
#include "sim/engine/network/network_stats.h"
#include "sim/engine/network/timeline_recorder.h"
#include "topology/topology.h"

namespace photonsim {

class DataPlane {
 public:
  virtual ~DataPlane() = default;

  // Circuits, as the switch sets them: `slots` dark circuits, then each lit
  // (from -> to on `from`'s egress port `port`, at `rate`) or darkened at
  // `now`; both throw std::logic_error unless the circuit is idle.
  virtual void reset_circuits(size_t slots) = 0;
  virtual void light(uint32_t circuit, Node from, Node to, uint32_t port, Bandwidth rate, Time now) = 0;
  virtual void darken(uint32_t circuit, Time now) = 0;
  virtual bool lit(uint32_t circuit) const = 0;

  // Queues the flows for injection at `at` (>= now), keeping those already
  // started; returns the id of the first (the others follow). A route that
  // crosses a dark circuit or does not chain throws std::logic_error.
  virtual uint32_t add_flows(std::vector<FlowSpec> flows, Time at) = 0;
  virtual const std::vector<uint32_t>& flow_route(uint32_t flow) const = 0;
  virtual bool all_delivered() const = 0;
  // Once every flow is delivered: lets them go (ids stay taken); false when
  // flows are still under way.
  virtual bool forget_delivered_flows() = 0;
  // The flows it holds: those added since they were last let go.
  virtual size_t flows_held() const = 0;
  virtual void set_listener(FlowListener* listener) = 0;
  // Records every port's busy spans (nullptr: none).
  virtual void record_into(TimelineRecorder* recorder) = 0;

  // Once the events are done: every flow's bytes cut into packets and
  // delivered exactly once, no packet left (std::logic_error otherwise).
  virtual void check_conservation() const = 0;
  virtual NetworkStats stats() const = 0;
};

}  // namespace photonsim
