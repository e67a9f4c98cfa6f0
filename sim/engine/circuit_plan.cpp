#include "sim/engine/circuit_plan.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "topology/switch_decomposition.h"

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

// Circuits that stay keep their switch; the others are placed switch by
// switch, each taking a maximum matching of what is left on its free ports
// (Kuhn's augmenting paths). Empty when that leaves a circuit unplaced.
std::optional<std::vector<int>> keep_then_match(const Topology& topology, const std::vector<int>& current,
                                                uint32_t ports, int gpus) {
  std::vector<int> to(current.size(), -1);
  std::vector<char> in_used(current.size(), 0);  // v * ports + i: v's receive port on switch i taken
  std::vector<Edge> left;
  std::vector<char> kept(current.size(), 0);
  for (const auto& [u, v] : topology.edges()) {
    bool placed = false;
    for (uint32_t i = 0; i < ports && !placed; ++i) {
      const size_t slot = static_cast<size_t>(u) * ports + i;
      if (!kept[slot] && current[slot] == static_cast<int>(v)) {
        kept[slot] = 1;
        to[slot] = static_cast<int>(v);
        in_used[static_cast<size_t>(v) * ports + i] = 1;
        placed = true;
      }
    }
    if (!placed) left.push_back({u, v});
  }
  for (uint32_t i = 0; i < ports && !left.empty(); ++i) {
    // Bipartite: free sender u on switch i -> free receiver v on switch i.
    std::vector<std::vector<size_t>> by_sender(static_cast<size_t>(gpus));
    for (size_t e = 0; e < left.size(); ++e) {
      const auto [u, v] = left[e];
      if (to[static_cast<size_t>(u) * ports + i] < 0 && !in_used[static_cast<size_t>(v) * ports + i]) {
        by_sender[u].push_back(e);
      }
    }
    // Smallest offset (v - u mod n) first: a circulant's generators, each a
    // permutation, then land whole on one switch each.
    const auto offset = [&](size_t e) { return (left[e].second + static_cast<Node>(gpus) - left[e].first) % gpus; };
    for (auto& edges : by_sender) {
      std::stable_sort(edges.begin(), edges.end(), [&](size_t a, size_t b) { return offset(a) < offset(b); });
    }
    std::vector<int> edge_of_receiver(static_cast<size_t>(gpus), -1);
    std::vector<int> seen(static_cast<size_t>(gpus), -1);
    std::function<bool(int, int)> augment = [&](int u, int round) -> bool {
      for (size_t e : by_sender[static_cast<size_t>(u)]) {
        const int v = static_cast<int>(left[e].second);
        if (seen[static_cast<size_t>(v)] == round) continue;
        seen[static_cast<size_t>(v)] = round;
        const int other = edge_of_receiver[static_cast<size_t>(v)];
        if (other < 0 || augment(static_cast<int>(left[static_cast<size_t>(other)].first), round)) {
          edge_of_receiver[static_cast<size_t>(v)] = static_cast<int>(e);
          return true;
        }
      }
      return false;
    };
    for (int u = 0; u < gpus; ++u) {
      if (!by_sender[static_cast<size_t>(u)].empty()) augment(u, u);
    }
    std::vector<char> placed(left.size(), 0);
    for (int v = 0; v < gpus; ++v) {
      const int e = edge_of_receiver[static_cast<size_t>(v)];
      if (e < 0) continue;
      const Node u = left[static_cast<size_t>(e)].first;
      to[static_cast<size_t>(u) * ports + i] = v;
      in_used[static_cast<size_t>(v) * ports + i] = 1;
      placed[static_cast<size_t>(e)] = 1;
    }
    std::vector<Edge> still;
    for (size_t e = 0; e < left.size(); ++e) {
      if (!placed[e]) still.push_back(left[e]);
    }
    left = std::move(still);
  }
  if (!left.empty()) return std::nullopt;
  return to;
}

// Split the configuration into one permutation per switch (always possible)
// and give each to the switch it overlaps most.
Assignment align_decomposition(const Topology& topology, const std::vector<int>& current, uint32_t ports, int gpus) {
  const SwitchDecomposition split =
      SwitchDecomposition::decompose(topology, static_cast<int>(ports), CircuitKind::directed);
  const auto& perms = split.permutations();
  std::vector<std::vector<int>> overlap(ports, std::vector<int>(perms.size(), 0));
  for (uint32_t i = 0; i < ports; ++i) {
    for (size_t j = 0; j < perms.size(); ++j) {
      for (int u = 0; u < gpus; ++u) {
        const int to = perms[j][static_cast<size_t>(u)];
        if (to >= 0 && current[static_cast<size_t>(u) * ports + i] == to) ++overlap[i][j];
      }
    }
  }
  std::vector<int> switch_of(perms.size(), -1);
  std::vector<char> switch_taken(ports, 0);
  for (size_t round = 0; round < perms.size(); ++round) {
    int best = -1;
    uint32_t bi = 0;
    size_t bj = 0;
    for (uint32_t i = 0; i < ports; ++i) {
      if (switch_taken[i]) continue;
      for (size_t j = 0; j < perms.size(); ++j) {
        if (switch_of[j] < 0 && overlap[i][j] > best) {
          best = overlap[i][j];
          bi = i;
          bj = j;
        }
      }
    }
    switch_taken[bi] = 1;
    switch_of[bj] = static_cast<int>(bi);
  }
  std::vector<int> to(current.size(), -1);
  for (size_t j = 0; j < perms.size(); ++j) {
    for (int u = 0; u < gpus; ++u) {
      to[static_cast<size_t>(u) * ports + static_cast<uint32_t>(switch_of[j])] = perms[j][static_cast<size_t>(u)];
    }
  }
  // The same ports, now with every edge placed: a circuit-level pass over
  // `to` keeps each edge on the switch chosen for it.
  Assignment a = assign_by_circuit(topology, to, ports);
  if (a.to != to) throw std::logic_error("switch assignment does not cover topology '" + topology.name() + "'");
  return a;
}

// (switches reconfigured, ports changed): fewer is better.
std::pair<uint32_t, uint32_t> cost(const std::vector<int>& current, const std::vector<int>& to, uint32_t ports) {
  std::vector<char> reconfigured(ports, 0);
  uint32_t changed = 0;
  for (size_t slot = 0; slot < to.size(); ++slot) {
    if (current[slot] == to[slot]) continue;
    ++changed;
    reconfigured[slot % ports] = 1;
  }
  return {static_cast<uint32_t>(std::count(reconfigured.begin(), reconfigured.end(), 1)), changed};
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

// Port p of every GPU is on switch p. Two placements: every circuit that
// stays keeps its switch and the rest is matched switch by switch (when it
// fits), or whole permutations aligned to the switches; the one that
// reconfigures fewer switches, then fewer ports, wins (ties, as from no
// circuits at all: the permutations).
Assignment assign_by_switch(const Topology& topology, const std::vector<int>& current, uint32_t ports, int gpus) {
  if (std::all_of(current.begin(), current.end(), [](int to) { return to < 0; })) {
    for (bool by_xor : {false, true}) {
      if (auto placed = place_by_generator(topology, ports, gpus, by_xor))
        return assign_by_circuit(topology, *placed, ports);
    }
  }
  Assignment aligned = align_decomposition(topology, current, ports, gpus);
  if (std::optional<std::vector<int>> kept = keep_then_match(topology, current, ports, gpus)) {
    if (cost(current, *kept, ports) < cost(current, aligned.to, ports))
      return assign_by_circuit(topology, *kept, ports);
  }
  return aligned;
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
    return by_switch ? assign_by_switch(t, current, ports_, fabric.gpus) : assign_by_circuit(t, current, ports_);
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
