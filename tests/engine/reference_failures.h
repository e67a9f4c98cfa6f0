#pragma once
// Contract: a second, deliberately simple implementation of the loss,
// detection and resume rules of docs/model.md ("Lost circuits: loss,
// detection and resume", rules L1..L8, on_failure: wait), written from that
// text and not from sim/engine/network/, to check the engine against. It
// extends reference_engine.h's barrier model (whose healthy rules it repeats
// here, so it depends on no other model): every packet is a value, every
// transmission and landing is one event, an idle egress port scans
// everything waiting at it, and the failures are a timeline known in
// advance (a packet's loss is decided when it starts serialising).
//
// Scope: fabric.sync = barrier, fabric.reconfiguration = all, the constant
// reconfiguration model, bandwidth_scope circuit, one flow per transfer (its
// explicit path, else the direct hop src -> dst); fabric.failures entries of
// kind port, switch and flap only, on_failure: wait.
//
// Healthy rules (as reference_engine.h): a barrier between steps; a step
// whose circuits differ from those in place waits reconfig_delay, every step
// pays step_overhead, then its transfers start; transfer i takes the
// (i mod m)-th of the m parallel circuits u -> v; chunks of workload.chunk,
// packets of fabric.packet; a circuit serialises one packet at a time,
// ceil(8 * bytes * 10^12 / bps) ps, and the packet lands `latency` later
// (cut-through: after `header` bytes, whole at its last hop or when not
// larger than the header); the egress orders chunk, fifo and chunk_fifo
// with their ties (own packets counted as queued at the transfer's start).
//
// Where circuits sit (docs/model.md rule 6, `reconfiguration: all`): a GPU's
// i-th circuit out, in the topology's edge order, takes its port i, directed
// or bidirectional, and (L1, read literally) the circuit u -> v on port p
// leaves u's port p, crosses switch p and arrives at v's port p. With
// bidirectional circuits each direction is placed so, by its own sender: the
// edge v -> u of the same pair sits on v's out-index q and u's port q, which
// may differ from p. A step that does not reconfigure keeps the placement
// (and the parallel circuits' numbering) of the configuration in place; the
// initial topology is placed by the same rule. Out of scope: `switch` entries
// at 0, which are failures known when planning (docs/model.md, "Failures
// known when planning": the plan leaves the switch out, circuits move to the
// surviving ones); the constructor refuses them.
//
// Failure rules:
//  - L1: a circuit from GPU a's port p to GPU b's port p is down over the
//    union of [at, at + for) (forever without `for`) of every port/flap
//    entry on (a, p) or (b, p) and every switch entry on p. The union is
//    merged into maximal intervals, intervals that touch ([10, 20) and
//    [20, 30)) joined;
//  - L2: a down interval [x, y) is known down over [x + detection, y), empty
//    when y <= x + detection;
//  - L3: a packet starting on c at s, serialising for σ, c's latency λ,
//    crosses [s, s + σ + λ) and is lost when that meets a down interval of c.
//    It takes the serialiser, counts as a packet-hop and is dropped at its
//    landing at c's far end (the landing event the healthy rules give it);
//  - L4: the destination accepts a flow's packets only in cut order (the
//    next packet it has not accepted), any other is dropped there;
//  - L5: a loss on c, the first down interval [x, y) of c the span meets,
//    makes the flow learn at max(x + detection, s); the earliest over the
//    losses of the packets it cut since its last rewind (a packet already
//    let go by a rewind is dropped anyway: its loss is counted but triggers
//    no second rewind);
//  - L6: at the learning instant the flow rewinds: its packets waiting at an
//    egress port are dropped, those serialising or propagating are dropped
//    where they land, its next packet is the first its destination has not
//    accepted, cut again as before (same chunk, size, place in the egress
//    order: own packets still count as queued at the transfer's start). The
//    bytes it had cut (sent from its source) past that point are resent;
//  - L7: at its start and after every rewind the flow checks its route: if
//    a circuit of it is known down at that instant it sends nothing until the
//    latest end of those known-down intervals, then checks again; once it
//    sends it goes on until it learns of a loss. A flow of 0 bytes sends
//    nothing: it is delivered at its start and never checks;
//  - L8: a check that would wait for a known-down interval with no end stops
//    the run: "cannot complete: GPU g has no working port" when an end g of
//    that circuit (a first, then b) has every port down at that instant
//    through the run's end, else "cannot complete: the transfer from GPU s to
//    GPU d waits for the circuit GPU a port p -> GPU b, down until the end
//    (fabric.failures[i]), and on_failure: wait never routes around it", i
//    the first-listed entry without `for` in that down interval, the circuit
//    the first such on the route. When several flows would stop at one
//    instant the message is the smallest flow's (the transfer's place in
//    its step).
//
// Same-picosecond order, in rounds: at time t, (1) every packet due lands
// (accepted, dropped, or queued at its next port) and every serialiser due
// frees (so a packet landing at t is accepted before its flow rewinds at t,
// as a span [s, t) is untouched by a failure at t); (2) every flow learning
// at t rewinds, in flow order; (3) every flow starting at t,
// rewound at t or whose wait ends at t checks its route (L7) and, if clear,
// queues its packets; (4) only then every idle egress port chooses. A choice
// at t may cause events at t (a zero-time hop: cut-through with a 0-byte
// header and latency 0; a packet sent onto a circuit already known down,
// learnt at once): they form another round at t, in the same order, after
// every port has chosen (so a rewind caused at t never takes back a packet a
// port chose at t: that one is dropped where it lands).
//
// Counters (a run's totals): packet_hops (every transmission over one
// circuit, lost or not); lost_packets/lost_bytes (L3); dropped_packets/bytes
// (every packet cut and never delivered: lost, dropped after a loss, let go
// by a rewind); resent_bytes (L6); rewinds; waited (summed over the flows'
// waits, L7: from the first check that finds the route known down to the one
// that finds it clear).
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/spec/failure_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/schedule.h"

namespace photonsim::reference {

struct FailureStepTimes {
  Time begin;
  Time end;
};

struct FailureTotals {
  uint64_t packet_hops = 0;
  uint64_t lost_packets = 0;
  int64_t lost_bytes = 0;
  uint64_t dropped_packets = 0;
  int64_t dropped_bytes = 0;
  int64_t resent_bytes = 0;
  uint64_t rewinds = 0;
  Time waited;
};

struct FailureReplay {
  // The steps that completed: every step, unless the run cannot complete.
  std::vector<FailureStepTimes> steps;
  FailureTotals totals;
  // L8: the message the run stops with (it starts with "cannot complete:").
  std::optional<std::string> cannot_complete;
};

class ReferenceFailures {
 public:
  ReferenceFailures(FabricSpec fabric, WorkloadSpec workload) : fabric_(std::move(fabric)), workload_(workload) {
    for (const Failure& f : fabric_.failures.entries) {
      if (f.kind != FailureKind::port && f.kind != FailureKind::flap && f.kind != FailureKind::optical_switch) {
        throw std::invalid_argument("reference failures: only port, switch and flap entries are modelled");
      }
    }
    for (const Failure& f : fabric_.failures.entries) {
      if (f.kind == FailureKind::optical_switch && f.at == Time::zero()) {
        throw std::invalid_argument("reference failures: a switch entry at 0 is a failure known when planning");
      }
    }
    if (!fabric_.failures.entries.empty() && fabric_.failures.on_failure != FailurePolicy::wait) {
      throw std::invalid_argument("reference failures: only on_failure: wait is modelled");
    }
  }

  FailureReplay replay(const Schedule& schedule) {
    FailureReplay out;
    totals_ = FailureTotals{};
    cut_packets_ = accepted_packets_ = 0;
    cut_bytes_ = accepted_bytes_ = 0;
    in_place_.clear();
    if (schedule.initial_topology() >= 0) {
      in_place_ = place(schedule.topologies()[static_cast<size_t>(schedule.initial_topology())]);
    }
    Time now = Time::zero();
    try {
      for (size_t s = 0; s < schedule.steps().size(); ++s) {
        const Step& step = schedule.steps()[s];
        FailureStepTimes times;
        times.begin = now;
        Time start = now;
        if (schedule.reconfigures_before(s)) {
          start += fabric_.reconfig_delay;
          in_place_ = place(schedule.topologies()[static_cast<size_t>(step.topology)]);
        }
        start += fabric_.step_overhead;
        times.end = run_step(step, start);
        now = times.end;
        out.steps.push_back(times);
      }
    } catch (const CannotComplete& stop) {
      out.cannot_complete = stop.message;
    }
    out.totals = totals_;
    out.totals.dropped_packets = cut_packets_ - accepted_packets_;
    out.totals.dropped_bytes = cut_bytes_ - accepted_bytes_;
    return out;
  }

  // ceil(8 * bytes * 10^12 / bps) ps.
  static Time serialisation(int64_t bytes, const FabricSpec& fabric) {
    __extension__ using Wide = unsigned __int128;
    const Wide bits_ps = static_cast<Wide>(bytes) * 8 * 1'000'000'000'000ULL;
    const auto bps = static_cast<Wide>(fabric.bandwidth.bps());
    return Time::ps(static_cast<int64_t>((bits_ps + bps - 1) / bps));
  }

 private:
  struct CannotComplete {
    std::string message;
  };
  // A maximal down interval [from, until) (until = Time::max(): to the end)
  // and the entries whose intervals make it up.
  struct Down {
    Time from;
    Time until;
    std::vector<size_t> entries;
  };
  // A placed circuit: from GPU a's port `port` over switch `port` to GPU b's port `port`.
  struct Placed {
    Node a = 0;
    Node b = 0;
    int port = 0;
  };
  struct Circuit {
    Placed ends;
    std::vector<Down> down;
    Time free_at;
    std::vector<size_t> waiting;  // packet indices
  };
  struct Cut {
    int64_t chunk;
    int64_t bytes;
  };
  struct Flow {
    Node src = 0;
    Node dst = 0;
    std::vector<size_t> route;  // circuit indices
    std::vector<Cut> cuts;      // by packet order
    size_t accepted = 0;        // packets its destination accepted (the next one it accepts)
    uint64_t generation = 0;    // rewinds so far
    bool sending = false;       // its packets of this generation are queued
    bool done = false;
    std::optional<Time> waiting_since;
  };
  struct Packet {
    size_t flow;
    size_t seq;     // packet order inside the flow
    int64_t chunk;  // chunk index inside the flow
    int64_t bytes;
    uint64_t generation;
    size_t hop = 0;     // circuits crossed so far
    Time ready;         // when it became sendable where it waits
    bool cut = false;   // it left its source (own packets are cut when sent)
    bool lost = false;  // lost on the circuit it is crossing (L3)
  };
  struct Round {
    std::vector<size_t> landings;                     // packets
    std::vector<std::pair<size_t, uint64_t>> learns;  // (flow, generation)
    std::vector<std::pair<size_t, uint64_t>> checks;  // (flow, generation)
  };

  static Time saturating_add(Time a, Time b) {
    if (a.picoseconds() > Time::max().picoseconds() - b.picoseconds()) return Time::max();
    return a + b;
  }

  // Rule 6 under `all`: u's i-th edge out, in edge order, on its port i,
  // arriving at the receiver's port i (L1). Returns, per edge (u, v) in edge
  // order, its placed ends; the k-th u -> v edge is parallel circuit k of
  // u -> v.
  static std::vector<std::pair<Edge, Placed>> place(const Topology& topology) {
    std::vector<std::pair<Edge, Placed>> placed;
    std::map<Node, int> outs;
    for (const Edge& edge : topology.edges()) {
      const int port = outs[edge.first]++;
      placed.push_back({edge, Placed{edge.first, edge.second, port}});
    }
    return placed;
  }

  // L1: the merged down intervals of a placed circuit.
  std::vector<Down> down_of(const Placed& ends) const {
    std::vector<std::tuple<Time, Time, size_t>> spans;
    const std::vector<Failure>& entries = fabric_.failures.entries;
    for (size_t i = 0; i < entries.size(); ++i) {
      const Failure& f = entries[i];
      bool hits = false;
      if (f.kind == FailureKind::optical_switch) {
        hits = f.optical_switch == ends.port;
      } else {
        hits = f.port == ends.port && (static_cast<Node>(f.gpu) == ends.a || static_cast<Node>(f.gpu) == ends.b);
      }
      if (hits) spans.emplace_back(f.at, f.end(), i);
    }
    return merge(spans);
  }

  // The merged down intervals of GPU g's port q (port/flap entries on it,
  // switch entries on q).
  std::vector<Down> port_down_of(Node g, int q) const {
    std::vector<std::tuple<Time, Time, size_t>> spans;
    const std::vector<Failure>& entries = fabric_.failures.entries;
    for (size_t i = 0; i < entries.size(); ++i) {
      const Failure& f = entries[i];
      const bool hits =
          f.kind == FailureKind::optical_switch ? f.optical_switch == q : static_cast<Node>(f.gpu) == g && f.port == q;
      if (hits) spans.emplace_back(f.at, f.end(), i);
    }
    return merge(spans);
  }

  static std::vector<Down> merge(std::vector<std::tuple<Time, Time, size_t>> spans) {
    std::sort(spans.begin(), spans.end());
    std::vector<Down> out;
    for (const auto& [from, until, entry] : spans) {
      if (until <= from) continue;
      if (!out.empty() && from <= out.back().until) {
        out.back().until = std::max(out.back().until, until);
        out.back().entries.push_back(entry);
      } else {
        out.push_back(Down{from, until, {entry}});
      }
    }
    for (Down& d : out) std::sort(d.entries.begin(), d.entries.end());
    return out;
  }

  // L2: whether `d` is known down at t.
  bool known_down_at(const Down& d, Time t) const {
    const Time known = saturating_add(d.from, fabric_.failures.detection);
    return known < d.until && known <= t && t < d.until;
  }

  // The egress order as a tuple: smaller goes first (reference_engine.h's).
  std::tuple<int64_t, int, int64_t, int64_t, size_t, size_t> rank(const Packet& p, Time step_start) const {
    const bool own = p.hop == 0;
    const auto remaining = static_cast<int64_t>(flows_[p.flow].route.size() - p.hop);
    if (fabric_.egress_order == EgressOrder::fifo) {
      const int64_t queued = own ? step_start.picoseconds() : p.ready.picoseconds();
      return {queued, own ? 1 : 0, 0, -remaining, p.flow, p.seq};
    }
    if (fabric_.egress_order == EgressOrder::chunk_fifo) {
      const int64_t queued = own ? step_start.picoseconds() : p.ready.picoseconds();
      return {p.chunk, 0, 2 * queued + (own ? 1 : 0), -remaining, p.flow, p.seq};
    }
    return {p.chunk, own ? 1 : 0, own ? 0 : p.ready.picoseconds(), -remaining, p.flow, p.seq};
  }

  // The circuit of each hop of transfer `place` (indices into in_place_ and
  // circuits_, one circuit per placed edge): parallel circuit place mod m.
  std::vector<size_t> route_of(const Transfer& t, size_t place) {
    std::vector<Node> path = t.path;
    if (path.empty()) path = {t.src, t.dst};
    std::vector<size_t> route;
    for (size_t h = 0; h + 1 < path.size(); ++h) {
      std::vector<size_t> parallel;
      for (size_t e = 0; e < in_place_.size(); ++e) {
        if (in_place_[e].first == Edge{path[h], path[h + 1]}) parallel.push_back(e);
      }
      if (parallel.empty()) throw std::logic_error("reference failures: hop is not a circuit");
      route.push_back(parallel[place % parallel.size()]);
    }
    return route;
  }

  Time run_step(const Step& step, Time start) {
    packets_.clear();
    flows_.clear();
    events_.clear();
    circuits_.clear();
    for (const auto& [edge, ends] : in_place_) {
      (void)edge;
      circuits_.push_back(Circuit{ends, down_of(ends), Time::zero(), {}});
    }
    end_ = start;
    for (size_t i = 0; i < step.transfers.size(); ++i) {
      const Transfer& t = step.transfers[i];
      Flow flow;
      flow.src = t.src;
      flow.dst = t.dst;
      flow.route = route_of(t, i);
      const int64_t total = t.bytes.count();
      const int64_t chunk = workload_.chunk.count() > 0 ? workload_.chunk.count() : total;
      for (int64_t c = 0; c * chunk < total; ++c) {
        const int64_t chunk_bytes = std::min(chunk, total - c * chunk);
        const int64_t packet = fabric_.packet.count() > 0 ? fabric_.packet.count() : chunk_bytes;
        for (int64_t off = 0; off < chunk_bytes; off += packet) {
          flow.cuts.push_back(Cut{c, std::min(packet, chunk_bytes - off)});
        }
      }
      flow.done = flow.cuts.empty();  // a transfer of no bytes is delivered at its start
      flows_.push_back(std::move(flow));
      if (!flows_.back().done) events_[start].checks.push_back({flows_.size() - 1, 0});
    }
    while (!events_.empty()) {
      auto first = events_.begin();
      const Time now = first->first;
      const Round round = std::move(first->second);
      events_.erase(first);
      // (1) landings (and frees: free_at already says when).
      for (size_t id : round.landings) land(id, now);
      // (2) rewinds.
      std::vector<std::pair<size_t, uint64_t>> checks = round.checks;
      for (const auto& [f, generation] : round.learns) {
        if (flows_[f].done || flows_[f].generation != generation) continue;  // let go by an earlier rewind
        rewind(f);
        checks.push_back({f, flows_[f].generation});
      }
      // (3) checks (L7), in flow order.
      std::sort(checks.begin(), checks.end());
      checks.erase(std::unique(checks.begin(), checks.end()), checks.end());
      for (const auto& [f, generation] : checks) {
        if (flows_[f].done || flows_[f].generation != generation || flows_[f].sending) continue;
        check(f, now);
      }
      // (4) every idle port chooses.
      for (size_t c = 0; c < circuits_.size(); ++c) {
        Circuit& circuit = circuits_[c];
        if (circuit.free_at > now || circuit.waiting.empty()) continue;
        size_t best = 0;
        for (size_t w = 1; w < circuit.waiting.size(); ++w) {
          if (rank(packets_[circuit.waiting[w]], start) < rank(packets_[circuit.waiting[best]], start)) best = w;
        }
        const size_t id = circuit.waiting[best];
        circuit.waiting.erase(circuit.waiting.begin() + static_cast<std::ptrdiff_t>(best));
        send(id, c, now);
      }
    }
    for (const Flow& f : flows_) {
      if (!f.done) throw std::logic_error("reference failures: a flow never completed");
    }
    return end_;
  }

  void land(size_t id, Time now) {
    Packet& p = packets_[id];
    Flow& f = flows_[p.flow];
    if (p.generation != f.generation || p.lost) return;  // L6 / L3: dropped where it lands
    ++p.hop;
    if (p.hop < f.route.size()) {
      p.ready = now;
      circuits_[f.route[p.hop]].waiting.push_back(id);
      return;
    }
    if (p.seq != f.accepted) return;  // L4: out of order after a loss
    ++f.accepted;
    ++accepted_packets_;
    accepted_bytes_ += p.bytes;
    if (f.accepted == f.cuts.size()) {
      f.done = true;
      end_ = std::max(end_, now);
    }
  }

  // L6.
  void rewind(size_t flow) {
    Flow& f = flows_[flow];
    ++totals_.rewinds;
    const uint64_t old = f.generation;
    ++f.generation;
    f.sending = false;
    for (Circuit& c : circuits_) {
      std::erase_if(c.waiting, [&](size_t id) { return packets_[id].flow == flow; });
    }
    for (const Packet& p : packets_) {
      if (p.flow == flow && p.generation == old && p.cut && p.seq >= f.accepted) {
        totals_.resent_bytes += p.bytes;
      }
    }
  }

  // L7 (and L8).
  void check(size_t flow, Time now) {
    Flow& f = flows_[flow];
    Time until = Time::zero();
    bool blocked = false;
    for (size_t c : f.route) {
      for (const Down& d : circuits_[c].down) {
        if (known_down_at(d, now)) {
          blocked = true;
          until = std::max(until, d.until);
        }
      }
    }
    if (!blocked) {
      if (f.waiting_since) {
        totals_.waited += now - *f.waiting_since;
        f.waiting_since.reset();
      }
      f.sending = true;
      for (size_t seq = f.accepted; seq < f.cuts.size(); ++seq) {
        packets_.push_back(Packet{flow, seq, f.cuts[seq].chunk, f.cuts[seq].bytes, f.generation, 0, now, false, false});
        circuits_[f.route.front()].waiting.push_back(packets_.size() - 1);
      }
      return;
    }
    if (until == Time::max()) throw CannotComplete{cannot_complete_message(f, now)};
    if (!f.waiting_since) f.waiting_since = now;
    events_[until].checks.push_back({flow, f.generation});
  }

  std::string cannot_complete_message(const Flow& f, Time now) const {
    for (size_t c : f.route) {
      for (const Down& d : circuits_[c].down) {
        if (!known_down_at(d, now) || d.until != Time::max()) continue;
        const Placed& ends = circuits_[c].ends;
        for (Node g : {ends.a, ends.b}) {
          bool every_port_down = true;
          for (int q = 0; q < fabric_.ports && every_port_down; ++q) {
            bool down_to_the_end = false;
            for (const Down& pd : port_down_of(g, q)) {
              if (pd.from <= now && now < pd.until && pd.until == Time::max()) down_to_the_end = true;
            }
            every_port_down = down_to_the_end;
          }
          if (every_port_down) return "cannot complete: GPU " + std::to_string(g) + " has no working port";
        }
        size_t entry = d.entries.front();
        for (size_t i : d.entries) {
          if (!fabric_.failures.entries[i].duration) {
            entry = i;
            break;
          }
        }
        return "cannot complete: the transfer from GPU " + std::to_string(f.src) + " to GPU " + std::to_string(f.dst) +
               " waits for the circuit GPU " + std::to_string(ends.a) + " port " + std::to_string(ends.port) +
               " -> GPU " + std::to_string(ends.b) + ", down until the end (fabric.failures[" + std::to_string(entry) +
               "]), and on_failure: wait never routes around it";
      }
    }
    throw std::logic_error("reference failures: no circuit down to the end");
  }

  void send(size_t id, size_t circuit, Time now) {
    Packet& p = packets_[id];
    const Flow& f = flows_[p.flow];
    const Time whole = serialisation(p.bytes, fabric_);
    const bool last_hop = p.hop + 1 == f.route.size();
    Time until_forwardable = whole;
    if (fabric_.router == RouterMode::cut_through && !last_hop && p.bytes > fabric_.header.count()) {
      until_forwardable = serialisation(fabric_.header.count(), fabric_);
    }
    ++totals_.packet_hops;
    if (p.hop == 0) {
      p.cut = true;
      ++cut_packets_;
      cut_bytes_ += p.bytes;
    }
    // L3: the span [now, now + whole + latency) meets a down interval.
    const Time crossed = now + whole + fabric_.latency;
    for (const Down& d : circuits_[circuit].down) {
      if (d.from < crossed && now < d.until) {
        p.lost = true;
        ++totals_.lost_packets;
        totals_.lost_bytes += p.bytes;
        // L5.
        const Time learns = std::max(saturating_add(d.from, fabric_.failures.detection), now);
        events_[learns].learns.push_back({p.flow, p.generation});
        break;
      }
    }
    circuits_[circuit].free_at = now + whole;
    events_[now + whole];  // a round when the serialiser frees
    events_[now + until_forwardable + fabric_.latency].landings.push_back(id);
  }

  FabricSpec fabric_;
  WorkloadSpec workload_;
  FailureTotals totals_;
  uint64_t cut_packets_ = 0;
  int64_t cut_bytes_ = 0;
  uint64_t accepted_packets_ = 0;
  int64_t accepted_bytes_ = 0;
  std::vector<std::pair<Edge, Placed>> in_place_;  // the configuration in place, placed
  std::vector<Circuit> circuits_;
  std::vector<Flow> flows_;
  std::vector<Packet> packets_;
  std::map<Time, Round> events_;
  Time end_;
};

}  // namespace photonsim::reference
