#include "sim/engine/network/train_network.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/engine/network/flow_route_check.h"

namespace photonsim {

namespace {

constexpr int kKindShift = 61;
constexpr int kIdShift = 29;
constexpr uint64_t kGenMask = (uint64_t{1} << kIdShift) - 1;

constexpr auto goes_later = [](const auto& a, const auto& b) { return a.key.after(b.key); };

// The first k in [lo, hi) for which `after(k)` holds, or hi; `after` is
// monotone (false, then true), as egress keys of one item's packets are.
template <typename After>
uint32_t first_after(uint32_t lo, uint32_t hi, After after) {
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (after(mid)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// A recorded progression, as one more copy of the last when it is the same.
void add_copy(std::vector<WindowRecord::Progression>& to, const WindowRecord::Progression& p) {
  if (!to.empty()) {
    WindowRecord::Progression& last = to.back();
    if (last.first == p.first && last.period == p.period && last.count == p.count && last.copies < UINT32_MAX) {
      ++last.copies;
      return;
    }
  }
  to.push_back(p);
}

}  // namespace

TrainNetwork::TrainNetwork(const FabricSpec& fabric, Segmentation segmentation, EventList& events)
    : fabric_(fabric),
      segmentation_(segmentation),
      events_(events),
      router_(fabric.router, fabric.header, fabric.bandwidth, fabric.bandwidth),
      reuse_on_(fabric.exact_reuse) {}

void TrainNetwork::schedule(Time at, Kind kind, uint32_t id, uint32_t gen, EventPriority priority) {
  const uint64_t token = (static_cast<uint64_t>(kind) << kKindShift) | (static_cast<uint64_t>(id) << kIdShift) |
                         (static_cast<uint64_t>(gen) & kGenMask);
  events_.schedule(at, *this, token, priority);
}

void TrainNetwork::on_event(Time now, uint64_t token) {
  const auto kind = static_cast<Kind>(token >> kKindShift);
  const auto id = static_cast<uint32_t>((token >> kIdShift) & 0xffffffffULL);
  const auto gen = static_cast<uint32_t>(token & kGenMask);
  switch (kind) {
    case Kind::start:
      start(id, now);
      break;
    case Kind::arrive: {
      Train& up = trains_[id];
      if ((up.entry_gen & kGenMask) != gen || up.entry_state != kPending) return;
      land(id, now);
      // A train that lands as it ends (one packet, store-and-forward): the
      // same event says it is done.
      if (trains_[id].serial != 0 && !trains_[id].done && trains_[id].done_at() == now && trains_[id].count == 1) {
        ++trains_[id].done_gen;
        done(id, now);
      }
      break;
    }
    case Kind::done:
      if ((trains_[id].done_gen & kGenMask) != gen || trains_[id].serial == 0) return;
      done(id, now);
      break;
    case Kind::decide:
      decide(id, now);
      break;
    case Kind::replayed:
      replay_deliveries(id, gen, now);
      break;
  }
}

void TrainNetwork::land(uint32_t id, Time now) {
  Train& up = trains_[id];
  const uint32_t circuit = flow_at(up.flow).spec.route[up.hop + 1];
  up.entry_state = kQueued;
  const EgressEntry key = incoming_key(up, up.taken);
  push(circuit, Waiting{key, id, up.entry_gen, false});
  arrival(circuit, key, now);
}

Time TrainNetwork::serialization(Port& port, uint32_t bytes) {
  if (bytes != port.memo_bytes) {
    port.memo_bytes = bytes;
    port.memo_time = port.rate.serialization(Bytes(bytes));
  }
  return port.memo_time;
}

bool TrainNetwork::idle(uint32_t circuit) const {
  const Port& port = ports_.at(circuit);
  return port.on_wire == 0 && port.queued == 0;
}

void TrainNetwork::reset_circuits(size_t slots) {
  if (trains_alive_ != 0) {
    throw std::logic_error("reconfiguration with " + std::to_string(trains_alive_) + " trains in flight");
  }
  ports_.assign(slots, Port{});
  for (Port& port : ports_) port.rate = fabric_.bandwidth;
  slot_users_.assign(slots, 0);
  slot_window_.assign(slots, kNoWindow);
}

void TrainNetwork::light(uint32_t circuit, Node from, Node to, uint32_t port_index, Bandwidth rate, Time) {
  if (!idle(circuit)) throw std::logic_error("circuit " + std::to_string(circuit) + " lit while busy");
  touch(circuit);
  Port& port = ports_[circuit];
  port.from = from;
  port.to = to;
  port.port = port_index;
  if (rate != port.rate) port.memo_bytes = UINT32_MAX;
  port.rate = rate;
  port.lit = true;
}

void TrainNetwork::darken(uint32_t circuit, Time) {
  if (!idle(circuit)) throw std::logic_error("circuit " + std::to_string(circuit) + " went dark while busy");
  touch(circuit);
  ports_[circuit].lit = false;
}

uint32_t TrainNetwork::add_flows(std::vector<FlowSpec> flows, Time at) {
  const auto first = static_cast<uint32_t>(flow_base_ + flows_.size());
  if (flows_.capacity() < flows_.size() + flows.size()) {
    flows_.reserve(std::max(2 * flows_.capacity(), flows_.size() + flows.size()));
  }
  for (FlowSpec& spec : flows) {
    const auto id = static_cast<uint32_t>(flow_base_ + flows_.size());
    check_flow_route(spec, id, ports_.size(), [&](uint32_t c) {
      return RoutedCircuit{ports_[c].lit, ports_[c].from, ports_[c].to};
    });
    Flow flow;
    flow.chunk_bytes = segmentation_.chunk_size(spec.bytes);
    flow.spec = std::move(spec);
    flow.started_at = at;
    if (flow.spec.bytes.count() > 0) {
      ++flows_remaining_;
      for (const uint32_t c : flow.spec.route) {
        touch(c);
        ++slot_users_[c];
      }
    }
    flows_.push_back(std::move(flow));
  }
  const auto end = static_cast<uint32_t>(flow_base_ + flows_.size());
  if (const std::optional<uint64_t> batch = starts_.add(first, end, at)) {
    schedule(at, Kind::start, static_cast<uint32_t>(*batch), 0, EventPriority::arrival);
  }
  return first;
}

void TrainNetwork::settle_peak_if_quiescent() {
  if (flows_remaining_ == 0 && trains_alive_ == 0 && starts_.all_fired()) peak_.settle();
}

bool TrainNetwork::forget_delivered_flows() {
  if (flows_remaining_ != 0 || !starts_.all_fired()) return false;
  if (trains_alive_ != 0) throw std::logic_error("every flow delivered with trains still in flight");
  peak_.settle();
  flow_base_ += flows_.size();
  std::vector<Flow>().swap(flows_);
  starts_.forget();
  for (Port& port : ports_) {
    port.heap.clear();
    port.queued = 0;
  }
  return true;
}

void TrainNetwork::check_conservation() const {
  if (trains_alive_ != 0) throw std::logic_error(std::to_string(trains_alive_) + " trains left in the network");
  for (size_t i = 0; i < flows_.size(); ++i) {
    const Flow& flow = flows_[i];
    if (flow.injected != flow.spec.bytes.count() || flow.delivered != flow.spec.bytes.count()) {
      throw std::logic_error("flow " + std::to_string(flow_base_ + i) + " of " +
                             std::to_string(flow.spec.bytes.count()) + " bytes: " + std::to_string(flow.injected) +
                             " injected, " + std::to_string(flow.delivered) + " delivered");
    }
  }
}

NetworkStats TrainNetwork::stats() const {
  NetworkStats stats = stats_;
  stats.peak_packets_in_flight = peak_.peak();
  stats.trains = trains_formed_;
  stats.reused = reuse_.reused();
  return stats;
}

int64_t TrainNetwork::chunk_size(const Flow& flow, uint32_t chunk) const {
  return std::min(flow.chunk_bytes, flow.spec.bytes.count() - static_cast<int64_t>(chunk) * flow.chunk_bytes);
}

EgressEntry TrainNetwork::own_key(const Flow& flow, uint32_t id, uint32_t chunk) const {
  return EgressEntry::own(fabric_.egress_order, chunk, flow.started_at, flow.spec.route.size(), id, flow.spec.step,
                          flow.spec.place);
}

EgressEntry TrainNetwork::packet_key(const Train& train, uint32_t k) const {
  const Flow& flow = flow_at(train.flow);
  if (train.up == Train::kNone) return own_key(flow, train.flow, train.chunk_of(k));
  return EgressEntry::forwarded(fabric_.egress_order, train.chunk_of(k), train.queued_of(k),
                                flow.spec.route.size() - train.hop, train.flow,
                                static_cast<uint32_t>(train.first_seq + k), flow.spec.step, flow.spec.place);
}

EgressEntry TrainNetwork::incoming_key(const Train& up, uint32_t j) const {
  const Flow& flow = flow_at(up.flow);
  return EgressEntry::forwarded(fabric_.egress_order, up.chunk_of(j), up.landing_of(j),
                                flow.spec.route.size() - (up.hop + 1), up.flow, static_cast<uint32_t>(up.first_seq + j),
                                flow.spec.step, flow.spec.place);
}

void TrainNetwork::start(uint64_t batch, Time now) {
  const auto [first, end] = starts_.fire(batch);
  open_windows(first, end, now);
  for (uint32_t f = first; f < end; ++f) {
    const Flow& flow = flow_at(f);
    if (flow.spec.bytes.count() == 0 || (flow.window != kNoWindow && windows_[flow.window].reusing)) continue;
    queue_own(f, now);
  }
}

void TrainNetwork::push(uint32_t circuit, const Waiting& item) {
  Port& port = ports_[circuit];
  port.heap.push_back(item);
  std::push_heap(port.heap.begin(), port.heap.end(), goes_later);
  ++port.queued;
}

void TrainNetwork::queue_own(uint32_t id, Time now) {
  Flow& flow = flow_at(id);
  drop_own_entry(flow);
  flow.entry_state = kQueued;
  const EgressEntry key = own_key(flow, id, flow.next_chunk);
  push(flow.spec.route.front(), Waiting{key, id, flow.entry_gen, true});
  arrival(flow.spec.route.front(), key, now);
}

void TrainNetwork::drop_own_entry(Flow& flow) {
  if (flow.entry_state == kQueued) --ports_[flow.spec.route.front()].queued;
  flow.entry_state = kNoEntry;
  ++flow.entry_gen;
}

void TrainNetwork::drop_incoming_entry(Train& up) {
  if (up.entry_state == kQueued) --ports_[flow_at(up.flow).spec.route[up.hop + 1]].queued;
  up.entry_state = kNoEntry;
  ++up.entry_gen;
}

void TrainNetwork::requeue_incoming(uint32_t id, Time now) {
  Train& up = trains_[id];
  drop_incoming_entry(up);
  if (up.taken >= up.count) return;
  const Time at = up.landing_of(up.taken);
  // A train's first landing is an event (an arrival there) however soon;
  // packets given back after it landed wait again at once.
  if (at <= now && up.taken > 0) {
    up.entry_state = kQueued;
    push(flow_at(up.flow).spec.route[up.hop + 1], Waiting{incoming_key(up, up.taken), id, up.entry_gen, false});
    return;
  }
  up.entry_state = kPending;
  schedule(std::max(at, now), Kind::arrive, id, up.entry_gen, EventPriority::arrival);
}

void TrainNetwork::arrival(uint32_t circuit, const EgressEntry& key, Time now) {
  Port& port = ports_[circuit];
  if (port.active != Train::kNone && trains_[port.active].serial == port.active_serial && !trains_[port.active].done) {
    const uint32_t id = port.active;
    const Train& train = trains_[id];
    if (train.count > 0 && train.start_of(train.count - 1) >= now) {
      // Its packets that start before now are sent; of the others, those
      // still ahead of the newcomer in the egress order stay.
      // Chosen already: the packets that start before now, and those that
      // start at now once the ports have chosen at now (the newcomer then
      // landed from a choice of this picosecond, with no delay).
      uint32_t k0 = 0;
      const bool chose_now = chose_at_ == now;
      if (train.start < now || (chose_now && train.start == now)) {
        const int64_t elapsed = (now - train.start).picoseconds();
        const int64_t period = train.serialization.picoseconds();
        k0 = static_cast<uint32_t>(chose_now ? elapsed / period + 1 : (elapsed + period - 1) / period);
      }
      const uint32_t keep = first_after(k0, train.count, [&](uint32_t k) { return packet_key(train, k).after(key); });
      if (keep < train.count) shorten(id, keep, now, true);
    }
  }
  wake(circuit, now);
}

void TrainNetwork::wake(uint32_t circuit, Time now) {
  Port& port = ports_[circuit];
  if (port.queued == 0) return;
  const Time at = std::max(now, port.free_at);
  if (port.decide_pending && port.decide_at == at) return;
  port.decide_pending = true;
  port.decide_at = at;
  // One decide event per picosecond, after its landings, as the reference's
  // DecisionBatches: what a choice at t lands at t is heard after every port
  // has chosen at t.
  uint32_t batch = batches_.find(at);
  if (batch == TimeSlots<std::vector<uint32_t>>::kNone) {
    batch = batches_.open(at);
    schedule(at, Kind::decide, batch, 0, EventPriority::normal);
  }
  batches_[batch].push_back(circuit);
}

void TrainNetwork::decide(uint32_t batch, Time now) {
  chose_at_ = now;
  // By index: a port whose serialisation takes no time asks again in this batch.
  for (size_t i = 0; i < batches_[batch].size(); ++i) {
    const uint32_t circuit = batches_[batch][i];
    Port& port = ports_[circuit];
    if (!port.decide_pending || port.decide_at != now) continue;  // asked again for another time
    port.decide_pending = false;
    choose(circuit, now);
  }
  batches_[batch].clear();
  batches_.close(batch);
}

bool TrainNetwork::pop_least(Port& port, Waiting& least) {
  if (peek_least(port) == nullptr) return false;
  std::pop_heap(port.heap.begin(), port.heap.end(), goes_later);
  least = port.heap.back();
  port.heap.pop_back();
  --port.queued;
  if (least.own) {
    flow_at(least.owner).entry_state = kNoEntry;
  } else {
    trains_[least.owner].entry_state = kNoEntry;
  }
  return true;
}

const TrainNetwork::Waiting* TrainNetwork::peek_least(Port& port) {
  while (!port.heap.empty()) {
    const Waiting& top = port.heap.front();
    bool live = false;
    if (top.own) {
      if (top.owner >= flow_base_) {
        const Flow& flow = flow_at(top.owner);
        live = flow.entry_gen == top.gen && flow.entry_state == kQueued;
      }
    } else {
      const Train& up = trains_[top.owner];
      live = up.entry_gen == top.gen && up.entry_state == kQueued;
    }
    if (live) return &top;
    std::pop_heap(port.heap.begin(), port.heap.end(), goes_later);
    port.heap.pop_back();
  }
  return nullptr;
}

uint32_t TrainNetwork::new_train() {
  uint32_t id = 0;
  if (!free_trains_.empty()) {
    id = free_trains_.back();
    free_trains_.pop_back();
    const uint32_t entry_gen = trains_[id].entry_gen;
    const uint32_t done_gen = trains_[id].done_gen;
    trains_[id] = Train{};
    trains_[id].entry_gen = entry_gen + 1;
    trains_[id].done_gen = done_gen + 1;
  } else {
    if (trains_.size() >= UINT32_MAX - 1) throw std::length_error("train pool exhausted");
    id = static_cast<uint32_t>(trains_.size());
    trains_.emplace_back();
  }
  ++trains_alive_;
  trains_[id].serial = next_serial_++;
  return id;
}

void TrainNetwork::choose(uint32_t circuit, Time now) {
  Waiting least;
  if (!pop_least(ports_[circuit], least)) return;
  const Waiting* next = peek_least(ports_[circuit]);
  const bool has_next = next != nullptr;
  const EgressEntry next_key = has_next ? next->key : EgressEntry{};
  const uint32_t id = new_train();
  Train& train = trains_[id];
  Port& port = ports_[circuit];
  train.circuit = circuit;
  train.start = now;
  train.latency = fabric_.latency;
  uint32_t limit = 0;
  if (least.own) {
    Flow& flow = flow_at(least.owner);
    train.flow = least.owner;
    train.hop = 0;
    train.first_seq = flow.next_seq;
    train.chunk0 = flow.next_chunk;
    train.offset0 = flow.offset_in_chunk;
    const int64_t chunk = chunk_size(flow, flow.next_chunk);
    const int64_t packet = segmentation_.packet_size(chunk);
    const int64_t left = chunk - flow.offset_in_chunk;
    if (left < packet) {
      train.bytes = static_cast<uint32_t>(left);
      train.r0 = 1;
      limit = 1;
    } else {
      train.bytes = static_cast<uint32_t>(packet);
      train.r0 = static_cast<uint32_t>(left / packet);
      limit = train.r0;
      if (chunk % packet == 0 && chunk == flow.chunk_bytes) {
        // Later chunks of the same size cut into the same packets: one train.
        const int64_t total = flow.spec.bytes.count();
        const int64_t chunks = (total + flow.chunk_bytes - 1) / flow.chunk_bytes;
        const int64_t last = total - (chunks - 1) * flow.chunk_bytes;
        int64_t more = chunks - 1 - (flow.next_chunk + 1);  // full chunks after this one, before the last
        if (more < 0) more = 0;
        if (flow.next_chunk + 1 <= chunks - 1 && last == chunk) ++more;
        if (more > 0) {
          train.per_chunk = static_cast<uint32_t>(chunk / packet);
          const int64_t count = train.r0 + more * train.per_chunk;
          limit = static_cast<uint32_t>(std::min<int64_t>(count, UINT32_MAX - 1));
        }
      }
    }
  } else {
    Train& up = trains_[least.owner];
    const uint32_t j = up.taken;
    train.flow = up.flow;
    train.hop = up.hop + 1;
    train.first_seq = up.first_seq + j;
    train.bytes = up.bytes;
    train.chunk0 = up.chunk_of(j);
    train.per_chunk = up.per_chunk;
    if (up.per_chunk == 0) {
      train.r0 = UINT32_MAX;
    } else {
      train.r0 = j < up.r0 ? up.r0 - j : up.per_chunk - (j - up.r0) % up.per_chunk;
    }
    train.up = least.owner;
    train.up_first = j;
    train.queued0 = up.landing_of(j);
    train.queued_step = up.serialization;
    limit = up.count - j;
  }
  const Flow& flow = flow_at(train.flow);
  train.serialization = serialization(port, train.bytes);
  const bool last_hop = train.hop + 1 == flow.spec.route.size();
  train.forwardable = router_.forwardable_after(train.bytes, train.serialization, last_hop);
  if (train.serialization == Time::zero()) limit = 1;
  if (train.up != Train::kNone && train.queued_step > train.serialization) {
    // A faster circuit than the one the packets come on: back to back only
    // while they are already here.
    const int64_t slack = (now - train.queued0).picoseconds();
    const int64_t gain = (train.queued_step - train.serialization).picoseconds();
    limit = static_cast<uint32_t>(std::min<int64_t>(limit, slack / gain + 1));
  }
  if (has_next) {
    limit = first_after(1, limit, [&](uint32_t k) { return packet_key(train, k).after(next_key); });
  }
  train.count = limit;
  if (least.own) {
    Flow& own = flow_at(train.flow);
    own.next_seq += train.count;
    const int64_t bytes = static_cast<int64_t>(train.count) * train.bytes;
    own.injected += bytes;
    stats_.packets += train.count;
    stats_.bytes_injected += bytes;
    if (train.per_chunk == 0 || train.count <= train.r0) {
      own.offset_in_chunk = train.offset0 + bytes;
      own.next_chunk = train.chunk0;
      if (own.offset_in_chunk == chunk_size(own, own.next_chunk)) {
        ++own.next_chunk;
        own.offset_in_chunk = 0;
      }
    } else {
      const uint32_t beyond = train.count - train.r0;
      own.next_chunk = train.chunk0 + 1 + beyond / train.per_chunk;
      own.offset_in_chunk = static_cast<int64_t>(beyond % train.per_chunk) * train.bytes;
    }
    if (own.injected < own.spec.bytes.count()) {
      own.entry_state = kQueued;
      ++own.entry_gen;
      push(circuit, Waiting{own_key(own, train.flow, own.next_chunk), train.flow, own.entry_gen, true});
    }
  } else {
    Train& up = trains_[train.up];
    up.taken += train.count;
    ++up.live_consumers;
    up.last_consumer = id;
    up.last_consumer_serial = train.serial;
    requeue_incoming(train.up, now);
  }
  stats_.packet_hops += train.count;
  ++trains_formed_;
  port.active = id;
  port.active_serial = train.serial;
  port.free_at = train.end();
  ++port.on_wire;
  ++train.done_gen;
  // One packet landing as it ends is done when it lands (arrive says so).
  if (last_hop || train.count > 1 || train.done_at() != train.landing_of(0)) {
    schedule(train.done_at(), Kind::done, id, train.done_gen, EventPriority::arrival);
  }
  if (!last_hop) requeue_incoming(id, now);
  wake(circuit, now);
}

void TrainNetwork::shorten(uint32_t id, uint32_t keep, Time now, bool returned) {
  Train& train = trains_[id];
  if (keep >= train.count) return;
  if (train.start_of(keep) < now || (chose_at_ == now && train.start_of(keep) == now)) {
    throw std::logic_error("train of flow " + std::to_string(train.flow) + " split at packet " + std::to_string(keep) +
                           ", which started before now");
  }
  const uint32_t removed = train.count - keep;
  const int64_t bytes = static_cast<int64_t>(removed) * train.bytes;
  stats_.packet_hops -= removed;
  if (train.up == Train::kNone) {
    Flow& flow = flow_at(train.flow);
    flow.next_seq -= removed;
    flow.injected -= bytes;
    stats_.packets -= removed;
    stats_.bytes_injected -= bytes;
    if (train.per_chunk == 0 || keep <= train.r0) {
      flow.next_chunk = train.chunk0;
      flow.offset_in_chunk = train.offset0 + static_cast<int64_t>(keep) * train.bytes;
    } else {
      const uint32_t beyond = keep - train.r0;
      flow.next_chunk = train.chunk0 + 1 + beyond / train.per_chunk;
      flow.offset_in_chunk = static_cast<int64_t>(beyond % train.per_chunk) * train.bytes;
    }
    if (flow.offset_in_chunk == chunk_size(flow, flow.next_chunk)) {
      ++flow.next_chunk;
      flow.offset_in_chunk = 0;
    }
    drop_own_entry(flow);
    flow.entry_state = kQueued;
    push(train.circuit, Waiting{own_key(flow, train.flow, flow.next_chunk), train.flow, flow.entry_gen, true});
  } else if (returned) {
    trains_[train.up].taken = train.up_first + keep;
    requeue_incoming(train.up, now);
  }
  train.count = keep;
  // Downstream: the packets that no longer come.
  if (train.taken > keep) {
    train.taken = keep;
    if (train.last_consumer != Train::kNone && trains_[train.last_consumer].serial == train.last_consumer_serial) {
      const Train& consumer = trains_[train.last_consumer];
      if (consumer.up_first + consumer.count > keep) {
        shorten(train.last_consumer, keep > consumer.up_first ? keep - consumer.up_first : 0, now, false);
      }
    }
  }
  if (train.entry_state != kNoEntry && train.taken >= train.count) drop_incoming_entry(train);
  Port& port = ports_[train.circuit];
  if (keep == 0) {
    // Nothing of it was sent: as if the port had not chosen it.
    port.free_at = train.start;
    port.active = Train::kNone;
    --port.on_wire;
    train.done = true;
    if (train.up != Train::kNone) --trains_[train.up].live_consumers;
    train.taken = 0;
    train.serial = 0;
    --trains_alive_;
    --trains_formed_;
    free_trains_.push_back(id);
  } else {
    port.free_at = train.end();
    ++train.done_gen;
    schedule(train.done_at(), Kind::done, id, train.done_gen, EventPriority::arrival);
  }
  wake(train.circuit, now);
}

void TrainNetwork::done(uint32_t id, Time now) {
  Train& train = trains_[id];
  train.done = true;
  Port& port = ports_[train.circuit];
  --port.on_wire;
  Flow& flow = flow_at(train.flow);
  if (recorder_ != nullptr) {
    recorder_->busy(port.from, port.port, port.to, flow.spec.step, train.start, train.end());
  }
  Window* recording = flow.window != kNoWindow && !windows_[flow.window].reusing ? &windows_[flow.window] : nullptr;
  if (train.hop == 0) {
    peak_.cut(train.start, train.serialization, train.count);
    if (recording != nullptr) {
      add_copy(recording->record.cuts, {train.start - recording->start, train.serialization, train.count, 1});
    }
  }
  const bool last_hop = train.hop + 1 == flow.spec.route.size();
  bool flow_done = false;
  if (last_hop) {
    if (train.first_seq != flow.packets_delivered) {
      throw std::logic_error("flow " + std::to_string(train.flow) + ": packet " + std::to_string(train.first_seq) +
                             " delivered when packet " + std::to_string(flow.packets_delivered) +
                             " was due (a flow's packets must arrive in order)");
    }
    flow.packets_delivered += train.count;
    const int64_t bytes = static_cast<int64_t>(train.count) * train.bytes;
    flow.delivered += bytes;
    stats_.bytes_delivered += bytes;
    peak_.delivered(train.landing_of(0), train.serialization, train.count);
    if (recording != nullptr) {
      add_copy(recording->record.landed, {train.landing_of(0) - recording->start, train.serialization, train.count, 1});
    }
    if (flow.delivered == flow.spec.bytes.count()) {
      --flows_remaining_;
      flow_done = true;
      flow_finished(flow, now);
    }
  }
  const uint32_t flow_id = train.flow;
  const uint32_t up = train.up;
  if (up != Train::kNone) {
    --trains_[up].live_consumers;
    try_release(up);
  }
  try_release(id);
  settle_peak_if_quiescent();
  if (flow_done && listener_ != nullptr) listener_->on_flow_delivered(flow_id, now);
}

void TrainNetwork::try_release(uint32_t id) {
  Train& train = trains_[id];
  if (!train.done || train.serial == 0 || train.live_consumers > 0) return;
  const bool last_hop = train.hop + 1 == flow_at(train.flow).spec.route.size();
  if (!last_hop && train.taken < train.count) return;
  Port& port = ports_[train.circuit];
  if (port.active == id) port.active = Train::kNone;
  train.serial = 0;
  --trains_alive_;
  free_trains_.push_back(id);
}

void TrainNetwork::touch(uint32_t circuit) {
  const uint32_t w = slot_window_[circuit];
  if (w == kNoWindow) return;
  if (windows_[w].reusing) {
    throw std::logic_error("circuit " + std::to_string(circuit) +
                           " used or changed while a reused window holds it (its injector broke the window's "
                           "promise, FlowSpec::window)");
  }
  windows_[w].intact = false;
}

void TrainNetwork::open_windows(uint32_t first, uint32_t end, Time now) {
  if (!reuse_on_ || recorder_ != nullptr) return;
  std::vector<std::pair<uint64_t, uint32_t>>& tagged = tagged_;  // (window, flow)
  tagged.clear();
  for (uint32_t f = first; f < end; ++f) {
    if (flow_at(f).spec.window != 0) tagged.emplace_back(flow_at(f).spec.window, f);
  }
  if (!std::is_sorted(tagged.begin(), tagged.end())) std::sort(tagged.begin(), tagged.end());
  // (circuit, flows of the window over it), in the order the window's flows
  // first cross them: a function of the flows, which the key holds, so equal
  // keys list equal circuits alike.
  std::vector<std::pair<uint32_t, uint32_t>>& crossings = crossings_;
  crossing_of_.resize(ports_.size(), kNoCrossing);
  for (size_t i = 0, j = 0; i < tagged.size(); i = j) {
    while (j < tagged.size() && tagged[j].first == tagged[i].first) ++j;
    const FlowSpec& lead = flow_at(tagged[i].second).spec;
    // Whole (every flow in this start event), of bytes, of one step.
    bool eligible = j - i == lead.window_flows;
    crossings.clear();
    size_t route_words = 0;
    for (size_t k = i; k < j && eligible; ++k) {
      const FlowSpec& spec = flow_at(tagged[k].second).spec;
      eligible = spec.bytes.count() > 0 && spec.step == lead.step && spec.window_flows == lead.window_flows;
      route_words += spec.route.size();
      for (const uint32_t c : spec.route) {
        if (crossing_of_[c] == kNoCrossing) {
          crossing_of_[c] = static_cast<uint32_t>(crossings.size());
          crossings.emplace_back(c, 0);
        }
        ++crossings[crossing_of_[c]].second;
      }
    }
    for (const auto& crossing : crossings) crossing_of_[crossing.first] = kNoCrossing;
    if (!eligible) continue;
    // Idle circuits, carrying nothing else under way or due, no choice pending.
    for (const auto& [c, count] : crossings) {
      const Port& port = ports_[c];
      eligible = eligible && slot_users_[c] == count && slot_window_[c] == kNoWindow && idle(c) &&
                 !port.decide_pending && port.free_at <= now;
    }
    if (!eligible) continue;
    // The key: each flow's bytes, relative place and route; each circuit's
    // state. Hashed as it is walked; built only when its hash was seen before.
    const auto key_words = [&](auto&& emit) {
      emit(static_cast<int64_t>(j - i));
      for (size_t k = i; k < j; ++k) {
        const FlowSpec& spec = flow_at(tagged[k].second).spec;
        emit(spec.bytes.count());
        emit(static_cast<int64_t>(spec.place) - static_cast<int64_t>(lead.place));
        emit(static_cast<int64_t>(spec.route.size()));
        for (const uint32_t c : spec.route) emit(c);
      }
      for (const auto& [c, count] : crossings) {
        const Port& port = ports_[c];
        emit(c);
        emit(port.lit ? 1 : 0);
        emit(port.from);
        emit(port.to);
        emit(port.port);
        emit(port.rate.bps());
      }
    };
    const size_t words = 1 + 3 * (j - i) + route_words + 6 * crossings.size();
    WindowReuse::Hasher hasher;
    WindowReuse::Key& key = window_key_;
    key.resize(words);
    int64_t* out = key.data();
    int64_t* const key_end = out + words;
    key_words([&](int64_t word) {
      if (out == key_end) throw std::logic_error("a reuse key has more words than counted");
      hasher.add(word);
      *out++ = word;
    });
    if (out != key_end) throw std::logic_error("a reuse key has fewer words than counted");
    const uint64_t hash = hasher.value();
    // Moved as usual, unrecorded: a new key once the first-sight budget is spent.
    if (!reuse_.seen_before(hash) && !reuse_.record_at_first_sight(words)) continue;
    const WindowRecord* record = reuse_.find(key, hash);
    uint32_t w = 0;
    if (free_windows_.empty()) {
      w = static_cast<uint32_t>(windows_.size());
      windows_.emplace_back();
    } else {
      w = free_windows_.back();
      free_windows_.pop_back();
    }
    Window& window = windows_[w];
    window.start = now;
    window.left = static_cast<uint32_t>(j - i);
    window.intact = true;
    window.reusing = record != nullptr;
    window.flows.reserve(j - i);
    window.slots.reserve(crossings.size());
    for (size_t k = i; k < j; ++k) {
      Flow& flow = flow_at(tagged[k].second);
      flow.window = w;
      flow.window_index = static_cast<uint32_t>(k - i);
      window.flows.push_back(tagged[k].second);
    }
    for (const auto& crossing : crossings) {
      window.slots.push_back(crossing.first);
      slot_window_[crossing.first] = w;
    }
    if (record != nullptr) {
      reuse(window, *record, now);
    } else {
      window.key = key;
      window.record.deliveries.reserve(j - i);
    }
  }
}

void TrainNetwork::reuse(Window& window, const WindowRecord& record, Time now) {
  int64_t last_bytes = -1;
  uint64_t packets = 0;
  for (const uint32_t id : window.flows) {
    Flow& flow = flow_at(id);
    const int64_t bytes = flow.spec.bytes.count();
    if (bytes != last_bytes) {  // a step's flows are mostly of one size
      last_bytes = bytes;
      packets = static_cast<uint64_t>(segmentation_.packets(flow.spec.bytes));
    }
    flow.injected = bytes;
    flow.next_seq = packets;
    stats_.packets += packets;
    stats_.packet_hops += packets * flow.spec.route.size();
    stats_.bytes_injected += bytes;
  }
  // One event per instant with deliveries: the record's order within it is
  // the order its deliveries were heard, and nothing can come between them.
  window.record.deliveries = record.deliveries;
  const auto& deliveries = window.record.deliveries;
  if (deliveries.size() > kGenMask) throw std::length_error("a reused window of more flows than an event can name");
  const auto w = static_cast<uint32_t>(&window - windows_.data());
  for (size_t i = 0; i < deliveries.size(); ++i) {
    if (i == 0 || deliveries[i].second != deliveries[i - 1].second) {
      schedule(now + deliveries[i].second, Kind::replayed, w, static_cast<uint32_t>(i), EventPriority::arrival);
    }
  }
  for (const WindowRecord::Progression& p : record.cuts) peak_.cut(now + p.first, p.period, p.count, p.copies);
  for (const WindowRecord::Progression& p : record.landed) {
    peak_.delivered(now + p.first, p.period, p.count, p.copies);
  }
  reuse_.count_reuse();
}

void TrainNetwork::replay_deliveries(uint32_t w, uint32_t first, Time now) {
  // The window is let go with its last delivery, which is this instant's
  // last: read what the next one needs before each is heard.
  const Time at = windows_[w].record.deliveries[first].second;
  for (size_t i = first;; ++i) {
    Window& window = windows_[w];
    const uint32_t id = window.flows[window.record.deliveries[i].first];
    const bool last_now = i + 1 == window.record.deliveries.size() || window.record.deliveries[i + 1].second != at;
    Flow& flow = flow_at(id);
    const int64_t bytes = flow.spec.bytes.count();
    flow.delivered = bytes;
    flow.packets_delivered = flow.next_seq;
    stats_.bytes_delivered += bytes;
    --flows_remaining_;
    flow_finished(flow, now);
    settle_peak_if_quiescent();
    if (listener_ != nullptr) listener_->on_flow_delivered(id, now);
    if (last_now) return;
  }
}

void TrainNetwork::flow_finished(Flow& flow, Time now) {
  for (const uint32_t c : flow.spec.route) --slot_users_[c];
  if (flow.window == kNoWindow) return;
  const uint32_t w = flow.window;
  Window& window = windows_[w];
  flow.window = kNoWindow;
  if (!window.reusing) window.record.deliveries.emplace_back(flow.window_index, now - window.start);
  if (--window.left > 0) return;
  // Its circuits are free before anyone hears the last delivery.
  for (const uint32_t c : window.slots) slot_window_[c] = kNoWindow;
  if (!window.reusing && window.intact) reuse_.store(std::move(window.key), std::move(window.record));
  window.clear();
  free_windows_.push_back(w);
}

}  // namespace photonsim
