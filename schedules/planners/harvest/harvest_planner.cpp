#include "schedules/planners/harvest/harvest_planner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "core/error.h"
#include "schedules/planners/harvest/harvest_candidates.h"
#include "schedules/cost/harvest/harvest_coefficients.h"
#include "schedules/cost/harvest/harvest_route_choice.h"
#include "schedules/planners/harvest/harvest_partition.h"
#include "schedules/planners/harvest/harvest_recursive_doubling.h"
#include "schedules/planners/harvest/harvest_step_costs.h"
#include "schedules/planners/port_split.h"
#include "schedules/planners/static_planner.h"
#include "schedules/cost/harvest/harvest_step_demand.h"
#include "schedules/model/topology_catalog.h"

namespace photonsim {

PlannerInfo HarvestPlanner::info() const {
  return {"harvest",
          "Harvest DP over step ranges (Eq. 4/5, Alg. 1): alpha + delta*l + beta*m/theta per step + alpha_r per "
          "change; Eq. 8 for recursive doubling",
          {ParameterSpec::computed("candidates", ParameterType::text, "all",
                                   "[initial, step, shifted_ring, torus, expander, parallel]"),
           ParameterSpec::computed("max_reconfigurations", ParameterType::integer, "unlimited", "at most K changes"),
           ParameterSpec::boolean("closed_form", true, "Eq. 8 for recursive_doubling on n = 2^j, 1 directed port"),
           ParameterSpec::choice("cost", {"overlapped", "paper"},
                                 "overlapped: propagation overlapped with transmission as the fabric forwards; "
                                 "paper: Eq. 3/8 as printed (delta * l added to beta * m / theta)")}};
}

namespace {

struct Options {
  HarvestCandidateFamilies families;
  std::optional<int> max_reconfigurations;
  bool closed_form = true;
  HarvestCost cost = HarvestCost::overlapped;
};

Options parse_options(const PlanningInput& input) {
  const ComponentParams& params = input.params;
  Options o;
  o.families = HarvestCandidateFamilies::parse(params, "candidates");
  o.closed_form = params.boolean("closed_form");
  o.cost = params.text("cost") == "paper" ? HarvestCost::paper : HarvestCost::overlapped;
  if (params.has("max_reconfigurations")) {
    const int64_t cap = params.integer("max_reconfigurations");
    if (cap < 0) params.fail("max_reconfigurations", "must be >= 0, got " + std::to_string(cap));
    if (cap == 0 && !input.initial) {
      params.fail("max_reconfigurations",
                  "0 is infeasible with synthesis.topology none: the first configuration is a reconfiguration");
    }
    o.max_reconfigurations = static_cast<int>(std::min<int64_t>(cap, std::numeric_limits<int>::max()));
  }
  return o;
}

ScheduleParts parts_for(const StepPattern& pattern, const PlanningInput& input) {
  ScheduleParts parts = schedule_header(pattern, input);
  return parts;
}

Time picoseconds(double ps) { return Time::from_picoseconds(ps); }

// Prediction with reconfiguration charged exactly where the schedule (and so
// the simulator) reconfigures.
// Takes the schedule by value and moves it on: a ring's 2(n-1) steps of
// routed transfers are not copied.
Schedule with_harvest_prediction(Schedule schedule, std::vector<StepPrediction> steps, const std::string& model,
                                 const FabricSpec& fabric) {
  for (size_t s = 0; s < steps.size(); ++s) {
    steps[s].reconfiguration = schedule.reconfigures_before(s) ? fabric.reconfig_delay : Time::zero();
  }
  return std::move(schedule).with_prediction(Prediction{model, std::move(steps)});
}

// ---- recursive doubling: the closed form (Sec. 5) ----

Topology power_ring(int n, int exponent) {
  std::vector<Edge> edges;
  const int shift = 1 << exponent;
  for (int u = 0; u < n; ++u) edges.push_back({static_cast<Node>(u), static_cast<Node>((u + shift) % n)});
  return Topology("shifted_ring(" + std::to_string(shift) + ")", n, std::move(edges));
}

// The steps as HarvestRdStep when the pattern is recursive doubling in the
// setting of Sec. 5: n = 2^j, one directed port, and in every step each node
// sends once, to u + 2^e for one e.
std::optional<std::vector<HarvestRdStep>> recursive_doubling_steps(const StepPattern& pattern,
                                                                   const FabricSpec& fabric) {
  const int n = fabric.gpus;
  if (n < 2 || (n & (n - 1)) != 0 || fabric.ports != 1 || fabric.circuits != CircuitKind::directed) return std::nullopt;
  std::vector<HarvestRdStep> steps;
  for (const std::vector<Transfer>& step : pattern.steps) {
    if (step.size() != static_cast<size_t>(n)) return std::nullopt;
    const uint32_t distance =
        (step.front().dst + static_cast<uint32_t>(n) - step.front().src) % static_cast<uint32_t>(n);
    if (distance == 0 || (distance & (distance - 1)) != 0) return std::nullopt;
    std::vector<bool> sends(static_cast<size_t>(n), false);
    int64_t bytes = 0;
    for (const Transfer& t : step) {
      if ((t.dst + static_cast<uint32_t>(n) - t.src) % static_cast<uint32_t>(n) != distance || sends[t.src]) {
        return std::nullopt;
      }
      sends[t.src] = true;
      bytes = std::max(bytes, t.bytes.count());
    }
    int exponent = 0;
    while ((1u << exponent) < distance) ++exponent;
    steps.push_back({exponent, static_cast<double>(bytes)});
  }
  return steps;
}

Schedule plan_closed_form(const StepPattern& pattern, const PlanningInput& input, const Options& options,
                          const std::vector<HarvestRdStep>& steps, std::optional<int> initial_exponent) {
  const FabricSpec& fabric = input.fabric;
  const HarvestCoefficients c = HarvestCoefficients::of(fabric, input.workload, options.cost);
  const HarvestPartition partition =
      harvest_recursive_doubling(steps, c, initial_exponent, options.max_reconfigurations);
  TopologyCatalog catalog;
  ScheduleParts parts = parts_for(pattern, input);
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  std::vector<StepPrediction> predictions;
  for (const HarvestRange& range : partition.ranges) {
    const int index = catalog.index_of(power_ring(fabric.gpus, range.topology));
    for (int i = range.first; i <= range.last; ++i) {
      const HarvestRdStep& step = steps[static_cast<size_t>(i)];
      const int64_t hops = int64_t{1} << (step.exponent - range.topology);  // = congestion on this ring
      // The ring is a union of directed cycles: the shortest path is the only path.
      parts.steps.push_back(Step{index, pattern.steps[static_cast<size_t>(i)]});
      StepPrediction p;
      p.startup = fabric.step_overhead;
      const auto terms = c.terms(step.bytes, static_cast<double>(hops), static_cast<int>(hops), step.bytes);
      p.propagation = picoseconds(terms.propagation_ps);
      p.transmission = picoseconds(terms.transmission_ps);
      predictions.push_back(p);
    }
  }
  parts.topologies = catalog.take();
  return with_harvest_prediction(Schedule(std::move(parts)), std::move(predictions),
                                 harvest_model_name(options.cost, true), fabric);
}

// ---- the general dynamic program ----

// The transfer's bytes over the decomposition's paths for its pair, in
// proportion to their flow; the rounding remainder goes to the largest share.
std::vector<Route> split_over_paths(const Transfer& transfer, const std::vector<FlowPath>& paths) {
  double total = 0.0;
  size_t largest = 0;
  for (size_t j = 0; j < paths.size(); ++j) {
    total += paths[j].amount;
    if (paths[j].amount > paths[largest].amount) largest = j;
  }
  const int64_t bytes = transfer.bytes.count();
  std::vector<int64_t> share(paths.size(), 0);
  int64_t assigned = 0;
  for (size_t j = 0; j < paths.size(); ++j) {
    share[j] = static_cast<int64_t>(std::floor(static_cast<long double>(bytes) * paths[j].amount / total));
    assigned += share[j];
  }
  share[largest] += bytes - assigned;
  std::vector<Route> routes;
  for (size_t j = 0; j < paths.size(); ++j) {
    if (share[j] > 0) routes.push_back(Route{paths[j].nodes, Bytes(share[j])});
  }
  return routes;
}

std::vector<Transfer> routed_transfers(const std::vector<Transfer>& transfers, const HarvestFlowCache::Flow& flow) {
  std::vector<Transfer> out = transfers;
  for (Transfer& t : out) {
    if (t.bytes.count() == 0) continue;  // nothing to split; the shortest path carries the (empty) transfer
    auto it = std::lower_bound(
        flow.pairs.begin(), flow.pairs.end(), Edge{t.src, t.dst},
        [](const HarvestFlowCache::PairPaths& p, const Edge& e) { return std::make_pair(p.src, p.dst) < e; });
    t.path.clear();
    t.routes = split_over_paths(t, it->paths);
  }
  return out;
}

Schedule plan_by_dynamic_program(const StepPattern& pattern, const PlanningInput& input, const Options& options,
                                 HarvestFlowCache& cache) {
  const FabricSpec& fabric = input.fabric;
  const HarvestCoefficients c = HarvestCoefficients::of(fabric, input.workload, options.cost);
  std::vector<HarvestStepDemand> demands;
  for (const std::vector<Transfer>& step : pattern.steps) demands.emplace_back(fabric.gpus, step);

  std::vector<Topology> topologies =
      harvest_candidates(pattern.steps, fabric, input.seed, input.initial, options.families);
  if (topologies.empty()) {
    input.params.fail("candidates",
                      "no topology of these families fits fabric.ports = " + std::to_string(fabric.ports));
  }
  // A candidate the physical layer cannot route does not exist.
  std::string missing;
  std::erase_if(topologies, [&](const Topology& t) {
    auto why = unrealisable(input, t);
    if (why && missing.empty()) missing = t.name() + ": " + *why;
    return why.has_value();
  });
  if (topologies.empty()) input.params.fail("candidates", "no candidate exists on fabric.physical (" + missing + ")");
  if (input.initial) {
    if (auto why = unrealisable(input, *input.initial))
      throw Error(
          "planner 'harvest': the initial configuration (synthesis.topology) does not exist on "
          "fabric.physical: " +
          *why);
  }
  const size_t candidates = topologies.size();
  int initial = -1;
  if (input.initial) {
    const auto it = std::find(topologies.begin(), topologies.end(), *input.initial);
    initial = static_cast<int>(it - topologies.begin());
    if (it == topologies.end()) topologies.push_back(*input.initial);  // kept free, but not a candidate
  }

  HarvestStepCosts costs(topologies, demands, c, cache);
  for (size_t i = 0; i < demands.size(); ++i) {
    bool routed = initial >= 0 && costs.routes(i, static_cast<size_t>(initial));
    for (size_t g = 0; g < candidates && !routed; ++g) routed = costs.routes(i, g);
    if (!routed) {
      input.params.fail("candidates", "no candidate topology routes step " + std::to_string(i + 1) +
                                          " within fabric.ports = " + std::to_string(fabric.ports) +
                                          (missing.empty() ? "" : " that exists on fabric.physical"));
    }
  }
  HarvestPartitionProblem problem;
  problem.steps = static_cast<int>(demands.size());
  problem.best_topology = [&](int first, int last) { return costs.best(first, last, candidates); };
  problem.initial_topology = initial;
  problem.cost_on_initial = [&](int last) { return costs.exact_prefix(last, static_cast<size_t>(initial)); };
  problem.alpha_r_ps = c.alpha_r_ps;
  problem.max_reconfigurations = options.max_reconfigurations;
  for (size_t i = 0; i < demands.size(); ++i) problem.step_floor.push_back(costs.floor(i));
  const HarvestPartition partition = optimal_harvest_partition(problem);

  TopologyCatalog catalog;
  ScheduleParts parts = parts_for(pattern, input);
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  std::vector<StepPrediction> predictions;
  for (const HarvestRange& range : partition.ranges) {
    const Topology& topology = topologies[static_cast<size_t>(range.topology)];
    const int index = catalog.index_of(topology);
    const size_t topology_id = cache.topology_id(topology);
    for (int i = range.first; i <= range.last; ++i) {
      const HarvestStepDemand& demand = demands[static_cast<size_t>(i)];
      const HarvestFlowCache::Flow flow = cache.flow(topology_id, cache.shape_id(demand));
      const HarvestRouteChoice routes = choose_harvest_routes(c, demand, flow);
      // Shortest paths: the transfers as the pattern gives them, routed by the simulator's shortest path.
      parts.steps.push_back(Step{index, routes.shortest
                                            ? pattern.steps[static_cast<size_t>(i)]
                                            : routed_transfers(pattern.steps[static_cast<size_t>(i)], flow)});
      StepPrediction p;
      p.startup = fabric.step_overhead;
      const auto terms = c.terms(static_cast<double>(demand.unit_bytes()), routes.inverse_theta, routes.hops,
                                 static_cast<double>(demand.max_pair_bytes()));
      p.propagation = picoseconds(terms.propagation_ps);
      p.transmission = picoseconds(terms.transmission_ps);
      predictions.push_back(p);
    }
  }
  parts.topologies = catalog.take();
  return with_harvest_prediction(Schedule(std::move(parts)), std::move(predictions),
                                 harvest_model_name(options.cost, false), fabric);
}

}  // namespace

Schedule HarvestPlanner::plan(const StepPattern& pattern, const PlanningInput& input) const {
  HarvestFlowCache cache;
  return plan_with_cache(pattern, input, cache);
}

namespace {

// The pattern with every step over fabric.ports cut into groups that fit, as
// every_step cuts it (split_to_ports); nullopt when every step fits.
std::optional<StepPattern> split_over_port_limit(const StepPattern& pattern, const FabricSpec& fabric) {
  StepPattern split = pattern;
  split.steps.clear();
  bool any = false;
  for (const std::vector<Transfer>& step : pattern.steps) {
    std::vector<std::vector<Transfer>> groups = split_to_ports(step, fabric);
    any = any || groups.size() > 1;
    if (groups.empty()) groups.emplace_back();  // an empty step stays a step
    for (auto& group : groups) split.steps.push_back(std::move(group));
  }
  if (!any) return std::nullopt;
  return split;
}

}  // namespace

Schedule HarvestPlanner::plan_with_cache(const StepPattern& pattern, const PlanningInput& input,
                                         HarvestFlowCache& cache) const {
  Schedule whole = plan_pattern(pattern, input, cache);
  // A step that needs more circuits than a GPU has ports is one step to
  // Harvest's candidates (routed over multi-hop paths) but several to
  // every_step. Planning the cut pattern too puts every_step's plan in the
  // DP's space, so Harvest's model never prefers reconfiguring every step.
  if (const std::optional<StepPattern> split = split_over_port_limit(pattern, input.fabric)) {
    Schedule cut = plan_pattern(*split, input, cache);
    if (cut.prediction().total() < whole.prediction().total()) whole = std::move(cut);
  }
  // Independent steps (an all-to-all's shifts) regrouped by hop count on the
  // static topology, as the static planner runs them (d and n - d in one
  // round on a bidirectional ring): planning those rounds too puts the
  // static planner's plan in the DP's space.
  if (pattern.independent_steps && input.static_topology) {
    StepPattern rounds = pattern;
    rounds.steps = rounds_by_hops(pattern, *input.static_topology, "harvest");
    if (rounds.steps.size() != pattern.steps.size()) {
      Schedule merged = plan_pattern(rounds, input, cache);
      if (merged.prediction().total() < whole.prediction().total()) return merged;
    }
  }
  return whole;
}

Schedule HarvestPlanner::plan_pattern(const StepPattern& pattern, const PlanningInput& input,
                                      HarvestFlowCache& cache) const {
  const Options options = parse_options(input);
  // The closed form assumes its rings exist; on fabric.physical the DP weighs only those that do.
  if (options.closed_form && !input.physical && input.algorithm == "recursive_doubling" &&
      (options.families.step || options.families.shifted_ring)) {
    if (const auto steps = recursive_doubling_steps(pattern, input.fabric)) {
      // Eq. 8 knows the rings u -> u + 2^f; another initial topology needs the LPs.
      std::optional<int> initial_exponent;
      bool initial_is_a_ring = !input.initial;
      for (int f = 0; input.initial && (1 << f) < input.fabric.gpus && !initial_is_a_ring; ++f) {
        if (*input.initial == power_ring(input.fabric.gpus, f)) {
          initial_exponent = f;
          initial_is_a_ring = true;
        }
      }
      if (initial_is_a_ring) return plan_closed_form(pattern, input, options, *steps, initial_exponent);
    }
  }
  return plan_by_dynamic_program(pattern, input, options, cache);
}

}  // namespace photonsim
