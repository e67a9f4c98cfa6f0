#include "schedules/planners/segments_planner.h"

#include "core/error.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "schedules/model/topology_catalog.h"

namespace photonsim {

PlannerInfo SegmentsPlanner::info() const {
  PlannerInfo info{"retri_segments",
                   "ReTri section 3.4: R reconfigurations into balanced segments of subrings, R* by prediction",
                   {ParameterSpec::computed("reconfigurations", ParameterType::integer, "the best R in 0..phases-1",
                                            "R reconfigurations into R + 1 segments")}};
  if (base_ == 2) {
    info.name = "bridge_segments";
    info.description = "the same placement for mirrored Bruck (Bridge): subrings of stride 2^k";
  }
  return info;
}

namespace {

// i <-> i +- stride (mod n), as the `subrings` generator builds it.
Topology subrings(int n, int64_t stride) {
  std::vector<Edge> edges;
  for (int64_t u = 0; u < n; ++u) {
    edges.push_back({static_cast<Node>(u), static_cast<Node>((u + stride) % n)});
    edges.push_back({static_cast<Node>(u), static_cast<Node>((u - stride % n + n) % n)});
  }
  return Topology("subrings(" + std::to_string(stride) + ")", n, std::move(edges));
}

}  // namespace

std::vector<size_t> SegmentsPlanner::segment_starts(size_t phases, size_t reconfigurations) {
  const size_t segments = reconfigurations + 1;
  std::vector<size_t> starts;
  size_t at = 0;
  for (size_t j = 0; j < segments; ++j) {
    starts.push_back(at);
    at += phases / segments + (j < phases % segments ? 1 : 0);
  }
  return starts;
}

Schedule SegmentsPlanner::plan(const StepPattern& pattern, const PlanningInput& input) const {
  const int n = input.fabric.gpus;
  const size_t phases = pattern.steps.size();
  const std::string name = input.planner.empty() ? "segments" : input.planner;
  if (phases == 0) throw Error("planner '" + name + "': the pattern has no steps");
  // Phase k must move data by +-base^k: that is what makes its subrings reusable.
  std::vector<int64_t> stride(phases, 1);
  for (size_t k = 1; k < phases; ++k) stride[k] = (stride[k - 1] * base_) % n;
  for (size_t k = 0; k < phases; ++k) {
    for (const Transfer& t : pattern.steps[k]) {
      const int64_t offset = (static_cast<int64_t>(t.dst) - static_cast<int64_t>(t.src) + n) % n;
      if (offset != stride[k] && offset != (n - stride[k]) % n) {
        throw Error("planner '" + name + "' needs phase k to move data by +-" + std::to_string(base_) + "^k; phase " +
                    std::to_string(k) + " of '" + input.algorithm + "' sends " + std::to_string(t.src) + "->" +
                    std::to_string(t.dst));
      }
    }
  }
  const int64_t max_reconfigurations = static_cast<int64_t>(phases) - 1;
  int64_t lowest = 0, highest = max_reconfigurations;
  if (input.params.has("reconfigurations")) {
    lowest = highest = input.params.integer("reconfigurations");
    if (lowest < 0 || lowest > max_reconfigurations) {
      input.params.fail("reconfigurations", "must be in 0.." + std::to_string(max_reconfigurations) + " for " +
                                                std::to_string(phases) + " phases");
    }
  }

  auto build = [&](size_t reconfigurations) {
    TopologyCatalog catalog;
    ScheduleParts parts = schedule_header(pattern, input);
    parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
    const std::vector<size_t> starts = segment_starts(phases, reconfigurations);
    size_t segment = 0;
    int topology = -1;
    for (size_t k = 0; k < phases; ++k) {
      if (segment < starts.size() && starts[segment] == k) {
        Topology rings = subrings(n, stride[k]);
        rings.check_ports(input.fabric);
        topology = catalog.index_of(rings);
        ++segment;
      }
      parts.steps.push_back(Step{topology, pattern.steps[k]});
    }
    parts.topologies = catalog.take();
    Schedule planned(std::move(parts));
    Prediction prediction = predict_alpha_beta_congestion(planned, input.fabric, input.workload);
    return std::move(planned).with_prediction(std::move(prediction));
  };

  std::optional<Schedule> best;
  for (int64_t r = lowest; r <= highest; ++r) {
    Schedule candidate = build(static_cast<size_t>(r));
    // Ties keep fewer reconfigurations.
    if (!best || candidate.prediction().total() < best->prediction().total()) best = std::move(candidate);
  }
  return std::move(*best);
}

}  // namespace photonsim
