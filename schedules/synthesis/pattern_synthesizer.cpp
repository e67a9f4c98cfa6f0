#include "schedules/synthesis/pattern_synthesizer.h"

#include <algorithm>
#include <optional>

#include "core/error.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "schedules/synthesis/physical_feasibility.h"
#include "schedules/verify/block_verifier.h"
#include "topology/component_params.h"
#include "topology/step_circuits.h"

namespace photonsim {

namespace {

// synthesis.static_topology: {type: from_step, step: K}: the circuits step K asks for.
Topology circuits_of_step(const TopologySpec& spec, const StepPattern& pattern, const FabricSpec& fabric) {
  const ComponentParams params("from_step", spec.params, {"step"});
  const int64_t step = params.integer("step", 0);
  if (step < 0 || step >= static_cast<int64_t>(pattern.steps.size())) {
    params.fail("step", "must be in 0.." + std::to_string(pattern.steps.size() - 1) + ", got " + std::to_string(step));
  }
  std::vector<Edge> pairs;
  for (const Transfer& t : pattern.steps[static_cast<size_t>(step)]) pairs.push_back({t.src, t.dst});
  Topology topology =
      circuits_for_pairs("from_step(" + std::to_string(step) + ")", fabric.gpus, pairs, fabric.circuits);
  topology.check_ports(fabric);
  return topology;
}

}  // namespace

PlannerInfo PatternSynthesizer::auto_planner_info() {
  return {kAutoPlanner, "every planner but exhaustive; keeps the lowest predicted time (photonsim plan ranks them)"};
}

const PatternSynthesizer::PlannerChoice& PatternSynthesizer::planner_named(const std::string& name) const {
  for (const PlannerChoice& p : planners_) {
    if (p.info.name == name) return p;
  }
  throw Error("synthesis.planner: unknown planner " + quoted(name));
}

Schedule PatternSynthesizer::plan_with(const PlannerChoice& planner, const SynthesisRequest& request) const {
  const FabricSpec& fabric = request.fabric;
  const ComponentParams algorithm_params(info_.name, request.synthesis.algorithm_params, info_.parameters, "algorithm");
  PlanningInput input;
  input.fabric = fabric;
  input.workload = request.workload;
  input.algorithm = info_.name;
  input.planner = planner.info.name;
  input.params =
      ComponentParams(planner.info.name, request.synthesis.planner_params, planner.info.parameters, "planner");
  input.seed = request.seed;
  input.physical = request.physical;
  const StepPattern pattern =
      algorithm_.pattern(AlgorithmInput{fabric, request.workload, algorithm_params, request.seed});
  const auto make_topology = [&](const TopologySpec& spec, const std::string& key) -> std::optional<Topology> {
    try {
      if (spec.type == "from_step" && key == "synthesis.static_topology")
        return circuits_of_step(spec, pattern, fabric);
      return topologies_.make(spec, fabric, request.seed);
    } catch (const Error& e) {
      throw Error(key + ": " + e.what());
    }
  };
  input.initial = make_topology(request.synthesis.topology, "synthesis.topology");
  input.static_topology = request.synthesis.static_topology
                              ? make_topology(*request.synthesis.static_topology, "synthesis.static_topology")
                              : input.initial;
  Schedule planned = planner.planner->plan(pattern, input);
  if (info_.reads_file) {
    // The built-in algorithms are proven by the test suite at every size they
    // support; a file is proven here, before any engine runs it.
    const Verification proof = verify_schedule(planned);
    if (!proof.ok())
      throw Error("synthesis.algorithm: " + algorithm_params.text("file") +
                  ": the algorithm does not do its collective (the verifier: " + proof.violation->describe() + ")");
  }
  if (request.physical) {
    if (auto why = unrealised_step(planned, *request.physical))
      throw Error("planner '" + planner.info.name + "': " + *why);
  }
  if (!planned.prediction().steps.empty()) return planned;
  Prediction prediction = predict_alpha_beta_congestion(planned, fabric, request.workload, request.progress);
  return std::move(planned).with_prediction(std::move(prediction));
}

std::vector<PlanCandidate> PatternSynthesizer::candidates(const SynthesisRequest& request,
                                                          CandidateDetail detail) const {
  std::vector<PlanCandidate> out;
  const auto tried = [](const PlannerChoice& p) { return p.info.name != "exhaustive"; };  // a test oracle, too slow
  const auto planners = static_cast<double>(std::count_if(planners_.begin(), planners_.end(), tried));
  const std::string stage = "placing '" + info_.name + "' with each planner";
  for (const PlannerChoice& p : planners_) {
    if (!tried(p)) continue;
    report_work(request.progress, {stage, static_cast<double>(out.size()), planners});
    SynthesisSpec one = request.synthesis;
    one.planner = p.info.name;
    one.planner_params.clear();
    PlanCandidate candidate;
    candidate.planner = p.info.name;
    try {
      candidate.schedule =
          plan_with(p, SynthesisRequest{request.fabric, request.workload, one, request.seed, request.physical});
    } catch (const Error& e) {
      candidate.error = e.what();
    }
    // Outside the try: a predicted total past the largest Time is the run's error, not this planner's.
    if (candidate.schedule) {
      candidate.summary = CandidateSummary::of(*candidate.schedule);
      if (detail == CandidateDetail::summaries) candidate.schedule.reset();
    }
    out.push_back(std::move(candidate));
  }
  return out;
}

Schedule PatternSynthesizer::synthesize(const SynthesisRequest& request) const {
  const std::string& planner = request.synthesis.planner.empty() ? info_.default_planner : request.synthesis.planner;
  if (planner != kAutoPlanner) return plan_with(planner_named(planner), request);
  if (!request.synthesis.planner_params.empty()) {
    throw Error("planner 'auto' has no parameter '" + request.synthesis.planner_params.begin()->first +
                "' (valid: none)");
  }
  std::vector<PlanCandidate> candidates = this->candidates(request);
  PlanCandidate* best = nullptr;
  for (PlanCandidate& c : candidates) {
    if (c.ok() && (!best || c.schedule->prediction().total() < best->schedule->prediction().total())) best = &c;
  }
  if (!best) throw Error("planner 'auto': no planner could place '" + info_.name + "': " + candidates.front().error);
  return std::move(*best->schedule);
}

}  // namespace photonsim
