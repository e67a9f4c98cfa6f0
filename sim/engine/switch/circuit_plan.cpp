#include "sim/engine/switch/circuit_plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace photonsim {

namespace {

struct Assignment {
  std::vector<int> to;              // per slot: the GPU it leads to, -1 unused
  std::vector<uint32_t> edge_slot;  // per edge of the topology
};

// Each edge keeps a port already leading where it goes; the rest take the
// free ports in order.
Assignment assign_by_circuit(const Topology& topology, const std::vector<int>& current, uint32_t ports) {
  Assignment a{std::vector<int>(current.size(), -1), std::vector<uint32_t>(topology.edges().size(), UINT32_MAX)};
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
// "Which switch each circuit takes" states these rules; keep the two in step.
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

}  // namespace

CircuitPlan::CircuitPlan(const Schedule& schedule, const FabricSpec& fabric)
    : ports_(static_cast<uint32_t>(fabric.ports)),
      slots_(static_cast<uint32_t>(fabric.gpus) * static_cast<uint32_t>(fabric.ports)) {
  const bool by_switch = fabric.reconfiguration == ReconfigurationScope::changed &&
                         fabric.circuits == CircuitKind::directed && fabric.ports > 1;
  std::vector<int> current(slots_, -1);
  const auto assign = [&](const Topology& t) {
    t.check_ports(fabric);
    if (!by_switch) return assign_by_circuit(t, current, ports_);
    // The same ports, each edge on the switch chosen for it: a circuit-level
    // pass over the placement keeps every edge where it is.
    const std::vector<int> placed = place_on_switches(t, current, ports_, fabric.gpus);
    Assignment a = assign_by_circuit(t, placed, ports_);
    if (a.to != placed) throw std::logic_error("switch placement does not cover topology '" + t.name() + "'");
    return a;
  };
  if (schedule.initial_topology() >= 0) {
    // The initial circuits cost nothing wherever they sit: place them to
    // keep most of step 0's configuration, placed first from nothing.
    if (!schedule.steps().empty() && schedule.reconfigures_before(0)) {
      current = assign(schedule.topologies()[static_cast<size_t>(schedule.steps()[0].topology)]).to;
    }
    Assignment a = assign(schedule.topologies()[static_cast<size_t>(schedule.initial_topology())]);
    for (uint32_t slot = 0; slot < slots_; ++slot) {
      if (a.to[slot] >= 0) initial_.push_back(CircuitChange{slot, static_cast<Node>(slot / ports_), a.to[slot]});
    }
    current = std::move(a.to);
  }
  group_offsets_.push_back(0);
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    const Topology& topology = schedule.topologies()[static_cast<size_t>(schedule.steps()[s].topology)];
    if (s == 0 || schedule.reconfigures_before(s)) {
      Assignment a = assign(topology);
      if (schedule.reconfigures_before(s)) {
        // Switch i's changes form group i (by_switch), else all form one.
        std::vector<ReconfigurationGroup> by_group(by_switch ? ports_ : 1);
        for (uint32_t slot = 0; slot < slots_; ++slot) {
          const bool changes = fabric.reconfiguration == ReconfigurationScope::all
                                   ? (current[slot] >= 0 || a.to[slot] >= 0)
                                   : current[slot] != a.to[slot];
          if (!changes) continue;
          by_group[by_switch ? slot % ports_ : 0].changes.push_back(
              CircuitChange{slot, static_cast<Node>(slot / ports_), a.to[slot]});
        }
        for (ReconfigurationGroup& g : by_group) {
          // Under `all` the whole fabric goes dark even when no circuit is in
          // place or wanted (from no circuits to an empty configuration).
          if (g.changes.empty() && fabric.reconfiguration != ReconfigurationScope::all) continue;
          g.step = s;
          group_ids_.push_back(static_cast<uint32_t>(groups_.size()));
          groups_.push_back(std::move(g));
        }
      } else if (a.to != current) {
        throw std::logic_error("step 0 keeps the initial topology but its circuits moved");
      }
      current = std::move(a.to);
      epoch_slots_.push_back(std::move(a.edge_slot));
    }
    step_epoch_.push_back(epoch_slots_.size() - 1);
    group_offsets_.push_back(group_ids_.size());
  }
}

}  // namespace photonsim
