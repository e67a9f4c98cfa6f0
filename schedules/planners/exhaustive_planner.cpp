#include "schedules/planners/exhaustive_planner.h"

#include <limits>
#include <sstream>

#include "core/error.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "schedules/model/topology_catalog.h"
#include "topology/shortest_path_router.h"
#include "topology/step_circuits.h"
#include "topology/topology_registry.h"

namespace photonsim {

PlannerInfo ExhaustivePlanner::info() const {
  return {"exhaustive", "test oracle: every assignment of candidate topologies to steps",
          {ParameterSpec::computed("candidates", ParameterType::text, "[ring, torus, grid, hypercube, step]", "the topologies tried per step"),
           ParameterSpec::integer("limit", 2'000'000, "the most assignments tried", 1)}};
}

namespace {

struct Candidate {
  std::optional<Topology> fixed;  // a generator's topology, or nullopt = the step's own circuits
};

Topology own_circuits(const std::vector<Transfer>& transfers, const FabricSpec& fabric, size_t step) {
  std::vector<Edge> pairs;
  for (const Transfer& t : transfers) pairs.push_back({t.src, t.dst});
  return circuits_for_pairs("step" + std::to_string(step), fabric.gpus, pairs, fabric.circuits);
}

bool routable(const Topology& topology, const std::vector<Transfer>& transfers) {
  ShortestPathRouter router(topology);
  for (const Transfer& t : transfers) {
    if (router.hops(t.src, t.dst) < 0) return false;
  }
  return true;
}

}  // namespace

Schedule ExhaustivePlanner::plan(const StepPattern& pattern, const PlanningInput& input) const {
  const ComponentParams& params = input.params;
  std::vector<std::string> names = {"ring", "torus", "grid", "hypercube", "step"};
  if (params.has("candidates")) {
    names.clear();
    std::string list = params.text("candidates");
    for (char& c : list) {
      if (c == '[' || c == ']' || c == ',') c = ' ';
    }
    std::istringstream words(list);
    for (std::string w; words >> w;) names.push_back(w);
    if (names.empty()) params.fail("candidates", "must name at least one topology or `step`");
  }
  const int64_t limit = params.integer("limit");

  // Candidate topologies for this fabric; generators that cannot build one here are skipped.
  const TopologyRegistry registry = TopologyRegistry::with_builtin_generators();
  std::vector<Candidate> candidates;
  for (const std::string& name : names) {
    if (name == "step") {
      candidates.push_back({std::nullopt});
      continue;
    }
    registry.entry(name);  // unknown names are an error, not a skip
    try {
      if (auto t = registry.make(TopologySpec{name, {}}, input.fabric, input.seed)) candidates.push_back({*t});
    } catch (const Error&) {
      // Does not fit this fabric (ports, GPU count): not a candidate.
    }
  }
  const size_t steps = pattern.steps.size();
  const size_t choices = candidates.size();
  double space = 1;
  for (size_t s = 0; s < steps; ++s) space *= static_cast<double>(choices);
  if (choices == 0) throw Error("planner 'exhaustive': no candidate topology fits this fabric");
  if (space > static_cast<double>(limit)) {
    throw Error("planner 'exhaustive': " + std::to_string(choices) + "^" + std::to_string(steps) +
                " assignments exceed the limit of " + std::to_string(limit) + " (planner parameter 'limit')");
  }

  // The topology each (step, candidate) would run on, and its cost alone.
  std::vector<std::vector<std::optional<Topology>>> topology(steps, std::vector<std::optional<Topology>>(choices));
  std::vector<std::vector<Time>> cost(steps, std::vector<Time>(choices, Time::max()));
  for (size_t s = 0; s < steps; ++s) {
    for (size_t c = 0; c < choices; ++c) {
      Topology t = candidates[c].fixed ? *candidates[c].fixed : own_circuits(pattern.steps[s], input.fabric, s);
      try {
        t.check_ports(input.fabric);
      } catch (const Error&) {
        continue;
      }
      if (!routable(t, pattern.steps[s])) continue;
      ScheduleParts one;
      one.gpus = input.fabric.gpus;
      one.topologies = {t};
      one.initial_topology = 0;  // reconfiguration is added by the search
      one.steps = {Step{0, pattern.steps[s]}};
      cost[s][c] = predict_alpha_beta_congestion(Schedule(std::move(one)), input.fabric, input.workload).total();
      topology[s][c] = std::move(t);
    }
  }

  std::vector<size_t> pick(steps, 0), best;
  Time best_total = Time::max();
  const Time alpha_r = input.fabric.reconfig_delay;
  for (;;) {
    Time total;
    bool feasible = true;
    const Topology* current = input.initial ? &*input.initial : nullptr;
    for (size_t s = 0; s < steps && feasible; ++s) {
      if (cost[s][pick[s]] == Time::max()) {
        feasible = false;
        break;
      }
      const Topology& next = *topology[s][pick[s]];
      if (current == nullptr || !(*current == next)) total += alpha_r;
      total += cost[s][pick[s]];
      current = &next;
    }
    if (feasible && total < best_total) {
      best_total = total;
      best = pick;
    }
    size_t digit = 0;
    while (digit < steps && ++pick[digit] == choices) pick[digit++] = 0;
    if (digit == steps) break;
  }
  if (best.empty() && steps > 0) throw Error("planner 'exhaustive': no candidate routes every step");

  TopologyCatalog catalog;
  ScheduleParts parts = schedule_header(pattern, input);
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  for (size_t s = 0; s < steps; ++s) parts.steps.push_back(Step{catalog.index_of(*topology[s][best[s]]), pattern.steps[s]});
  parts.topologies = catalog.take();
  const Schedule planned(std::move(parts));
  return planned.with_prediction(predict_alpha_beta_congestion(planned, input.fabric, input.workload));
}

}  // namespace photonsim
