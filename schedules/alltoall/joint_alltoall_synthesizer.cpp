#include "schedules/alltoall/joint_alltoall_synthesizer.h"

#include <optional>
#include <stdexcept>

#include "core/error.h"
#include "core/spec/flow_sizes.h"
#include "core/time_overflow.h"
#include "schedules/alltoall/strategy_estimate.h"
#include "schedules/alltoall/strategy_schedule.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "schedules/synthesis/physical_feasibility.h"
#include "topology/component_params.h"

namespace photonsim {

namespace {

std::string list(const std::vector<int>& values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

}  // namespace

PlannerInfo JointAlltoallSynthesizer::planner_info() {
  return {
      "joint",
      "the joint synthesizers' strategies: d from synthesis.reconfigurations or the lowest predicted time",
      {ParameterSpec::choice("chunks", {"auto", "pipelined", "waves"},
                             "auto: waves for contention-free rounds of equal flows on k > 1 ports, else pipelined")}};
}

// Everything one request derives before any strategy is built; JointInput and
// StrategyScheduleInput refer into it.
class JointAlltoallSynthesizer::Prepared {
 public:
  Prepared(const SynthesisRequest& request, const AlgorithmInfo& info, const TopologyRegistry& topologies)
      : request_(request),
        planner_(planner_info()),
        planner_params_(planner_.name, request.synthesis.planner_params, planner_.parameters, "planner"),
        params_(info.name, request.synthesis.algorithm_params, info.parameters, "algorithm"),
        initial_(initial_topology(request, topologies)),
        demand_(alltoall_flow_sizes(request.workload, request.fabric.gpus, request.seed)),
        input{request.fabric, request.workload, demand_, params_, request.seed, request.progress},
        to_schedule{request.fabric, request.workload,
                    demand_,        request.workload.distribution != FlowDistribution::uniform ? demand_ : no_sizes_,
                    info.name,      planner_.name,
                    initial_,       planner_params_.text("chunks")} {}
  Prepared(const Prepared&) = delete;
  Prepared& operator=(const Prepared&) = delete;

  const SynthesisRequest& request() const { return request_; }
  const std::string& planner() const { return planner_.name; }
  std::optional<int> only() const { return request_.synthesis.reconfigurations; }

 private:
  static std::optional<Topology> initial_topology(const SynthesisRequest& request, const TopologyRegistry& topologies) {
    try {
      return topologies.make(request.synthesis.topology, request.fabric, request.seed);
    } catch (const Error& e) {
      throw Error(std::string("synthesis.topology: ") + e.what());
    }
  }

  const SynthesisRequest& request_;
  const PlannerInfo planner_;
  const ComponentParams planner_params_;
  const ComponentParams params_;
  const std::optional<Topology> initial_;
  const std::vector<Bytes> demand_;
  const std::vector<Bytes> no_sizes_;

 public:
  const JointInput input;
  const StrategyScheduleInput to_schedule;
};

PlanCandidate JointAlltoallSynthesizer::candidate(AlltoallStrategy&& strategy, const Prepared& prepared) const {
  PlanCandidate candidate;
  candidate.planner = prepared.planner();
  const int strategy_configurations = strategy.configurations();
  candidate.configurations = strategy_configurations;
  candidate.hop_sum = strategy.contention_free_rounds ? strategy.hop_sum() : -1;
  candidate.construction = strategy.construction;
  const std::string stage = info_.name + ": d = " + std::to_string(strategy_configurations) + " as a schedule";
  report_work(prepared.request().progress, {stage, 0, 1});
  Schedule schedule = strategy_schedule(strategy, prepared.to_schedule);
  strategy = AlltoallStrategy();
  const SynthesisRequest& request = prepared.request();
  if (request.physical) {
    if (auto why = unrealised_step(schedule, *request.physical)) {
      candidate.error = "d = " + std::to_string(strategy_configurations) + ": " + *why;
      return candidate;
    }
  }
  Prediction prediction = predict_alpha_beta_congestion(schedule, request.fabric, request.workload, request.progress);
  candidate.schedule = std::move(schedule).with_prediction(std::move(prediction));
  candidate.summary = CandidateSummary::of(*candidate.schedule);
  return candidate;
}

void JointAlltoallSynthesizer::no_strategy_for(const Prepared& prepared) const {
  std::vector<int> counts;
  const auto count = [&](int d) { counts.push_back(d); };
  if (!strategies_.for_each_outline(prepared.input, std::nullopt,
                                    [&](StrategyOutline&& o) { count(o.configurations); })) {
    strategies_.for_each_strategy(prepared.input, std::nullopt,
                                  [&](AlltoallStrategy&& s) { count(s.configurations()); });
  }
  const FabricSpec& fabric = prepared.request().fabric;
  throw Error("synthesis.reconfigurations: algorithm '" + info_.name + "' builds d in {" + list(counts) + "} on " +
              std::to_string(fabric.gpus) + " GPUs with " + std::to_string(fabric.ports) + " port(s), got " +
              std::to_string(prepared.only().value_or(0)));
}

void JointAlltoallSynthesizer::for_each_candidate(const SynthesisRequest& request,
                                                  const std::function<void(PlanCandidate&&)>& visit) const {
  const Prepared prepared(request, info_, topologies_);
  // One strategy at a time: it becomes a predicted candidate and is dropped
  // before the next d is built.
  bool any = false;
  strategies_.for_each_strategy(prepared.input, prepared.only(), [&](AlltoallStrategy&& strategy) {
    any = true;
    visit(candidate(std::move(strategy), prepared));
  });
  if (!any) no_strategy_for(prepared);
}

// The d whose outline estimates the lowest time (ties: the first), or nullopt
// when the synthesizer does not outline this input.
std::optional<JointAlltoallSynthesizer::Outlined> JointAlltoallSynthesizer::best_outlined(
    const Prepared& prepared) const {
  std::optional<Outlined> best;
  const bool outlined = strategies_.for_each_outline(prepared.input, prepared.only(), [&](StrategyOutline&& outline) {
    const Time t = estimate_strategy(outline, prepared.to_schedule).predicted;
    if (!best || t < best->estimated) best = Outlined{outline.configurations, t};
  });
  if (!outlined) return std::nullopt;
  if (!best) no_strategy_for(prepared);
  return best;
}

// Every d's summary from its outline; false when there are no outlines.
bool JointAlltoallSynthesizer::outlined_candidates(const Prepared& prepared, std::vector<PlanCandidate>& out) const {
  const bool outlined = strategies_.for_each_outline(prepared.input, prepared.only(), [&](StrategyOutline&& outline) {
    StrategyEstimate estimate = estimate_strategy(outline, prepared.to_schedule, true);
    PlanCandidate candidate;
    candidate.planner = prepared.planner();
    candidate.configurations = outline.configurations;
    candidate.hop_sum = outline.hop_sum();
    candidate.construction = outline.construction;
    candidate.summary =
        CandidateSummary{estimate.predicted, estimate.reconfigurations, std::move(estimate.reconfigure_before)};
    out.push_back(std::move(candidate));
  });
  if (outlined && out.empty()) no_strategy_for(prepared);
  return outlined;
}

std::vector<PlanCandidate> JointAlltoallSynthesizer::candidates(const SynthesisRequest& request,
                                                                CandidateDetail detail) const {
  std::vector<PlanCandidate> out;
  try {
    // Outlines say nothing of the hardware: with fabric.physical every d is built and checked.
    if (detail == CandidateDetail::summaries && !request.physical) {
      const Prepared prepared(request, info_, topologies_);
      if (outlined_candidates(prepared, out)) return out;
    }
    for_each_candidate(request, [&](PlanCandidate&& c) {
      if (detail == CandidateDetail::summaries) c.schedule.reset();
      out.push_back(std::move(c));
    });
  } catch (const TimeOverflow&) {
    throw;  // a predicted total past the largest Time is the run's error, as for pattern synthesis
  } catch (const Error& e) {
    out.clear();
    PlanCandidate failed;
    failed.planner = planner_info().name;
    failed.error = e.what();
    out.push_back(std::move(failed));
  }
  return out;
}

Schedule JointAlltoallSynthesizer::synthesize(const SynthesisRequest& request) const {
  const Prepared prepared(request, info_, topologies_);
  if (request.physical) return best_realisable(request);
  if (const std::optional<Outlined> best = best_outlined(prepared)) {
    std::optional<Schedule> built;
    const std::string stage = info_.name + ": building the strategy of d = " + std::to_string(best->configurations);
    report_work(request.progress, {stage, 0, 1});
    strategies_.for_each_strategy(prepared.input, best->configurations, [&](AlltoallStrategy&& strategy) {
      built = candidate(std::move(strategy), prepared).schedule;
    });
    if (!built || built->prediction().total() != best->estimated) {
      throw std::logic_error("joint synthesis: the outline of d = " + std::to_string(best->configurations) +
                             " does not predict the strategy built for it");
    }
    return std::move(*built);
  }
  std::optional<Schedule> best;
  for_each_candidate(request, [&](PlanCandidate&& c) {
    if (!best || c.schedule->prediction().total() < best->prediction().total()) best = std::move(c.schedule);
  });
  return std::move(*best);
}

// With fabric.physical: the fastest d whose configurations all exist.
Schedule JointAlltoallSynthesizer::best_realisable(const SynthesisRequest& request) const {
  std::optional<Schedule> best;
  std::string why;
  for_each_candidate(request, [&](PlanCandidate&& c) {
    if (!c.schedule) {
      if (why.empty()) why = c.error;
      return;
    }
    if (!best || c.schedule->prediction().total() < best->prediction().total()) best = std::move(c.schedule);
  });
  if (!best) throw Error("algorithm '" + info_.name + "': no d whose configurations all exist: " + why);
  return std::move(*best);
}

}  // namespace photonsim
