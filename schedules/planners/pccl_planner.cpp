#include "schedules/planners/pccl_planner.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/error.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "schedules/cost/pccl_round_cost.h"
#include "schedules/planners/port_split.h"
#include "schedules/model/step_routes.h"
#include "schedules/model/topology_catalog.h"
#include "topology/congestion_dilation.h"
#include "topology/step_circuits.h"
#include "topology/topology_hash.h"
#include "topology/topology_registry.h"

namespace photonsim {

PlannerInfo PcclPlanner::info() const {
  return {"pccl",
          "PCCL Algorithm 1 (exact DP): per round keep, own circuits or a standard topology; alpha*dilation + "
          "beta*congestion*w + r",
          {ParameterSpec::computed("standard", ParameterType::text, "those that fit",
                                   "[ring, torus, grid, torus3d, grid3d, hypercube, torus:AxB[xC], ...]"),
           ParameterSpec::choice("w", {"edge_bytes", "max_transfer"},
                                 "a round's load: the busiest circuit's bytes, or congestion x largest transfer"),
           ParameterSpec::choice("cost", {"fabric", "paper"},
                                 "fabric: a round as the fabric forwards it (alpha_beta_congestion: store-and-forward "
                                 "serialises every hop); paper: Eq. 1, alpha*dilation + beta*congestion*w")}};
}

namespace {

LoadModel load_model_of(const ComponentParams& params) {
  const std::string w = params.text("w");
  if (w == "edge_bytes") return LoadModel::edge_bytes;
  if (w == "max_transfer") return LoadModel::max_transfer;
  params.fail("w", "must be edge_bytes or max_transfer, got '" + w + "'");
}

// PCCL's Eq. 1 as printed, or the round as the fabric runs it.
bool paper_cost(const ComponentParams& params) { return params.text("cost") == "paper"; }

// "[ring, torus:4x4x8]" or "ring,torus" -> {"ring", "torus:4x4x8"}.
std::vector<std::string> names_in(const std::string& text) {
  std::vector<std::string> names;
  std::string current;
  for (char c : text) {
    if (c == '[' || c == ']' || c == ',' || c == ' ' || c == '\t' || c == '"' || c == '\'') {
      if (!current.empty()) names.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) names.push_back(std::move(current));
  return names;
}

int prime_factors_with_multiplicity(int n) {
  int count = 0;
  for (int p = 2; static_cast<int64_t>(p) * p <= n; ++p) {
    while (n % p == 0) {
      n /= p;
      ++count;
    }
  }
  return count + (n > 1 ? 1 : 0);
}

// A `standard` entry as a generator spec; see the header for the names.
TopologySpec spec_of(const std::string& name, const ComponentParams& params) {
  const auto colon = name.find(':');
  const std::string base = name.substr(0, colon);
  if (colon != std::string::npos) {
    if (base != "torus" && base != "grid") {
      params.fail("standard", "'" + name + "': only torus:DIMS and grid:DIMS take dimensions");
    }
    return TopologySpec{base, {{"dims", name.substr(colon + 1)}}};
  }
  if (name == "torus3d") return TopologySpec{"torus", {{"dimensions", "3"}}};
  if (name == "grid3d") return TopologySpec{"grid", {{"dimensions", "3"}}};
  if (name == "bidirectional_ring") return TopologySpec{"ring", {{"bidirectional", "true"}}};
  if (name == "none" || name == "from_step") {
    params.fail("standard", "'" + name +
                                "' is not a standard topology (the round's own circuits are "
                                "always a choice)");
  }
  return TopologySpec{name, {}};
}

// The candidate set S, in the order given, without duplicates by circuits.
std::vector<Topology> standard_topologies(const PlanningInput& input) {
  const TopologyRegistry registry = TopologyRegistry::with_builtin_generators();
  const bool listed = input.params.has("standard");
  std::vector<std::string> names;
  if (listed) {
    names = names_in(input.params.text("standard"));
  } else {
    names = {"ring", "bidirectional_ring"};
    const int factors = prime_factors_with_multiplicity(input.fabric.gpus);
    if (factors >= 2) names.insert(names.end(), {"torus", "grid"});
    if (factors >= 3) names.insert(names.end(), {"torus3d", "grid3d"});
    names.push_back("hypercube");
  }
  std::vector<Topology> out;
  for (const std::string& name : names) {
    std::optional<Topology> topology;
    try {
      // make() builds and checks the ports; it refuses a size the generator cannot make.
      topology = registry.make(spec_of(name, input.params), input.fabric, input.seed);
    } catch (const Error& e) {
      if (listed) input.params.fail("standard", "'" + name + "': " + e.what());
      continue;  // a default that does not fit this fabric is simply not a candidate
    }
    if (!topology) continue;
    if (std::find(out.begin(), out.end(), *topology) == out.end()) out.push_back(std::move(*topology));
  }
  return out;
}

Topology pccl_own_circuits(const std::vector<Transfer>& round, const FabricSpec& fabric, size_t index) {
  std::vector<Edge> pairs;
  for (const Transfer& t : round) {
    if (t.src != t.dst) pairs.push_back({t.src, t.dst});
  }
  return circuits_for_pairs("step" + std::to_string(index), fabric.gpus, pairs, fabric.circuits);
}

// Topologies by circuits: one id per distinct configuration, first name kept.
class TopologyIds {
 public:
  int id_of(Topology topology) {
    auto [it, added] = ids_.try_emplace(topology, static_cast<int>(topologies_.size()));
    if (added) topologies_.push_back(std::move(topology));
    return it->second;
  }
  const Topology& operator[](int id) const { return topologies_[static_cast<size_t>(id)]; }

 private:
  std::unordered_map<Topology, int, TopologyHash> ids_;
  std::vector<Topology> topologies_;
};

// Lexicographic: total time, then fewer reconfigurations, then fewer rounds off
// their own circuits (so equal plans read as PCCL's default: each round's circuits).
struct Score {
  Time cost;
  int reconfigurations = 0;
  int off_own_circuits = 0;
  bool operator<(const Score& o) const {
    return std::tie(cost, reconfigurations, off_own_circuits) <
           std::tie(o.cost, o.reconfigurations, o.off_own_circuits);
  }
  Score plus(Time round_cost, bool reconfigures, bool off_own) const {
    return Score{cost + round_cost, reconfigurations + (reconfigures ? 1 : 0), off_own_circuits + (off_own ? 1 : 0)};
  }
};

constexpr int kUnconfigured = -1;

std::vector<Edge> pairs_of(const std::vector<Transfer>& round) {
  std::vector<Edge> pairs;
  pairs.reserve(round.size());
  for (const Transfer& t : round) pairs.push_back({t.src, t.dst});
  return pairs;
}

using RoundCostOf = std::function<const std::optional<RoundCost>&(int topology, size_t round)>;

// PCCL Section 4.2: a step whose own circuits exceed the ports becomes several rounds.
std::vector<std::vector<Transfer>> rounds_of(const StepPattern& pattern, const FabricSpec& fabric) {
  std::vector<std::vector<Transfer>> rounds;
  for (const auto& step : pattern.steps) {
    for (auto& group : split_to_ports(step, fabric)) {
      // The planner picks the topology, so a path drawn for another one means nothing here.
      for (Transfer& t : group) {
        t.path.clear();
        t.routes.clear();
      }
      rounds.push_back(std::move(group));
    }
  }
  return rounds;
}

// The exact DP over (round, topology in place). The value of a state after
// round i is the best score of any plan for rounds 0..i ending with that
// topology in place; only finite states stay live. Before round i a state can
// be kept, or any live state can reconfigure into own[i] or a candidate, so a
// round-j topology is entered at round j or never (constraint (5)). Returns
// the topology id chosen for each round.
std::vector<int> cheapest_plan(size_t rounds, int initial, const std::vector<int>& candidates,
                               const std::vector<int>& own, const RoundCostOf& cost, const FabricSpec& fabric,
                               const std::function<std::string(size_t)>& nothing_for) {
  std::map<int, Score> live{{initial, Score{}}};
  std::vector<std::map<int, int>> came_from(rounds);
  for (size_t i = 0; i < rounds; ++i) {
    std::map<int, std::pair<Score, int>> next;
    auto offer = [&](int to, Score score, int from) {
      auto it = next.find(to);
      if (it == next.end() || score < it->second.first) next[to] = {score, from};
    };
    for (const auto& [id, score] : live) {
      if (id == kUnconfigured) continue;
      if (const auto& c = cost(id, i))
        offer(id, score.plus(c->total() + fabric.step_overhead, false, id != own[i]), id);
    }
    std::vector<int> enterable{own[i]};
    for (int id : candidates) {
      if (id != own[i]) enterable.push_back(id);
    }
    for (int to : enterable) {
      const auto& c = cost(to, i);
      if (!c) continue;
      const Time round_time = fabric.reconfig_delay + c->total() + fabric.step_overhead;
      for (const auto& [from, score] : live) {
        if (from != to) offer(to, score.plus(round_time, true, to != own[i]), from);
      }
    }
    // G_i routes round i in one hop, so `next` is empty only when the
    // physical layer rules out every configuration that routes the round.
    if (next.empty()) throw Error(nothing_for(i));
    live.clear();
    for (const auto& [id, entry] : next) {
      live.emplace(id, entry.first);
      came_from[i].emplace(id, entry.second);
    }
  }
  std::vector<int> chosen(rounds);
  if (rounds == 0) return chosen;
  auto best = live.begin();
  for (auto it = live.begin(); it != live.end(); ++it) {
    if (it->second < best->second) best = it;
  }
  int state = best->first;
  for (size_t i = rounds; i-- > 0;) {
    chosen[i] = state;
    state = came_from[i].at(state);
  }
  return chosen;
}

}  // namespace

Schedule PcclPlanner::plan(const StepPattern& pattern, const PlanningInput& input) const {
  const FabricSpec& fabric = input.fabric;
  const LoadModel model = load_model_of(input.params);
  const bool paper = paper_cost(input.params);
  std::vector<std::vector<Transfer>> rounds = rounds_of(pattern, fabric);

  TopologyIds topologies;
  std::vector<int> candidates;  // enterable before any round: G_0 and S
  const int initial = input.initial ? topologies.id_of(*input.initial) : kUnconfigured;
  if (input.initial) candidates.push_back(initial);
  for (Topology& t : standard_topologies(input)) {
    const int id = topologies.id_of(std::move(t));
    if (std::find(candidates.begin(), candidates.end(), id) == candidates.end()) candidates.push_back(id);
  }
  std::vector<int> own(rounds.size());
  for (size_t i = 0; i < rounds.size(); ++i) {
    Topology circuits = pccl_own_circuits(rounds[i], fabric, i);
    circuits.check_ports(fabric);
    own[i] = topologies.id_of(std::move(circuits));
  }

  // Computed on first use: a round-j topology that cannot route round i is
  // dropped from the live states and never asked about later rounds.
  // A configuration the physical layer cannot route costs like one that cannot route the round: it is never chosen.
  std::map<std::pair<int, size_t>, std::optional<RoundCost>> memo;
  std::map<int, std::optional<std::string>> missing;
  const auto absent = [&](int id) -> const std::optional<std::string>& {
    auto it = missing.find(id);
    if (it == missing.end()) it = missing.emplace(id, unrealisable(input, topologies[id])).first;
    return it->second;
  };
  const RoundCostOf cost = [&](int id, size_t round) -> const std::optional<RoundCost>& {
    auto it = memo.find({id, round});
    if (it == memo.end()) {
      std::optional<RoundCost> c;
      if (absent(id)) {
      } else if (paper) {
        c = communication_cost(topologies[id], rounds[round], round, fabric, model);
      } else if (compute_congestion_dilation(topologies[id], pairs_of(rounds[round])).reachable) {
        const StepPrediction p =
            predict_alpha_beta_congestion_step(Step{0, rounds[round]}, topologies[id], round, fabric, input.workload);
        c = RoundCost{p.propagation, p.transmission};
      }
      it = memo.emplace(std::make_pair(id, round), std::move(c)).first;
    }
    return it->second;
  };
  if (input.initial && absent(initial))
    throw Error("planner 'pccl': the initial configuration (synthesis.topology) does not exist on fabric.physical: " +
                *absent(initial));
  const std::vector<int> chosen =
      cheapest_plan(rounds.size(), initial, candidates, own, cost, fabric, [&](size_t round) {
        return "planner 'pccl': no configuration for round " + std::to_string(round) +
               " exists on fabric.physical (its own circuits: " + absent(own[round]).value_or("route") +
               "; no standard topology or the one in place routes it)";
      });

  TopologyCatalog catalog;
  ScheduleParts parts = schedule_header(pattern, input);
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  Prediction prediction;
  prediction.model = paper ? pccl_model_name(model) : "alpha_beta_congestion";
  int in_place = initial;
  for (size_t i = 0; i < rounds.size(); ++i) {
    const RoundCost& c = *cost(chosen[i], i);
    prediction.steps.push_back(StepPrediction{chosen[i] == in_place ? Time::zero() : fabric.reconfig_delay,
                                              fabric.step_overhead, c.propagation, c.transmission});
    in_place = chosen[i];
    parts.steps.push_back(Step{catalog.index_of(topologies[chosen[i]]), std::move(rounds[i])});
  }
  parts.topologies = catalog.take();
  parts.prediction = std::move(prediction);
  return Schedule(std::move(parts));
}

}  // namespace photonsim
