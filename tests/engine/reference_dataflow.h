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
//  - reconfiguration = changed, directed circuits on one port per GPU: GPU
//    u's port is its transmitter; it keeps its circuit while it still leads
//    to the same GPU and changes when that GPU differs (rule 1; the receiver
//    at the far end never goes dark, rule 4); a hop u -> v uses u's port;
//  - reconfiguration = changed, bidirectional circuits on any number of ports
//    (rule 6): ports are (GPU, port number); a circuit {u, v} (u < v) is a
//    port of each, placed, kept and changed whole: the pairs in increasing
//    (u, v) first each keep the up to m lowest-numbered circuits in place
//    between them, in their order, then, pair by pair, each new circuit takes the
//    smallest free port at u and at v; the initial circuits are placed as
//    if step 0's configuration, placed first from no circuits, were in place.
//    A port changes when the port at its circuit's other end (or none)
//    differs (rule 1), so both ends of a changed circuit go dark and a kept
//    one keeps both lit (rule 4); a hop u -> v uses both ends of its circuit:
//    it waits for both to be lit for its step and a later change of either
//    waits for it to be delivered (rules 2 and 5);
//  - routing (changed): transfer i of a step takes the pair's parallel
//    circuit i mod m, numbered kept circuits first, in their order in the
//    configuration in place, then new ones by increasing port at the
//    lower-numbered GPU; placed afresh at every step from the configuration
//    in place, so a step without a reconfiguration keeps every circuit and
//    its number;
//  - reconfiguration = changed: a physical circuit is one identity, and one
//    egress queue per direction, for as long as it is kept, so packets of
//    several steps on a kept circuit share its queues; a re-placed circuit
//    is a new one. A step's changed ports form one group (one port, or
//    bidirectional), commanded once each of them has drained (every transfer
//    of an earlier step with a hop over that port delivered, an empty step
//    holding it included) and each one's previous change has been commanded
//    (sync = barrier: and the barrier has come); a port that does not change
//    keeps its circuit, its queue and its traffic. A reconfiguration that
//    changes no port (from no circuits to none) is no group: nothing goes
//    dark, an empty step there ends step_overhead after its begin and
//    exposes 0;
//  - egress order with steps overlapping: chunk: (step, chunk index,
//    forwarded before own, forwarded by the time they became ready),
//    chunk_fifo: (step, chunk index, time queued, forwarded before own),
//    fifo: (time queued, forwarded before own); then the longer remaining route,
//    the smaller flow (transfers numbered step by step, then by place), the
//    packet order;
//  - a step begins at the barrier (sync = barrier) or at its earliest release
//    (dataflow) and ends at its last delivery; completion is the latest end;
//  - a step's exposed dark time (its `reconfiguration`): within [begin, end],
//    the union of [command, lit] of the groups its transfers wait for (the
//    latest at or before the step on each port they use; an empty step: its
//    own).
// Covered (covers()): every transfer on an explicit path or one hop, no
// multipath routes; with reconfiguration = changed, directed circuits on
// one port or bidirectional circuits on any number. Not covered (covers()
// false): directed circuits on k > 1 ports under changed (rule 6's switch
// placement (a)-(d), one group per switch; tested by hand in
// reconfiguration_rules_test.cpp and circuit_plan_test.cpp) and multipath
// routes. Not modelled at all: task graphs, bandwidth_scope: gpu.
#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "tests/engine/reference_engine.h"

namespace photonsim::reference {

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
    // Directed circuits on k > 1 ports under `changed` need the switch
    // placement of docs/model.md's rule 6 (a)-(d): not modelled here.
    if (fabric.reconfiguration == ReconfigurationScope::changed && fabric.circuits == CircuitKind::directed &&
        fabric.ports != 1)
      return false;
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
  // A port is a number: under `all`, and directed circuits on one port under
  // `changed`, the GPU (all of a GPU's ports go dark together there, and a
  // directed hop u -> v uses only u's transmitter); bidirectional circuits
  // under `changed`: GPU u's port p is u * ports + p.
  using Port = size_t;
  struct Group {
    size_t step = 0;
    std::vector<Port> ports;  // all: every port in place or wanted; changed: the ports that change
    std::optional<Time> dark;
    Time lit;
    bool covers(Port u) const { return std::find(ports.begin(), ports.end(), u) != ports.end(); }
    bool shares(const Group& o) const {
      return std::any_of(ports.begin(), ports.end(), [&](Port u) { return o.covers(u); });
    }
  };
  // The physical circuit a hop u -> v of a step takes: its egress queue (the
  // circuit's u -> v direction) and the ports it needs lit and that must
  // drain it before they change.
  struct Hop {
    size_t queue = 0;
    std::vector<Port> ports;
  };
  using HopKey = std::tuple<Node, Node, size_t>;  // u -> v, parallel circuit number j
  // Under `changed`: what one port carries. peer: bidirectional, the port at
  // the circuit's other end; directed (one port), the GPU its transmitter
  // leads to; -1: no circuit. circuit: the physical circuit's identity, kept
  // as long as the circuit is.
  struct Holds {
    int64_t peer = -1;
    size_t circuit = 0;
  };
  struct Placement {
    std::vector<Holds> ports;
    // A pair's parallel circuits, numbered (kept ones first, then new ones):
    // directed, key (u, v); bidirectional, key (min, max).
    std::map<std::pair<Node, Node>, std::vector<size_t>> numbered;
  };
  struct TransferState {
    size_t step = 0;
    size_t flow = 0;                // step by step, then by place
    std::vector<size_t> route;      // physical circuits
    std::vector<Port> ports;        // the ports its hops use
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

  bool changed_scope() const { return fabric_.reconfiguration == ReconfigurationScope::changed; }
  bool bidirectional_ports() const { return changed_scope() && fabric_.circuits == CircuitKind::bidirectional; }

  // GPU u's first circuit out under `topology` (-1: none).
  static int out_of(const Topology* topology, Node u) {
    if (topology == nullptr) return -1;
    for (const Edge& e : topology->edges()) {
      if (e.first == u) return static_cast<int>(e.second);
    }
    return -1;
  }

  const Topology& topology_of(const Schedule& schedule, int index) const {
    return schedule.topologies()[static_cast<size_t>(index)];
  }

  // docs/model.md rule 6, bidirectional circuits on any number of ports: the
  // pairs {u, v} (u < v) in increasing (u, v) each keep the up to m
  // lowest-numbered circuits in place between them, in their order; then,
  // pair by pair, each new circuit takes the smallest free port at u and at v.
  Placement place_bidirectional(const Placement& before, const Topology& topology) {
    const auto k = static_cast<size_t>(fabric_.ports);
    Placement after;
    after.ports.assign(before.ports.size(), Holds{});
    std::map<std::pair<Node, Node>, size_t> wanted;  // m per pair
    for (const Edge& e : topology.edges()) {
      if (e.first < e.second) ++wanted[{e.first, e.second}];
    }
    for (const auto& [uv, m] : wanted) {
      const auto [u, v] = uv;
      std::vector<size_t>& numbers = after.numbered[uv];
      const auto kept = before.numbered.find(uv);
      if (kept == before.numbered.end()) continue;
      for (size_t circuit : kept->second) {
        if (numbers.size() == m) break;
        for (size_t p = 0; p < k; ++p) {
          const Port at_u = u * k + p;
          const Holds& held = before.ports[at_u];
          if (held.peer < 0 || held.circuit != circuit) continue;
          after.ports[at_u] = held;
          after.ports[static_cast<size_t>(held.peer)] = Holds{static_cast<int64_t>(at_u), held.circuit};
          numbers.push_back(held.circuit);
        }
      }
      (void)v;
    }
    auto smallest_free = [&](Node gpu) {
      for (size_t p = 0; p < k; ++p) {
        if (after.ports[gpu * k + p].peer < 0) return gpu * k + p;
      }
      throw std::logic_error("reference: a configuration beyond the port limit");
    };
    for (const auto& [uv, m] : wanted) {
      std::vector<size_t>& numbers = after.numbered[uv];
      while (numbers.size() < m) {
        const Port at_u = smallest_free(uv.first);
        const Port at_v = smallest_free(uv.second);
        const size_t circuit = next_circuit_++;
        after.ports[at_u] = Holds{static_cast<int64_t>(at_v), circuit};
        after.ports[at_v] = Holds{static_cast<int64_t>(at_u), circuit};
        numbers.push_back(circuit);
      }
    }
    return after;
  }

  // Directed circuits on one port: GPU u's transmitter keeps its circuit if
  // it still leads to the same GPU, else carries a new one (or none).
  Placement place_directed(const Placement& before, const Topology& topology) {
    Placement after;
    after.ports.assign(before.ports.size(), Holds{});
    for (Node u = 0; u < static_cast<Node>(fabric_.gpus); ++u) {
      const int v = out_of(&topology, u);
      if (v < 0) continue;
      const Holds& held = before.ports[u];
      after.ports[u] = held.peer == v ? held : Holds{v, next_circuit_++};
      after.numbered[{u, static_cast<Node>(v)}].push_back(after.ports[u].circuit);
    }
    return after;
  }

  Placement place(const Placement& before, const Topology& topology) {
    return bidirectional_ports() ? place_bidirectional(before, topology) : place_directed(before, topology);
  }

  // The circuits of every step (hops_) and the reconfigurations (groups_).
  void lay_out(const Schedule& schedule) {
    const auto& steps = schedule.steps();
    hops_.assign(steps.size(), {});
    if (!changed_scope()) {
      // reconfiguration = all: physical circuit u -> v number j is the same
      // circuit in every step until a reconfiguration, which drains it first;
      // its port is u's (every port of the GPU goes dark together).
      for (size_t s = 0; s < steps.size(); ++s) {
        const Topology& topology = topology_of(schedule, steps[s].topology);
        for (const Edge& e : topology.edges()) {
          const auto parallel = static_cast<size_t>(topology.multiplicity(e.first, e.second));
          for (size_t j = 0; j < parallel; ++j) {
            const HopKey key{e.first, e.second, j};
            auto [it, fresh] = circuit_ids_.emplace(key, circuits_.size());
            if (fresh) circuits_.push_back(Circuit{});
            hops_[s][key] = Hop{it->second, {e.first}};
          }
        }
        if (!schedule.reconfigures_before(s)) continue;
        const Topology* before = nullptr;
        if (s > 0) {
          before = &topology_of(schedule, steps[s - 1].topology);
        } else if (schedule.initial_topology() >= 0) {
          before = &topology_of(schedule, schedule.initial_topology());
        }
        // Every port with a circuit in place or wanted (from no circuits to
        // none: no port, dark for its own step only).
        Group g;
        g.step = s;
        for (Node u = 0; u < static_cast<Node>(fabric_.gpus); ++u) {
          if (out_of(before, u) >= 0 || out_of(&topology, u) >= 0) g.ports.push_back(u);
        }
        groups_.push_back(g);
      }
      return;
    }
    // reconfiguration = changed: each configuration placed on ports from the
    // one in place (rule 6); the initial circuits as if step 0's, placed from
    // no circuits, were in place.
    const size_t port_count =
        static_cast<size_t>(fabric_.gpus) * (bidirectional_ports() ? static_cast<size_t>(fabric_.ports) : 1);
    Placement in_place;
    in_place.ports.assign(port_count, Holds{});
    if (schedule.initial_topology() >= 0) {
      Placement first = in_place;
      if (!steps.empty()) first = place(in_place, topology_of(schedule, steps[0].topology));
      in_place = place(first, topology_of(schedule, schedule.initial_topology()));
    }
    for (size_t s = 0; s < steps.size(); ++s) {
      const Topology& topology = topology_of(schedule, steps[s].topology);
      Placement now = place(in_place, topology);
      // Rule 1: a port changes when the port at its circuit's other end
      // (directed: where its transmitter leads) differs; rule 4: exactly
      // those go dark, all of them one group (one port, or bidirectional).
      Group g;
      g.step = s;
      for (Port q = 0; q < port_count; ++q) {
        if (now.ports[q].peer != in_place.ports[q].peer) g.ports.push_back(q);
      }
      if (!g.ports.empty()) groups_.push_back(g);  // from no circuits to none: nothing goes dark
      // Each directed hop of each physical circuit: its own queue, kept with
      // the circuit; bidirectional, it needs both ends.
      std::map<size_t, std::vector<Port>> ends;
      for (Port q = 0; q < port_count; ++q) {
        if (now.ports[q].peer >= 0) ends[now.ports[q].circuit].push_back(q);
      }
      for (const Edge& e : topology.edges()) {
        const bool bidirectional = bidirectional_ports();
        const std::pair<Node, Node> uv =
            bidirectional ? std::make_pair(std::min(e.first, e.second), std::max(e.first, e.second)) : e;
        const std::vector<size_t>& numbers = now.numbered.at(uv);
        for (size_t j = 0; j < numbers.size(); ++j) {
          auto [it, fresh] = queue_ids_.emplace(std::make_pair(numbers[j], e.first), circuits_.size());
          if (fresh) circuits_.push_back(Circuit{});
          hops_[s][HopKey{e.first, e.second, j}] =
              Hop{it->second, bidirectional ? ends.at(numbers[j]) : std::vector<Port>{e.first}};
        }
      }
      in_place = std::move(now);
    }
  }

  void build(const Schedule& schedule) {
    transfers_.clear();
    groups_.clear();
    packets_.clear();
    circuits_.clear();
    circuit_ids_.clear();
    queue_ids_.clear();
    next_circuit_ = 0;
    events_.clear();
    const auto& steps = schedule.steps();
    source_.clear();
    lay_out(schedule);
    for (size_t s = 0; s < steps.size(); ++s) {
      const Topology& topology = topology_of(schedule, steps[s].topology);
      for (size_t place = 0; place < steps[s].transfers.size(); ++place) {
        const Transfer& t = steps[s].transfers[place];
        TransferState x;
        x.step = s;
        x.flow = transfers_.size();
        x.bytes = t.bytes.count();
        std::vector<Node> path = t.path;
        if (path.empty()) path = {t.src, t.dst};
        for (size_t h = 0; h + 1 < path.size(); ++h) {
          const auto parallel = static_cast<size_t>(topology.multiplicity(path[h], path[h + 1]));
          if (parallel == 0) throw std::logic_error("reference: hop is not a circuit");
          // Transfer i takes parallel circuit i mod multiplicity.
          const Hop& hop = hops_[s].at(HopKey{path[h], path[h + 1], place % parallel});
          x.route.push_back(hop.queue);
          x.ports.insert(x.ports.end(), hop.ports.begin(), hop.ports.end());
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
        x.ports = g->ports;  // it holds the ports its reconfiguration changes until it ends
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
    for (Port u : x.ports) {
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
      if (!std::any_of(y.ports.begin(), y.ports.end(), [&](Port u) { return g.covers(u); })) continue;
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
        for (Port u : x.ports) {
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
  std::map<HopKey, size_t> circuit_ids_;                 // all: physical circuit u -> v number j's queue
  std::map<std::pair<size_t, Node>, size_t> queue_ids_;  // changed: (physical circuit, sender)'s queue
  size_t next_circuit_ = 0;                              // changed: the next new physical circuit
  std::vector<std::map<HopKey, Hop>> hops_;              // per step: the circuit each hop takes
  std::vector<Circuit> circuits_;                        // egress queues
  std::map<Time, std::vector<Event>> events_;
};

}  // namespace photonsim::reference
