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
  return {"exhaustive",
          "test oracle: every assignment of candidate topologies to steps",
          {ParameterSpec::computed("candidates", ParameterType::text, "[ring, torus, grid, hypercube, step]",
                                   "the topologies tried per step"),
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

// Candidate topologies for this fabric; generators that cannot build one here are skipped.
std::vector<Candidate> build_candidates(const std::vector<std::string>& names, const PlanningInput& input) {
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
  return candidates;
}

void check_search_size(size_t steps, size_t choices, int64_t limit) {
  double space = 1;
  for (size_t s = 0; s < steps; ++s) space *= static_cast<double>(choices);
  if (choices == 0) throw Error("planner 'exhaustive': no candidate topology fits this fabric");
  if (space > static_cast<double>(limit)) {
    throw Error("planner 'exhaustive': " + std::to_string(choices) + "^" + std::to_string(steps) +
                " assignments exceed the limit of " + std::to_string(limit) + " (planner parameter 'limit')");
  }
}

// The topology each (step, candidate) would run on, and its cost alone;
// Time::max() (and no topology) where it does not fit the ports or route the step.
struct StepOptions {
  std::vector<std::vector<std::optional<Topology>>> topology;
  std::vector<std::vector<Time>> cost;
};

Time cost_alone(const Topology& t, const std::vector<Transfer>& transfers, const PlanningInput& input) {
  ScheduleParts one;
  one.gpus = input.fabric.gpus;
  one.topologies = {t};
  one.initial_topology = 0;  // reconfiguration is added by the search
  one.steps = {Step{0, transfers}};
  return predict_alpha_beta_congestion(Schedule(std::move(one)), input.fabric, input.workload).total();
}

StepOptions cost_every_option(const StepPattern& pattern, const std::vector<Candidate>& candidates,
                              const PlanningInput& input) {
  const size_t steps = pattern.steps.size();
  const size_t choices = candidates.size();
  StepOptions options;
  options.topology.assign(steps, std::vector<std::optional<Topology>>(choices));
  options.cost.assign(steps, std::vector<Time>(choices, Time::max()));
  for (size_t s = 0; s < steps; ++s) {
    for (size_t c = 0; c < choices; ++c) {
      Topology t = candidates[c].fixed ? *candidates[c].fixed : own_circuits(pattern.steps[s], input.fabric, s);
      try {
        t.check_ports(input.fabric);
      } catch (const Error&) {
        continue;
      }
      if (!routable(t, pattern.steps[s])) continue;
      options.cost[s][c] = cost_alone(t, pattern.steps[s], input);
      options.topology[s][c] = std::move(t);
    }
  }
  return options;
}

// The total of one assignment, a reconfiguration charged wherever the
// topology changes; nullopt when some step cannot run on its pick.
std::optional<Time> assignment_total(const StepOptions& options, const std::vector<size_t>& pick,
                                     const PlanningInput& input) {
  Time total;
  const Topology* current = input.initial ? &*input.initial : nullptr;
  for (size_t s = 0; s < pick.size(); ++s) {
    if (options.cost[s][pick[s]] == Time::max()) return std::nullopt;
    const Topology& next = *options.topology[s][pick[s]];
    if (current == nullptr || !(*current == next)) total += input.fabric.reconfig_delay;
    total += options.cost[s][pick[s]];
    current = &next;
  }
  return total;
}

// Every assignment in odometer order (step 0 the fastest digit); ties keep
// the first found.
std::vector<size_t> cheapest_assignment(const StepOptions& options, size_t choices, const PlanningInput& input) {
  const size_t steps = options.cost.size();
  std::vector<size_t> pick(steps, 0), best;
  Time best_total = Time::max();
  for (;;) {
    const std::optional<Time> total = assignment_total(options, pick, input);
    if (total && *total < best_total) {
      best_total = *total;
      best = pick;
    }
    size_t digit = 0;
    while (digit < steps && ++pick[digit] == choices) pick[digit++] = 0;
    if (digit == steps) break;
  }
  if (best.empty() && steps > 0) throw Error("planner 'exhaustive': no candidate routes every step");
  return best;
}

Schedule assemble_schedule(const StepPattern& pattern, const PlanningInput& input, const StepOptions& options,
                           const std::vector<size_t>& best) {
  TopologyCatalog catalog;
  ScheduleParts parts = schedule_header(pattern, input);
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  for (size_t s = 0; s < best.size(); ++s)
    parts.steps.push_back(Step{catalog.index_of(*options.topology[s][best[s]]), pattern.steps[s]});
  parts.topologies = catalog.take();
  Schedule planned(std::move(parts));
  Prediction prediction = predict_alpha_beta_congestion(planned, input.fabric, input.workload);
  return std::move(planned).with_prediction(std::move(prediction));
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

  const std::vector<Candidate> candidates = build_candidates(names, input);
  check_search_size(pattern.steps.size(), candidates.size(), limit);
  const StepOptions options = cost_every_option(pattern, candidates, input);
  const std::vector<size_t> best = cheapest_assignment(options, candidates.size(), input);
  return assemble_schedule(pattern, input, options, best);
}

}  // namespace photonsim
