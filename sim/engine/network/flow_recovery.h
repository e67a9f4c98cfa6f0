#pragma once
// Contract: the Network's loss-and-resume rules for circuits that go down
// (fabric.failures kinds port, flap and switch; docs/model.md, "Lost
// circuits", L1-L8), in one place beside the healthy data path, which calls
// it only when the fabric has such an entry:
//  - aim: a circuit the switch lights takes the down time of its new ends;
//  - sent: a packet that starts serialising onto a circuit is lost when the
//    circuit is down at any instant of its crossing (L3); its flow learns at
//    max(x + detection, now) (L5) and rewinds then (a rewind event);
//  - rewind: the flow's packets are let go (L6) and it sends again when its
//    route exists (L7), or the run cannot complete (L8: photonsim::Error
//    "cannot complete: ...");
//  - may_send: the L7 check at a flow's start, and its wait.
#include <cstdint>
#include <vector>

#include "core/packet.h"
#include "core/spec/fabric_spec.h"
#include "core/time.h"
#include "sim/engine/network/circuit.h"
#include "sim/engine/network/circuit_down_time.h"
#include "sim/engine/network/circuit_failures.h"
#include "sim/engine/network/flow_table.h"
#include "sim/engine/network/network_events.h"
#include "sim/engine/network/network_stats.h"

namespace photonsim {

class FlowRecovery {
 public:
  FlowRecovery(const FabricSpec& fabric, FlowTable& flows, std::vector<Circuit>& circuits, NetworkEvents events,
               NetworkStats& stats);

  void reset(size_t slots) { down_.assign(slots, CircuitDownTime()); }
  void aim(uint32_t circuit, Node from, Node to, uint32_t port) { down_[circuit] = failures_.circuit(from, to, port); }

  // Packet `id` starts serialising onto `circuit` at `now` and crosses it for
  // `crossing` (its serialisation and the circuit's latency).
  void sent(uint32_t circuit, PacketId id, Time now, Time crossing) {
    if (down_[circuit].never_down()) return;
    check_loss(circuit, id, now, crossing);
  }
  // L7 at `now`: true if the flow may begin sending; otherwise it waits (a
  // resume event) or the run cannot complete (throws).
  bool may_send(uint32_t flow, Time now);
  // The events it asked for.
  void learn(uint32_t flow, Time now);
  void rewind(uint32_t flow, Time now);
  void resume(uint32_t flow, Time now);

 private:
  void check_loss(uint32_t circuit, PacketId id, Time now, Time crossing);
  void begin_sending(uint32_t flow, Time now);
  [[noreturn]] void cannot_complete(uint32_t flow, uint32_t circuit, Time now) const;

  CircuitFailures failures_;
  Time detection_;
  FlowTable* flows_;
  std::vector<Circuit>* circuits_;
  NetworkEvents events_;
  NetworkStats* stats_;
  std::vector<CircuitDownTime> down_;  // per circuit, as aimed
};

}  // namespace photonsim
