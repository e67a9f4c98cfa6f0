#pragma once
// Contract: a GPU's egress port onto one circuit, htsim's Queue: packets
// wait in the egress order (EgressQueue, EgressEntry), the port chooses when
// its serialiser is free (in the DecisionBatches of that picosecond) and
// serialises the chosen packet at the circuit's line rate onto its Pipe. A
// forwarded packet reaches it from the GpuRouter (receive); a flow that
// starts here waits as one entry (queue_own) and its next packet is cut when
// the port sends it.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/time.h"
#include "core/units.h"
#include "sim/engine/network/circuit_down_time.h"
#include "sim/engine/network/decision_batches.h"
#include "sim/engine/network/egress_queue.h"
#include "sim/engine/network/flow_table.h"
#include "sim/engine/network/gpu_router.h"
#include "sim/engine/network/network_stats.h"
#include "sim/engine/network/packet_sink.h"
#include "sim/engine/network/timeline_recorder.h"
#include "topology/topology.h"

namespace photonsim {

class Pipe;
class FlowRecovery;

// What every egress port of one Network shares.
struct EgressPortShared {
  FlowTable* flows = nullptr;
  DecisionBatches* decisions = nullptr;
  NetworkStats* stats = nullptr;
  const GpuRouter* router = nullptr;     // when the far end may act on a packet
  TimelineRecorder* recorder = nullptr;  // busy spans, when the run records them
  FlowRecovery* recovery = nullptr;      // when circuits can go down (fabric.failures)
};

class EgressPort final : public PacketSink {
 public:
  // It is circuit `circuit` (the decision batches name it), sending onto `pipe`.
  void connect(uint32_t circuit, const EgressPortShared& shared, Pipe& pipe) {
    circuit_ = circuit;
    shared_ = &shared;
    pipe_ = &pipe;
  }
  // Where it sends, as the switch lit it: from -> to on `from`'s port `port`.
  void aim(Node from, Node to, uint32_t port, Bandwidth rate) {
    from_ = from;
    to_ = to;
    port_ = port;
    if (rate != rate_) memo_bytes_ = UINT32_MAX;
    rate_ = rate;
  }
  Node from() const { return from_; }
  Node to() const { return to_; }
  uint32_t port() const { return port_; }
  // A degraded link's spans (fabric.failures kind link): a packet that starts
  // serialising inside one takes its rate's time. Set after aim.
  void degrade(std::vector<DegradedSpan> spans) { degraded_ = std::move(spans); }
  // Nothing waiting, being serialised, or about to choose.
  bool idle(Time now) const { return queue_.empty() && !queue_.busy_at(now) && !decision_pending_; }

  void receive(PacketId id, Time now) override {
    FlowTable& flows = *shared_->flows;
    queue_.push(flows.forwarded_entry(flows.packet(id), id, now));
    wake(now);
  }
  // The flow starts here: it waits as one entry until all its packets are cut.
  void queue_own(uint32_t flow) { queue_.push(shared_->flows->own_entry(flow)); }
  // Something waits: the port chooses when its serialiser is (or becomes)
  // free. A busy port joins the batch of the picosecond it frees at, so a
  // port that always has packets waiting costs no event of its own.
  void wake(Time now) {
    if (decision_pending_) return;
    decision_pending_ = true;
    shared_->decisions->ask(circuit_, std::max(now, queue_.free_at()));
  }
  // Its turn in the decision batch: send the first waiting packet.
  void choose(Time now) {
    decision_pending_ = false;
    // Emptied since it asked only by a rewind (let_go_of).
    if (queue_.empty()) return;
    transmit(now);
  }
  // A rewinding flow's entries go (docs/model.md, "Lost circuits", L6): its
  // own and its packets waiting here, dropped.
  void let_go_of(uint32_t flow);

 private:
  void transmit(Time now);
  // Packets are mostly full-sized: the last size's serialisation at the line
  // rate, instead of a 128-bit division per packet-hop.
  Time serialization(uint32_t bytes, Time now) {
    if (!degraded_.empty()) {
      for (const DegradedSpan& d : degraded_) {
        if (d.span.from <= now && now < d.span.until) return d.rate.serialization(Bytes(bytes));
      }
    }
    if (bytes != memo_bytes_) {
      memo_bytes_ = bytes;
      memo_time_ = rate_.serialization(Bytes(bytes));
    }
    return memo_time_;
  }

  Node from_ = 0;
  Node to_ = 0;
  uint32_t port_ = 0;  // the egress port at `from_`
  Bandwidth rate_;     // its line rate (topology/circuit_rates.h)
  EgressQueue queue_;
  bool decision_pending_ = false;  // in the batch of when its serialiser is (or becomes) free
  uint32_t memo_bytes_ = UINT32_MAX;
  Time memo_time_;
  uint32_t circuit_ = 0;
  const EgressPortShared* shared_ = nullptr;
  Pipe* pipe_ = nullptr;
  std::vector<DegradedSpan> degraded_;
};

}  // namespace photonsim
