#include "sim/engine/network/flow_recovery.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace photonsim {

FlowRecovery::FlowRecovery(const FabricSpec& fabric, FlowTable& flows, std::vector<Circuit>& circuits,
                           NetworkEvents events, NetworkStats& stats)
    : failures_(fabric),
      detection_(fabric.failures.detection),
      flows_(&flows),
      circuits_(&circuits),
      events_(events),
      stats_(&stats) {
  stats_->lost_by_entry.resize(fabric.failures.entries.size());
}

void FlowRecovery::check_loss(uint32_t circuit, PacketId id, Time now, Time crossing) {
  const Time until = crossing > Time::max() - now ? Time::max() : now + crossing;
  const DownInterval* down = down_[circuit].first_meeting(now, until);
  if (down == nullptr) return;
  const uint32_t flow = flows_->packet(id).flow;
  flows_->mark_lost(id);
  NetworkStats::EntryLoss& charged = stats_->lost_by_entry[down_[circuit].entry_meeting(now, until)];
  ++charged.packets;
  charged.bytes += flows_->packet(id).bytes;
  const Time known = down->from > Time::max() - detection_ ? Time::max() : down->from + detection_;
  const Time learns = std::max(known, now);
  if (learns >= flows_->rewind_due(flow)) return;
  flows_->set_rewind_due(flow, learns);
  // Learned at a choice of `now` (a circuit already known down): right after it.
  events_.schedule(learns, EventToken::Kind::learn, flow, EventPriority::arrival);
}

void FlowRecovery::learn(uint32_t flow, Time now) {
  // Landings due now come first (a packet landing now crossed its circuit
  // over a span that ends now): the rewind joins the end of this
  // picosecond's arrivals, still before the ports choose.
  events_.schedule(now, EventToken::Kind::rewind, flow, EventPriority::arrival);
}

void FlowRecovery::rewind(uint32_t flow, Time now) {
  // A later rewind asked for before an earlier one superseded it.
  if (!flows_->holds(flow) || flows_->rewind_due(flow) != now) return;
  const std::vector<uint32_t>& route = flows_->spec(flow).route;
  for (const uint32_t c : route) {
    Circuit& circuit = (*circuits_)[c];
    circuit.egress.let_go_of(flow);
    circuit.pipe.for_each_packet([&](PacketId id) {
      if (flows_->packet(id).flow == flow) flows_->let_go_on_landing(id);
    });
  }
  flows_->rewind(flow);
  if (may_send(flow, now)) begin_sending(flow, now);
}

void FlowRecovery::resume(uint32_t flow, Time now) {
  if (may_send(flow, now)) begin_sending(flow, now);
}

bool FlowRecovery::may_send(uint32_t flow, Time now) {
  Time wait_until = Time::zero();
  for (const uint32_t c : flows_->spec(flow).route) {
    const DownInterval* known = down_[c].known_down_at(now, detection_);
    if (known == nullptr) continue;
    if (known->until == Time::max()) cannot_complete(flow, c, now);
    wait_until = std::max(wait_until, known->until);
  }
  if (wait_until <= now) return true;
  stats_->waited += wait_until - now;
  events_.schedule(wait_until, EventToken::Kind::resume, flow, EventPriority::arrival);
  return false;
}

void FlowRecovery::begin_sending(uint32_t flow, Time now) {
  EgressPort& first = (*circuits_)[flows_->spec(flow).route.front()].egress;
  first.queue_own(flow);
  first.wake(now);
}

void FlowRecovery::cannot_complete(uint32_t flow, uint32_t circuit, Time now) const {
  const EgressPort& egress = (*circuits_)[circuit].egress;
  for (const Node gpu : {egress.from(), egress.to()}) {
    if (const std::optional<uint32_t> entry = failures_.gpu_down_forever(gpu, now)) {
      throw Error("cannot complete: GPU " + std::to_string(gpu) + " has no working port (fabric.failures[" +
                  std::to_string(*entry) + "] and the others on its ports keep every one down until the end)");
    }
  }
  const std::vector<uint32_t>& route = flows_->spec(flow).route;
  const Node src = (*circuits_)[route.front()].egress.from();
  const Node dst = (*circuits_)[route.back()].egress.to();
  const uint32_t port = egress.port();
  const std::optional<uint32_t> entry = down_[circuit].entry_forever();
  throw Error("cannot complete: the transfer from GPU " + std::to_string(src) + " to GPU " + std::to_string(dst) +
              " waits for the circuit GPU " + std::to_string(egress.from()) + " port " + std::to_string(port) +
              " -> GPU " + std::to_string(egress.to()) + ", down until the end (fabric.failures[" +
              std::to_string(entry.value_or(0)) + "]), and on_failure: wait never routes around it");
}

}  // namespace photonsim
