#include "sim/engine/network/network.h"

#include <stdexcept>
#include <string>

#include "sim/engine/network/flow_route_check.h"

namespace photonsim {

Network::Network(const FabricSpec& fabric, Segmentation segmentation, EventList& events)
    : fabric_(fabric),
      events_(events, *this),
      flows_(segmentation, fabric.egress_order, stats_),
      decisions_(events_),
      shared_{&flows_, &decisions_, &stats_, &router_, nullptr},
      router_(fabric.router, fabric.header, fabric.bandwidth, fabric.bandwidth) {
  router_.connect(flows_, circuits_);
  if (CircuitFailures::degrades_links(fabric_.failures)) degraded_links_.emplace(fabric_);
  if (CircuitFailures::takes_circuits_down(fabric_.failures)) {
    recovery_.emplace(fabric_, flows_, circuits_, events_, stats_);
    shared_.recovery = &*recovery_;
  }
}

void Network::reset_circuits(size_t slots) {
  if (flows_.packets_in_flight() != 0) {
    throw std::logic_error("reconfiguration with " + std::to_string(flows_.packets_in_flight()) + " packets in flight");
  }
  circuits_.clear();
  circuits_.resize(slots);
  for (size_t i = 0; i < slots; ++i) {
    Circuit& circuit = circuits_[i];
    circuit.egress.aim(0, 0, 0, fabric_.bandwidth);
    circuit.egress.connect(static_cast<uint32_t>(i), shared_, circuit.pipe);
    circuit.pipe.connect(static_cast<uint32_t>(i), fabric_.latency, events_, router_);
  }
  if (recovery_) recovery_->reset(slots);
}

void Network::light(uint32_t circuit_index, Node from, Node to, uint32_t port, Bandwidth rate, Time now) {
  if (!idle(circuit_index, now)) throw std::logic_error("circuit " + std::to_string(circuit_index) + " lit while busy");
  Circuit& circuit = circuits_[circuit_index];
  circuit.egress.aim(from, to, port, rate);
  circuit.lit = true;
  if (recovery_) recovery_->aim(circuit_index, from, to, port);
  if (degraded_links_) circuit.egress.degrade(degraded_links_->degraded(from, to, port, rate));
}

void Network::darken(uint32_t circuit_index, Time now) {
  if (!idle(circuit_index, now))
    throw std::logic_error("circuit " + std::to_string(circuit_index) + " went dark while busy");
  circuits_[circuit_index].lit = false;
}

uint32_t Network::add_flows(std::vector<FlowSpec> flows, Time at) {
  const uint32_t first = flows_.next_id();
  flows_.expect(flows.size());
  for (FlowSpec& spec : flows) {
    check_flow_route(spec, flows_.next_id(), circuits_.size(), [&](uint32_t c) {
      return RoutedCircuit{circuits_[c].lit, circuits_[c].egress.from(), circuits_[c].egress.to()};
    });
    flows_.add(std::move(spec), at);
  }
  // With the landings, before the ports of that picosecond choose: a flow
  // that joins at t is waiting when they do.
  if (const std::optional<uint64_t> batch = starts_.add(first, flows_.next_id(), at)) {
    events_.schedule(at, EventToken::Kind::start, *batch, EventPriority::arrival);
  }
  return first;
}

bool Network::forget_delivered_flows() {
  if (!flows_.all_delivered() || !starts_.all_fired()) return false;
  flows_.forget_delivered();
  starts_.forget();
  return true;
}

void Network::start(uint64_t batch, Time now) {
  const auto [first, end] = starts_.fire(batch);
  if (recovery_) {
    start_under_failures(first, end, now);
    return;
  }
  for (uint32_t f = first; f < end; ++f) {
    const FlowSpec& spec = flows_.spec(f);
    if (spec.bytes.count() > 0) circuits_[spec.route.front()].egress.queue_own(f);
  }
  // A port's choice does not depend on the order ports are woken in.
  for (uint32_t f = first; f < end; ++f) {
    const FlowSpec& spec = flows_.spec(f);
    if (spec.bytes.count() > 0) circuits_[spec.route.front()].egress.wake(now);
  }
}

void Network::start_under_failures(uint32_t first, uint32_t end, Time now) {
  // L7: a flow whose route is known down waits for it instead.
  std::vector<uint32_t> sending;
  for (uint32_t f = first; f < end; ++f) {
    const FlowSpec& spec = flows_.spec(f);
    if (spec.bytes.count() == 0 || !recovery_->may_send(f, now)) continue;
    circuits_[spec.route.front()].egress.queue_own(f);
    sending.push_back(f);
  }
  for (const uint32_t f : sending) circuits_[flows_.spec(f).route.front()].egress.wake(now);
}

void Network::decide(uint32_t batch, Time now) {
  // By index: a port whose serialisation takes no time chooses again at
  // this picosecond, in this batch.
  for (size_t i = 0; i < decisions_.batch(batch).size(); ++i) {
    circuits_[decisions_.batch(batch)[i]].egress.choose(now);
  }
  decisions_.close(batch);
}

void Network::on_event(Time now, uint64_t raw_token) {
  const EventToken token = EventToken::from_raw(raw_token);
  switch (token.kind()) {
    case EventToken::Kind::start:
      start(token.id(), now);
      break;
    case EventToken::Kind::landing:
      circuits_[token.id()].pipe.land(now);
      break;
    case EventToken::Kind::decide:
      decide(static_cast<uint32_t>(token.id()), now);
      break;
    case EventToken::Kind::learn:
      recovery_->learn(static_cast<uint32_t>(token.id()), now);
      break;
    case EventToken::Kind::rewind:
      recovery_->rewind(static_cast<uint32_t>(token.id()), now);
      break;
    case EventToken::Kind::resume:
      recovery_->resume(static_cast<uint32_t>(token.id()), now);
      break;
  }
}

}  // namespace photonsim
