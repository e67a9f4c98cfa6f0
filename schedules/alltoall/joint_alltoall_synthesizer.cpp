#include "schedules/alltoall/joint_alltoall_synthesizer.h"

#include <optional>

#include "core/error.h"
#include "core/flow_sizes.h"
#include "schedules/alltoall/strategy_schedule.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
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

void JointAlltoallSynthesizer::for_each_candidate(const SynthesisRequest& request,
                                                  const std::function<void(PlanCandidate&&)>& visit) const {
  const FabricSpec& fabric = request.fabric;
  const PlannerInfo planner = planner_info();
  const ComponentParams planner_params(planner.name, request.synthesis.planner_params, planner.parameters, "planner");
  const ComponentParams params(info_.name, request.synthesis.algorithm_params, info_.parameters, "algorithm");
  std::optional<Topology> initial;
  try {
    initial = topologies_.make(request.synthesis.topology, fabric, request.seed);
  } catch (const Error& e) {
    throw Error(std::string("synthesis.topology: ") + e.what());
  }
  const std::vector<Bytes> demand = alltoall_flow_sizes(request.workload, fabric.gpus, request.seed);
  const std::vector<Bytes> no_sizes;
  const bool sized = request.workload.distribution != FlowDistribution::uniform;
  const JointInput input{fabric, request.workload, demand, params, request.seed};
  const std::optional<int> only = request.synthesis.reconfigurations;
  const StrategyScheduleInput to_schedule{fabric,     request.workload, demand,  sized ? demand : no_sizes,
                                          info_.name, planner.name,     initial, planner_params.text("chunks")};
  // One strategy at a time: it becomes a predicted candidate and is dropped
  // before the next d is built.
  bool any = false;
  strategies_.for_each_strategy(input, only, [&](AlltoallStrategy&& strategy) {
    any = true;
    PlanCandidate candidate;
    candidate.planner = planner.name;
    candidate.configurations = strategy.configurations();
    candidate.hop_sum = strategy.contention_free_rounds ? strategy.hop_sum() : -1;
    candidate.construction = strategy.construction;
    const Schedule schedule = strategy_schedule(strategy, to_schedule);
    strategy = AlltoallStrategy();
    candidate.schedule = schedule.with_prediction(predict_alpha_beta_congestion(schedule, fabric, request.workload));
    visit(std::move(candidate));
  });
  if (!any) {
    std::vector<int> counts;
    strategies_.for_each_strategy(input, std::nullopt,
                                  [&](AlltoallStrategy&& s) { counts.push_back(s.configurations()); });
    throw Error("synthesis.reconfigurations: algorithm '" + info_.name + "' builds d in {" + list(counts) + "} on " +
                std::to_string(fabric.gpus) + " GPUs with " + std::to_string(fabric.ports) + " port(s), got " +
                std::to_string(only.value_or(0)));
  }
}

std::vector<PlanCandidate> JointAlltoallSynthesizer::candidates(const SynthesisRequest& request) const {
  std::vector<PlanCandidate> out;
  try {
    for_each_candidate(request, [&](PlanCandidate&& c) { out.push_back(std::move(c)); });
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
  std::optional<Schedule> best;
  for_each_candidate(request, [&](PlanCandidate&& c) {
    if (!best || c.schedule->prediction().total() < best->prediction().total()) best = std::move(c.schedule);
  });
  return *best;
}

}  // namespace photonsim
