#pragma once
// Contract: a second, deliberately simple implementation of the execution
// modes of docs/model.md's "Beyond the barrier" (fabric.sync: dataflow,
// fabric.reconfiguration: changed), written from the text and not from
// sim/engine/dependency_run.cpp, to check the fast engine against. Same style
// as reference_engine.h: every packet a value, one event per transmission
// and landing, an idle port scanning everything waiting there; control state
// (releases, reconfigurations, barriers) is re-derived by scanning every
// transfer and group whenever a transfer is delivered or a timer fires.
//
// The rules it implements, on top of reference_engine.h's forwarding rules:
//  - sync = dataflow: a transfer of step s leaving u is released once every
//    transfer of an earlier step into u that carried one of its blocks has
//    been delivered (no blocks named: every earlier transfer into u); the
//    release is the latest such delivery (0 when there is none). Transfers of
//    one step never wait for each other, and a transfer naming blocks does
//    not wait for one into u naming none;
//  - sync = barrier: step s's transfers are released at the barrier, when
//    step s-1 ended (0 for step 0);
//  - an empty step is one transfer of no bytes from no sender over the ports
//    its step's reconfiguration changes: released at the barrier (dataflow:
//    at 0, it waits for no data), it starts once those ports are lit, pays
//    step_overhead, is delivered then and holds those ports until then;
//  - a released transfer starts when the circuits on its route are lit for
//    its step, then pays step_overhead, and its packets queue at its first
//    port (fifo: queued at that start); a transfer of 0 bytes is delivered
//    when it starts;
//  - reconfiguration = all: before a step whose topology differs, every port
//    with a circuit in place or wanted is in its step's group, as below (from
//    no circuits to none: a group of no port, which an empty step still waits
//    for);
//  - reconfiguration = changed, one port per GPU (directed or bidirectional):
//    GPU u's port changes when its circuit (u's one circuit out) differs from
//    the one in place; a step's changed ports form one group, commanded once
//    each of them has drained (every transfer of an earlier step with a hop
//    out of that port delivered) and each one's previous change has been
//    commanded (sync = barrier: and the barrier has come); a port that does
//    not change keeps its circuit, its queue and its traffic;
//  - a commanded group lights reconfig_delay after its command; a port
//    commanded again before it lit lights only with the later command (the
//    earlier target never lights);
//  - a circuit is "lit for step s" once the latest reconfiguration at or
//    before s that changed its port has lit (the initial topology: at 0);
//  - egress order with steps overlapping: chunk: (step, chunk index,
//    forwarded before own, forwarded by the time they became ready),
//    chunk_fifo: (step, chunk index, time queued, forwarded before own),
//    fifo: (time queued, forwarded before own); then the longer remaining route,
//    the smaller flow (transfers numbered step by step, then by place), the
//    packet order;
//  - a step begins at the barrier (sync = barrier) or at its earliest release
//    (dataflow) and ends at its last delivery; completion is the latest end.
// Covered (covers()): every transfer on an explicit path or one hop, no
// multipath routes; with reconfiguration = changed, ports = 1 (directed or
// bidirectional: k > 1 directed ports need the switch placement of
// switch/circuit_plan.h, k > 1 bidirectional ports docs/model.md's choice of port,
// tested by hand in dependency_run_test.cpp).
#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "tests/engine/reference_engine.h"

namespace photonsim::reference {

// The engine's present departures from docs/model.md (default: docs/model.md).

struct DataflowTimes {
  std::vector<StepTimes> steps;
  // Per step, the dark time it exposed: within [begin, end], the time covered
  // by [command, lit] of the reconfigurations its transfers wait for.
  std::vector<Time> reconfiguration;
  Time completion;
};

class ReferenceDataflow {
 public:
  ReferenceDataflow(FabricSpec fabric, WorkloadSpec workload) : fabric_(fabric), workload_(workload) {}

  static bool covers(const FabricSpec& fabric, const Schedule& schedule) {
    if (fabric.reconfiguration == ReconfigurationScope::changed && fabric.ports != 1) return false;
    for (const Step& step : schedule.steps()) {
      for (const Transfer& t : step.transfers) {
        if (!t.routes.empty()) return false;
      }
    }
    return true;
  }

  DataflowTimes replay(const Schedule& schedule) {
    if (!covers(fabric_, schedule)) throw std::invalid_argument("reference: a case the dataflow model does not cover");
    build(schedule);
    Time now = Time::zero();
    settle(now);
    for (;;) {
      for (size_t c = 0; c < circuits_.size(); ++c) {
        Circuit& circuit = circuits_[c];
        if (circuit.free_at > now || circuit.waiting.empty()) continue;
        size_t best = 0;
        for (size_t w = 1; w < circuit.waiting.size(); ++w) {
          if (rank(packets_[circuit.waiting[w]]) < rank(packets_[circuit.waiting[best]])) best = w;
        }
        const size_t id = circuit.waiting[best];
        circuit.waiting.erase(circuit.waiting.begin() + static_cast<std::ptrdiff_t>(best));
        send(id, c, now);
      }
      if (events_.empty()) break;
      auto first = events_.begin();
      now = first->first;
      const std::vector<Event> due = std::move(first->second);
      events_.erase(first);
      bool control = false;
      for (const Event& e : due) {
        if (e.kind == Kind::free) continue;  // free_at already says when
        if (e.kind == Kind::wake) {
          control = true;
          continue;
        }
        Packet& p = packets_[e.index];
        TransferState& x = transfers_[p.transfer];
        ++p.hop;
        if (p.hop == x.route.size()) {
          if (--x.packets_left == 0) {
            x.delivered = now;
            control = true;
          }
        } else {
          p.ready = now;
          circuits_[x.route[p.hop]].waiting.push_back(e.index);
        }
      }
      if (control) settle(now);
    }
    return times(schedule);
  }

 private:
  struct Group {
    size_t step = 0;
    std::vector<Node> ports;  // the GPUs whose port is in it (all: in place or wanted; changed: changes)
    std::optional<Time> dark;
    Time lit;
    bool covers(Node u) const { return std::find(ports.begin(), ports.end(), u) != ports.end(); }
    bool shares(const Group& o) const {
      return std::any_of(ports.begin(), ports.end(), [&](Node u) { return o.covers(u); });
    }
  };
  struct TransferState {
    size_t step = 0;
    size_t flow = 0;                // step by step, then by place
    std::vector<size_t> route;      // physical circuits
    std::vector<Node> ports;        // the GPU each hop leaves (its port, ports = 1)
    std::vector<size_t> waits_for;  // dataflow: transfers it waits for
    int64_t bytes = 0;
    std::optional<Time> released;
    std::optional<Time> start;
    std::optional<Time> delivered;
    bool injected = false;
    size_t packets_left = 0;
    const Group* own_group = nullptr;  // an empty step's stand-in: its step's reconfiguration
  };
  struct Packet {
    size_t transfer;
    size_t seq;
    int64_t chunk;
    int64_t bytes;
    size_t hop = 0;
    Time ready;
  };
  struct Circuit {
    Time free_at;
    std::vector<size_t> waiting;
  };
  enum class Kind { land, free, wake };
  struct Event {
    Kind kind;
    size_t index;
  };

  bool barrier_sync() const { return fabric_.sync == SyncMode::barrier; }

  // GPU u's one circuit out under `topology` (-1: none); ports = 1 only.
  static int out_of(const Topology* topology, Node u) {
    if (topology == nullptr) return -1;
    for (const Edge& e : topology->edges()) {
      if (e.first == u) return static_cast<int>(e.second);
    }
    return -1;
  }

  void build(const Schedule& schedule) {
    transfers_.clear();
    groups_.clear();
    packets_.clear();
    circuits_.clear();
    circuit_ids_.clear();
    events_.clear();
    const auto& steps = schedule.steps();
    source_.clear();
    for (size_t s = 0; s < steps.size(); ++s) {
      const Topology& topology = schedule.topologies()[static_cast<size_t>(steps[s].topology)];
      for (size_t place = 0; place < steps[s].transfers.size(); ++place) {
        const Transfer& t = steps[s].transfers[place];
        TransferState x;
        x.step = s;
        x.flow = transfers_.size();
        x.bytes = t.bytes.count();
        std::vector<Node> path = t.path;
        if (path.empty()) path = {t.src, t.dst};
        for (size_t h = 0; h + 1 < path.size(); ++h) {
          size_t parallel = 0;
          for (const Edge& e : topology.edges()) parallel += e == Edge{path[h], path[h + 1]} ? 1 : 0;
          if (parallel == 0) throw std::logic_error("reference: hop is not a circuit");
          // Physical circuit u -> v number j: the same circuit in every step
          // until a reconfiguration, which drains it first.
          const auto key = std::make_tuple(path[h], path[h + 1], place % parallel);
          auto [it, fresh] = circuit_ids_.emplace(key, circuits_.size());
          if (fresh) circuits_.push_back(Circuit{});
          x.route.push_back(it->second);
          x.ports.push_back(path[h]);
        }
        transfers_.push_back(std::move(x));
        source_.push_back(&t);
      }
    }
    // Dataflow dependencies, by the blocks each transfer carries.
    for (size_t i = 0; i < transfers_.size(); ++i) {
      const Transfer& t = *source_[i];
      for (size_t j = 0; j < transfers_.size(); ++j) {
        if (transfers_[j].step >= transfers_[i].step || source_[j]->dst != t.src) continue;
        bool carries = t.blocks.empty();
        for (uint32_t b : t.blocks) {
          const auto& in = source_[j]->blocks;
          carries = carries || std::find(in.begin(), in.end(), b) != in.end();
        }
        if (carries) transfers_[i].waits_for.push_back(j);
      }
    }
    // Reconfigurations.
    for (size_t s = 0; s < steps.size(); ++s) {
      if (!schedule.reconfigures_before(s)) continue;
      Group g;
      g.step = s;
      const Topology* before = nullptr;
      if (s > 0) {
        before = &schedule.topologies()[static_cast<size_t>(steps[s - 1].topology)];
      } else if (schedule.initial_topology() >= 0) {
        before = &schedule.topologies()[static_cast<size_t>(schedule.initial_topology())];
      }
      const Topology* after = &schedule.topologies()[static_cast<size_t>(steps[s].topology)];
      if (fabric_.reconfiguration == ReconfigurationScope::all) {
        // Every port with a circuit in place or wanted (from no circuits to
        // none: no port, dark for its own step only).
        for (Node u = 0; u < static_cast<Node>(fabric_.gpus); ++u) {
          if (out_of(before, u) >= 0 || out_of(after, u) >= 0) g.ports.push_back(u);
        }
      } else {
        for (Node u = 0; u < static_cast<Node>(fabric_.gpus); ++u) {
          if (out_of(before, u) != out_of(after, u)) g.ports.push_back(u);
        }
        if (g.ports.empty()) continue;  // from no circuits to none: nothing goes dark
      }
      groups_.push_back(g);
    }
    // Empty steps' stand-ins, after every real transfer (their flow numbers
    // come last and no transfer waits for them).
    step_transfers_.assign(steps.size(), 0);
    for (const TransferState& x : transfers_) ++step_transfers_[x.step];
    for (size_t s = 0; s < steps.size(); ++s) {
      if (step_transfers_[s] > 0) continue;
      TransferState x;
      x.step = s;
      x.flow = transfers_.size();
      if (const Group* g = group_of_step(s)) {
        x.own_group = g;
        for (Node u = 0; u < static_cast<Node>(fabric_.gpus); ++u) {
          if (g->covers(u)) x.ports.push_back(u);
        }
      }
      transfers_.push_back(std::move(x));
      ++step_transfers_[s];
    }
    barrier_.assign(steps.size(), std::nullopt);
  }

  void wake(Time at) { events_[at].push_back(Event{Kind::wake, 0}); }

  const Group* group_of_step(size_t s) const {
    for (const Group& g : groups_) {
      if (g.step == s) return &g;
    }
    return nullptr;
  }

  // When x's circuits are lit for its step; nullopt while one is not yet known.
  std::optional<Time> lit_for(const TransferState& x) const {
    Time lit = Time::zero();
    if (x.own_group != nullptr) {
      if (!x.own_group->dark) return std::nullopt;
      lit = x.own_group->lit;
    }
    for (Node u : x.ports) {
      const Group* latest = nullptr;
      for (const Group& g : groups_) {
        if (g.step <= x.step && g.covers(u)) latest = &g;
      }
      if (latest == nullptr) continue;
      if (!latest->dark) return std::nullopt;
      lit = std::max(lit, latest->lit);
    }
    return lit;
  }

  // When g may go dark, if everything it waits for has happened by `now`.
  std::optional<Time> dark_at(const Group& g, Time now) const {
    Time at = Time::zero();
    if (barrier_sync()) {
      if (!barrier_[g.step] || *barrier_[g.step] > now) return std::nullopt;
      at = *barrier_[g.step];
    }
    for (const Group& o : groups_) {
      if (o.step >= g.step || !o.shares(g)) continue;
      if (!o.dark) return std::nullopt;
      at = std::max(at, *o.dark);
    }
    for (const TransferState& y : transfers_) {
      if (y.step >= g.step) continue;
      if (!std::any_of(y.ports.begin(), y.ports.end(), [&](Node u) { return g.covers(u); })) continue;
      if (!y.delivered) return std::nullopt;
      at = std::max(at, *y.delivered);
    }
    return at;
  }

  // Everything that follows from the deliveries and timers up to `now`.
  void settle(Time now) {
    for (bool progress = true; progress;) {
      progress = false;
      if (barrier_sync()) {
        for (size_t s = 0; s < barrier_.size(); ++s) {
          if (barrier_[s]) continue;
          std::optional<Time> end_before = s == 0 ? std::optional<Time>(Time::zero()) : step_end(s - 1);
          if (!end_before) continue;
          barrier_[s] = *end_before;
          wake(*end_before);
          progress = true;
        }
      }
      for (Group& g : groups_) {
        if (g.dark) continue;
        if (const std::optional<Time> at = dark_at(g, now)) {
          g.dark = *at;
          g.lit = *at + fabric_.reconfig_delay;
          wake(g.lit);
          progress = true;
        }
      }
      for (size_t i = 0; i < transfers_.size(); ++i) {
        TransferState& x = transfers_[i];
        if (!x.released) {
          if (barrier_sync()) {
            if (barrier_[x.step] && *barrier_[x.step] <= now) x.released = *barrier_[x.step];
          } else {
            Time at = Time::zero();
            bool ready = true;
            for (size_t j : x.waits_for) {
              ready = ready && transfers_[j].delivered.has_value();
              if (transfers_[j].delivered) at = std::max(at, *transfers_[j].delivered);
            }
            if (ready) x.released = at;
          }
          progress = progress || x.released.has_value();
        }
        if (x.released && !x.start) {
          if (const std::optional<Time> lit = lit_for(x)) {
            x.start = std::max(*x.released, *lit) + fabric_.step_overhead;
            wake(*x.start);
            progress = true;
          }
        }
        if (x.start && !x.injected && *x.start <= now) {
          inject(i);
          progress = true;
        }
      }
    }
  }

  // The end of step s once it is known (every transfer delivered).
  std::optional<Time> step_end(size_t s) const {
    Time end = Time::zero();
    for (const TransferState& x : transfers_) {
      if (x.step != s) continue;
      if (!x.delivered) return std::nullopt;
      end = std::max(end, *x.delivered);
    }
    return end;
  }

  void inject(size_t i) {
    TransferState& x = transfers_[i];
    x.injected = true;
    const int64_t total = x.bytes;
    const int64_t chunk = workload_.chunk.count() > 0 ? workload_.chunk.count() : total;
    size_t seq = 0;
    for (int64_t c = 0; c * chunk < total; ++c) {
      const int64_t chunk_bytes = std::min(chunk, total - c * chunk);
      const int64_t packet = fabric_.packet.count() > 0 ? fabric_.packet.count() : chunk_bytes;
      for (int64_t off = 0; off < chunk_bytes; off += packet) {
        packets_.push_back(Packet{i, seq++, c, std::min(packet, chunk_bytes - off), 0, *x.start});
        circuits_[x.route.front()].waiting.push_back(packets_.size() - 1);
      }
    }
    x.packets_left = seq;
    if (seq == 0) x.delivered = *x.start;
  }

  // The egress order as a tuple: smaller goes first.
  std::tuple<int64_t, int64_t, int, int64_t, int64_t, size_t, size_t> rank(const Packet& p) const {
    const TransferState& x = transfers_[p.transfer];
    const bool own = p.hop == 0;
    const auto remaining = static_cast<int64_t>(x.route.size() - p.hop);
    if (fabric_.egress_order == EgressOrder::fifo) {
      const int64_t queued = own ? x.start->picoseconds() : p.ready.picoseconds();
      return {queued, 0, own ? 1 : 0, 0, -remaining, x.flow, p.seq};
    }
    if (fabric_.egress_order == EgressOrder::chunk_fifo) {
      const int64_t queued = own ? x.start->picoseconds() : p.ready.picoseconds();
      return {static_cast<int64_t>(x.step), p.chunk, 0, 2 * queued + (own ? 1 : 0), -remaining, x.flow, p.seq};
    }
    return {
        static_cast<int64_t>(x.step), p.chunk, own ? 1 : 0, own ? 0 : p.ready.picoseconds(), -remaining, x.flow, p.seq};
  }

  void send(size_t id, size_t circuit, Time now) {
    const Packet& p = packets_[id];
    const Time whole = serialization_of(p.bytes, fabric_);
    const bool last_hop = p.hop + 1 == transfers_[p.transfer].route.size();
    Time until_forwardable = whole;
    if (fabric_.router == RouterMode::cut_through && !last_hop && p.bytes > fabric_.header.count()) {
      until_forwardable = serialization_of(fabric_.header.count(), fabric_);
    }
    circuits_[circuit].free_at = now + whole;
    events_[now + whole].push_back(Event{Kind::free, circuit});
    events_[now + until_forwardable + fabric_.latency].push_back(Event{Kind::land, id});
  }

  DataflowTimes times(const Schedule& schedule) const {
    DataflowTimes out;
    for (const TransferState& x : transfers_) {
      if (!x.delivered) throw std::logic_error("reference: a transfer never finished");
    }
    for (size_t s = 0; s < schedule.steps().size(); ++s) {
      StepTimes t{Time::zero(), Time::zero()};
      if (barrier_sync()) {
        t.begin = *barrier_[s];
      } else {
        std::optional<Time> first;
        for (const TransferState& x : transfers_) {
          if (x.step == s) first = first ? std::min(*first, *x.released) : *x.released;
        }
        t.begin = *first;
      }
      t.end = *step_end(s);
      out.completion = std::max(out.completion, t.end);
      out.steps.push_back(t);
      // Exposed dark time, picosecond by picosecond over the step's span
      // is too slow; instead: the waited-for groups' spans, clipped, merged.
      std::vector<const Group*> waited;
      for (const TransferState& x : transfers_) {
        if (x.step != s) continue;
        if (x.own_group != nullptr && std::find(waited.begin(), waited.end(), x.own_group) == waited.end())
          waited.push_back(x.own_group);
        for (Node u : x.ports) {
          const Group* latest = nullptr;
          for (const Group& g : groups_) {
            if (g.step <= x.step && g.covers(u)) latest = &g;
          }
          if (latest != nullptr && std::find(waited.begin(), waited.end(), latest) == waited.end())
            waited.push_back(latest);
        }
      }
      std::vector<std::pair<Time, Time>> spans;
      for (const Group* g : waited) {
        const Time from = std::max(*g->dark, t.begin), to = std::min(g->lit, t.end);
        if (from < to) spans.emplace_back(from, to);
      }
      std::sort(spans.begin(), spans.end());
      Time exposed = Time::zero(), covered = t.begin;
      for (const auto& [from, to] : spans) {
        if (to <= covered) continue;
        exposed += to - std::max(from, covered);
        covered = to;
      }
      out.reconfiguration.push_back(exposed);
    }
    return out;
  }

  FabricSpec fabric_;
  WorkloadSpec workload_;
  std::vector<TransferState> transfers_;
  std::vector<const Transfer*> source_;  // per transfer: the schedule's transfer
  std::vector<Group> groups_;
  std::vector<std::optional<Time>> barrier_;  // sync = barrier: when step s may start
  std::vector<size_t> step_transfers_;
  std::vector<Packet> packets_;
  std::map<std::tuple<Node, Node, size_t>, size_t> circuit_ids_;
  std::vector<Circuit> circuits_;
  std::map<Time, std::vector<Event>> events_;
};

}  // namespace photonsim::reference
