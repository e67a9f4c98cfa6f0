#include "sim/engine/switch/circuit_plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/error.h"
#include "core/spec/planning_failures.h"
#include "topology/circuit_rates.h"

namespace photonsim {

namespace {

struct Assignment {
  std::vector<int> to;              // per slot: the GPU it leads to, -1 unused
  std::vector<uint32_t> edge_slot;  // per edge of the topology
  // Per slot, what makes its circuit the same one: the GPU it leads to
  // (directed, and under `all`, where nothing is kept), the port at the
  // circuit's other end (bidirectional); -1 unused.
  // A port changes when this differs from the one in place.
  std::vector<int> link;
  // Bidirectional: per slot, its circuit's number among its pair's parallel
  // circuits (-1 unused), which the next placement keeps them in.
  std::vector<int> number;
};

// Scope `all`: every circuit goes dark at each reconfiguration, so none is
// kept: a GPU's i-th circuit out (in the topology's edge order) takes its
// port i, directed or bidirectional.
Assignment assign_by_rank(const Topology& topology, uint32_t slots, uint32_t ports) {
  Assignment a{std::vector<int>(slots, -1), std::vector<uint32_t>(topology.edges().size()), {}, {}};
  std::vector<uint32_t> ports_used(slots / ports, 0);
  const auto& edges = topology.edges();
  for (size_t e = 0; e < edges.size(); ++e) {
    const auto [u, v] = edges[e];
    if (ports_used[u] == ports) {
      throw std::logic_error("topology '" + topology.name() + "': node " + std::to_string(u) + " has no free port");
    }
    const uint32_t slot = static_cast<uint32_t>(u) * ports + ports_used[u]++;
    a.edge_slot[e] = slot;
    a.to[slot] = static_cast<int>(v);
  }
  a.link = a.to;
  return a;
}

// Each edge keeps a port already leading where it goes; the rest take the
// free ports in order.
Assignment assign_by_circuit(const Topology& topology, const std::vector<int>& current, uint32_t ports) {
  Assignment a{
      std::vector<int>(current.size(), -1), std::vector<uint32_t>(topology.edges().size(), UINT32_MAX), {}, {}};
  std::vector<char> claimed(current.size(), 0);
  const auto& edges = topology.edges();
  for (size_t e = 0; e < edges.size(); ++e) {
    const auto [u, v] = edges[e];
    for (uint32_t p = 0; p < ports; ++p) {
      const uint32_t slot = static_cast<uint32_t>(u) * ports + p;
      if (!claimed[slot] && current[slot] == static_cast<int>(v)) {
        claimed[slot] = 1;
        a.edge_slot[e] = slot;
        a.to[slot] = static_cast<int>(v);
        break;
      }
    }
  }
  for (size_t e = 0; e < edges.size(); ++e) {
    if (a.edge_slot[e] != UINT32_MAX) continue;
    const auto [u, v] = edges[e];
    for (uint32_t p = 0; p < ports && a.edge_slot[e] == UINT32_MAX; ++p) {
      const uint32_t slot = static_cast<uint32_t>(u) * ports + p;
      if (claimed[slot]) continue;
      claimed[slot] = 1;
      a.edge_slot[e] = slot;
      a.to[slot] = static_cast<int>(v);
    }
    if (a.edge_slot[e] == UINT32_MAX) {
      throw std::logic_error("topology '" + topology.name() + "': node " + std::to_string(u) + " has no free port");
    }
  }
  a.link = a.to;
  return a;
}

// Bidirectional circuits: a circuit {u, v} is one port of u and one of v,
// joined both ways, and is kept or changed whole (docs/model.md, rule 6).
// `current` holds each slot's partner slot, `number` its circuit's number
// within its pair. Pairs go in order of (smaller GPU, larger GPU); a pair
// with m parallel circuits keeps the up to m lowest-numbered circuits in
// place between them, in their order; once every pair has kept what it can,
// the rest take, pair by pair, the smallest free port at each end. A pair's
// kept circuits are its parallel circuits 0, 1, ..., its new ones after
// them: the i-th occurrence of u -> v and of v -> u among the topology's
// edges is circuit i.
Assignment assign_bidirectional(const Topology& topology, const std::vector<int>& current,
                                const std::vector<int>& number, uint32_t ports) {
  const size_t slots = current.size();
  Assignment a{std::vector<int>(slots, -1), std::vector<uint32_t>(topology.edges().size(), UINT32_MAX),
               std::vector<int>(slots, -1), std::vector<int>(slots, -1)};
  const auto& edges = topology.edges();
  struct Pair {
    Node low, high;
    uint32_t multiplicity;
    std::vector<std::pair<uint32_t, uint32_t>> circuits;  // (slot at low, slot at high), circuit by circuit
  };
  std::vector<Pair> pairs;
  for (size_t e = 0; e < edges.size(); ++e) {
    const auto [u, v] = edges[e];
    if (u >= v) continue;
    if (!pairs.empty() && pairs.back().low == u && pairs.back().high == v) {
      ++pairs.back().multiplicity;
    } else {
      pairs.push_back(Pair{u, v, 1, {}});
    }
  }
  std::vector<char> claimed(slots, 0);
  const auto join = [&](Pair& pair, uint32_t at_low, uint32_t at_high) {
    claimed[at_low] = claimed[at_high] = 1;
    a.to[at_low] = static_cast<int>(pair.high);
    a.to[at_high] = static_cast<int>(pair.low);
    a.link[at_low] = static_cast<int>(at_high);
    a.link[at_high] = static_cast<int>(at_low);
    a.number[at_low] = a.number[at_high] = static_cast<int>(pair.circuits.size());
    pair.circuits.emplace_back(at_low, at_high);
  };
  std::vector<std::pair<int, uint32_t>> in_place;  // (number, slot at low) of the pair's circuits in place
  for (Pair& pair : pairs) {
    in_place.clear();
    for (uint32_t p = 0; p < ports; ++p) {
      const uint32_t slot = static_cast<uint32_t>(pair.low) * ports + p;
      const int partner = current[slot];
      if (partner >= 0 && static_cast<uint32_t>(partner) / ports == pair.high)
        in_place.emplace_back(number[slot], slot);
    }
    std::sort(in_place.begin(), in_place.end());
    for (size_t i = 0; i < in_place.size() && i < pair.multiplicity; ++i) {
      join(pair, in_place[i].second, static_cast<uint32_t>(current[in_place[i].second]));
    }
  }
  const auto free_port = [&](Node u) {
    for (uint32_t p = 0; p < ports; ++p) {
      const uint32_t slot = static_cast<uint32_t>(u) * ports + p;
      if (!claimed[slot]) return slot;
    }
    throw std::logic_error("topology '" + topology.name() + "': node " + std::to_string(u) + " has no free port");
  };
  for (Pair& pair : pairs) {
    while (pair.circuits.size() < pair.multiplicity) {
      join(pair, free_port(pair.low), free_port(pair.high));
    }
  }
  // Edge e, the i-th u -> v, leaves on u's end of the pair's circuit i.
  for (size_t e = 0; e < edges.size();) {
    const auto [u, v] = edges[e];
    size_t end = e;
    while (end < edges.size() && edges[end] == edges[e]) ++end;
    const auto pair = std::lower_bound(
        pairs.begin(), pairs.end(), std::make_pair(std::min(u, v), std::max(u, v)),
        [](const Pair& p, const std::pair<Node, Node>& key) { return std::make_pair(p.low, p.high) < key; });
    // Topology::check_ports refused both before: a circuit without its reverse, or as many.
    if (pair == pairs.end() || pair->low != std::min(u, v) || pair->high != std::max(u, v) ||
        end - e != pair->multiplicity) {
      throw std::logic_error("topology '" + topology.name() + "': circuits " + std::to_string(u) + "->" +
                             std::to_string(v) + " and back differ in number");
    }
    for (size_t i = 0; i < pair->multiplicity; ++i) {
      a.edge_slot[e + i] = u < v ? pair->circuits[i].first : pair->circuits[i].second;
    }
    e = end;
  }
  return a;
}

// From no circuits: when the configuration is a union of at most `ports`
// generator permutations (offset classes v - u mod n, as in circulants and
// rings, or XOR classes u ^ v, as in hypercubes), one generator per switch,
// so that later configurations sharing a generator keep that switch whole.
std::optional<std::vector<int>> place_by_generator(const Topology& topology, uint32_t ports, int gpus, bool by_xor) {
  std::map<uint32_t, std::vector<Edge>> classes;
  for (const auto& [u, v] : topology.edges()) {
    classes[by_xor ? (u ^ v) : (v + static_cast<Node>(gpus) - u) % static_cast<Node>(gpus)].push_back({u, v});
  }
  if (classes.size() > ports) return std::nullopt;
  std::vector<int> to(static_cast<size_t>(gpus) * ports, -1);
  std::vector<char> receiving(static_cast<size_t>(gpus) * ports, 0);
  uint32_t i = 0;
  for (const auto& [generator, edges] : classes) {
    for (const auto& [u, v] : edges) {
      const size_t out = static_cast<size_t>(u) * ports + i, in = static_cast<size_t>(v) * ports + i;
      if (to[out] >= 0 || receiving[in]) return std::nullopt;  // not a permutation
      to[out] = static_cast<int>(v);
      receiving[in] = 1;
    }
    ++i;
  }
  return to;
}

// Port p of every GPU is on switch p; a circuit u -> v on switch p takes u's
// transmitter there (slot u * ports + p) and v's receiver there. docs/model.md's
// "Which port each circuit takes" (rule 6) states these rules; keep the two in step.
//  1. From no circuits at all: one generator class per switch, if the
//     configuration is made of at most `ports` of them (place_by_generator).
//  2. Each circuit in place stays on its switch (circuits in edge order, each
//     on the smallest switch holding it not yet taken by an earlier edge).
//  3. The others, in edge order, each on the first switch where its sender's
//     transmitter and its receiver's receiver are both free: first the
//     switches already reconfigured (a circuit of theirs removed, or placed
//     by this rule), by number, then the rest by number.
//  4. If none has both free: a = the smallest switch with the transmitter
//     free, b = the smallest with the receiver free; from v, the circuit on a
//     into v, then the circuit on b out of its sender, then the one on a into
//     that circuit's receiver, and so on while there is one; every circuit of
//     that path moves to the other of a and b, and u -> v takes a.
std::vector<int> place_on_switches(const Topology& topology, const std::vector<int>& current, uint32_t ports,
                                   int gpus) {
  if (std::all_of(current.begin(), current.end(), [](int to) { return to < 0; })) {
    for (bool by_xor : {false, true}) {
      if (auto placed = place_by_generator(topology, ports, gpus, by_xor)) return *placed;
    }
  }
  const size_t slots = static_cast<size_t>(gpus) * ports;
  std::vector<int> to(slots, -1);      // u * ports + i: where u's transmitter on switch i leads
  std::vector<int> sender(slots, -1);  // v * ports + i: who v's receiver on switch i hears
  std::vector<char> reconfigured(ports, 0);
  const auto place = [&](Node u, Node v, uint32_t i) {
    to[static_cast<size_t>(u) * ports + i] = static_cast<int>(v);
    sender[static_cast<size_t>(v) * ports + i] = static_cast<int>(u);
  };
  std::vector<Edge> rest;
  for (const auto& [u, v] : topology.edges()) {
    bool kept = false;
    for (uint32_t i = 0; i < ports && !kept; ++i) {
      const size_t slot = static_cast<size_t>(u) * ports + i;
      if (to[slot] < 0 && current[slot] == static_cast<int>(v)) {
        place(u, v, i);
        kept = true;
      }
    }
    if (!kept) rest.push_back({u, v});
  }
  for (size_t slot = 0; slot < slots; ++slot) {
    if (current[slot] >= 0 && to[slot] != current[slot]) reconfigured[slot % ports] = 1;
  }
  for (const Edge& edge : rest) {
    const Node u = edge.first, v = edge.second;  // named, not bound: lambdas capture them (clang 14)
    const auto tx_free = [&](uint32_t i) { return to[static_cast<size_t>(u) * ports + i] < 0; };
    const auto rx_free = [&](uint32_t i) { return sender[static_cast<size_t>(v) * ports + i] < 0; };
    uint32_t chosen = ports;
    for (int pass = 0; pass < 2 && chosen == ports; ++pass) {
      for (uint32_t i = 0; i < ports && chosen == ports; ++i) {
        if ((reconfigured[i] != 0) == (pass == 0) && tx_free(i) && rx_free(i)) chosen = i;
      }
    }
    if (chosen == ports) {
      uint32_t a = 0, b = 0;
      while (a < ports && !tx_free(a)) ++a;
      while (b < ports && !rx_free(b)) ++b;
      if (a == ports || b == ports) {
        throw std::logic_error("topology '" + topology.name() + "': node " + std::to_string(u) + " or " +
                               std::to_string(v) + " has no free port");
      }
      // The alternating path from v's receiver: a into x, b out of x's sender, ...
      std::vector<std::pair<Edge, uint32_t>> path;
      Node x = v;
      for (;;) {
        const int s = sender[static_cast<size_t>(x) * ports + a];
        if (s < 0) break;
        path.push_back({{static_cast<Node>(s), x}, a});
        const int y = to[static_cast<size_t>(s) * ports + b];
        if (y < 0) break;
        path.push_back({{static_cast<Node>(s), static_cast<Node>(y)}, b});
        x = static_cast<Node>(y);
      }
      for (const auto& [e, i] : path) {
        to[static_cast<size_t>(e.first) * ports + i] = -1;
        if (sender[static_cast<size_t>(e.second) * ports + i] == static_cast<int>(e.first))
          sender[static_cast<size_t>(e.second) * ports + i] = -1;
      }
      for (const auto& [e, i] : path) place(e.first, e.second, i == a ? b : a);
      if (!path.empty()) reconfigured[b] = 1;
      chosen = a;
    }
    place(u, v, chosen);
    reconfigured[chosen] = 1;
  }
  return to;
}

// Whether any configuration of the schedule (its initial topology, its steps') has a circuit.
bool places_circuits(const Schedule& schedule) {
  if (schedule.initial_topology() >= 0 &&
      !schedule.topologies()[static_cast<size_t>(schedule.initial_topology())].edges().empty())
    return true;
  for (const Step& step : schedule.steps()) {
    if (!schedule.topologies()[static_cast<size_t>(step.topology)].edges().empty()) return true;
  }
  return false;
}

}  // namespace

CircuitPlan::CircuitPlan(const Schedule& schedule, const FabricSpec& fabric)
    : ports_(static_cast<uint32_t>(fabric.ports)),
      slots_(static_cast<uint32_t>(fabric.gpus) * static_cast<uint32_t>(fabric.ports)) {
  // The placement runs on the working ports: port k of a GPU is surviving
  // switch k (the failures known when planning; every switch when none
  // failed, so the placement is the fabric's own). Its slots u * working + k
  // are the fabric's u * ports + surviving[k].
  PlanningFailures known = PlanningFailures::of(fabric);
  // No switch left: an Error unless the schedule places no circuit at all.
  const bool places_nothing = known.surviving.empty() && !places_circuits(schedule);
  if (places_nothing) {
    for (int p = 0; p < fabric.ports; ++p) known.surviving.push_back(p);
  }
  const FabricSpec planned = places_nothing ? fabric : planning_fabric(fabric);  // throws when no switch survives
  const auto working = static_cast<uint32_t>(planned.ports);
  const uint32_t slots = static_cast<uint32_t>(fabric.gpus) * working;
  const auto fabric_slot = [&](uint32_t slot) {
    return (slot / working) * ports_ + static_cast<uint32_t>(known.surviving[slot % working]);
  };
  if (working < ports_) check_surviving_ports(schedule, fabric);
  const bool by_switch = fabric.reconfiguration == ReconfigurationScope::changed &&
                         fabric.circuits == CircuitKind::directed && working > 1;
  const bool by_rank = fabric.reconfiguration == ReconfigurationScope::all;
  const bool by_pair = fabric.circuits == CircuitKind::bidirectional;
  std::vector<int> current(slots, -1);  // per working slot: its Assignment::link in place
  std::vector<int> number(slots, -1);   // bidirectional, per working slot: its Assignment::number in place
  const auto assign = [&](const Topology& t) {
    if (by_rank) return assign_by_rank(t, slots, working);
    if (by_pair) return assign_bidirectional(t, current, number, working);
    if (!by_switch) return assign_by_circuit(t, current, working);
    // The same ports, each edge on the switch chosen for it: a circuit-level
    // pass over the placement keeps every edge where it is.
    const std::vector<int> placed = place_on_switches(t, current, working, fabric.gpus);
    Assignment a = assign_by_circuit(t, placed, working);
    if (a.to != placed) throw std::logic_error("switch placement does not cover topology '" + t.name() + "'");
    return a;
  };
  // bandwidth_scope gpu: each circuit's share of its GPUs' transmitters (the
  // loader allows it under `all` only, so every circuit lights anew at its
  // rate); the working transmitters are shared out.
  const auto rate_of_slot = [&](const Topology& t, const Assignment& a) {
    std::vector<std::optional<Bandwidth>> rate;
    if (fabric.bandwidth_scope != BandwidthScope::gpu) return rate;
    rate.resize(slots);
    const std::vector<Bandwidth> rates = circuit_rates(t, planned);
    for (size_t e = 0; e < rates.size(); ++e) rate[a.edge_slot[e]] = rates[e];
    return rate;
  };
  const auto change = [&](uint32_t slot, int to, const std::vector<std::optional<Bandwidth>>& rate) {
    return CircuitChange{fabric_slot(slot), static_cast<Node>(slot / working), to,
                         rate.empty() ? std::nullopt : rate[slot]};
  };
  if (schedule.initial_topology() >= 0) {
    // The initial circuits cost nothing wherever they sit: place them to
    // keep most of step 0's configuration, placed first from nothing.
    if (!schedule.steps().empty() && schedule.reconfigures_before(0)) {
      Assignment first = assign(schedule.topologies()[static_cast<size_t>(schedule.steps()[0].topology)]);
      current = std::move(first.link);
      number = std::move(first.number);
    }
    const Topology& initial = schedule.topologies()[static_cast<size_t>(schedule.initial_topology())];
    Assignment a = assign(initial);
    const auto rate = rate_of_slot(initial, a);
    for (uint32_t slot = 0; slot < slots; ++slot) {
      if (a.to[slot] >= 0) initial_.push_back(change(slot, a.to[slot], rate));
    }
    current = std::move(a.link);
    number = std::move(a.number);
  }
  group_offsets_.push_back(0);
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    const Topology& topology = schedule.topologies()[static_cast<size_t>(schedule.steps()[s].topology)];
    if (s == 0 || schedule.reconfigures_before(s)) {
      Assignment a = assign(topology);
      if (schedule.reconfigures_before(s)) {
        const auto rate = rate_of_slot(topology, a);
        // Switch i's changes form group i (by_switch), else all form one.
        std::vector<ReconfigurationGroup> by_group(by_switch ? working : 1);
        for (uint32_t slot = 0; slot < slots; ++slot) {
          const bool changes = fabric.reconfiguration == ReconfigurationScope::all
                                   ? (current[slot] >= 0 || a.link[slot] >= 0)
                                   : current[slot] != a.link[slot];
          if (!changes) continue;
          by_group[by_switch ? slot % working : 0].changes.push_back(change(slot, a.to[slot], rate));
        }
        for (ReconfigurationGroup& g : by_group) {
          // Under `all` the whole fabric goes dark even when no circuit is in
          // place or wanted (from no circuits to an empty configuration).
          if (g.changes.empty() && fabric.reconfiguration != ReconfigurationScope::all) continue;
          g.step = s;
          group_ids_.push_back(static_cast<uint32_t>(groups_.size()));
          groups_.push_back(std::move(g));
        }
      } else if (a.link != current) {
        throw std::logic_error("step 0 keeps the initial topology but its circuits moved");
      }
      current = std::move(a.link);
      number = std::move(a.number);
      for (uint32_t& slot : a.edge_slot) slot = fabric_slot(slot);
      epoch_slots_.push_back(std::move(a.edge_slot));
    }
    step_epoch_.push_back(epoch_slots_.size() - 1);
    group_offsets_.push_back(group_ids_.size());
  }
}

void CircuitPlan::check_surviving_ports(const Schedule& schedule, const FabricSpec& fabric) {
  const PlanningFailures known = PlanningFailures::of(fabric);
  if (known.switches.empty() || (known.surviving.empty() && !places_circuits(schedule))) return;
  const FabricSpec planned = planning_fabric(fabric);  // throws when no switch survives
  std::vector<bool> used(schedule.topologies().size(), false);
  if (schedule.initial_topology() >= 0) used[static_cast<size_t>(schedule.initial_topology())] = true;
  for (const Step& step : schedule.steps()) used[static_cast<size_t>(step.topology)] = true;
  for (size_t t = 0; t < used.size(); ++t) {
    if (!used[t]) continue;
    try {
      schedule.topologies()[t].check_ports(planned);
    } catch (const Error& e) {
      throw Error(PlanningFailures::entry_name(fabric, known.switches.back().entry) +
                  ": the schedule does not fit the switches that survive the failures known when planning (it "
                  "was not planned around them): " +
                  e.what());
    }
  }
}

}  // namespace photonsim
