#include "schedules/alltoall/joint_planner.h"

#include <algorithm>
#include <optional>

#include "core/error.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "schedules/alltoall/joint_synthesizer.h"
#include "schedules/model/topology_catalog.h"

namespace photonsim {

namespace {

std::vector<Bytes> demand_of(const StepPattern& pattern, int gpus) {
  const auto n = static_cast<size_t>(gpus);
  std::vector<Bytes> demand(n * n);
  for (const auto& step : pattern.steps) {
    for (const Transfer& t : step) demand[t.src * n + t.dst] += t.bytes;
  }
  return demand;
}

std::string list(const std::vector<int>& values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

bool all_flows_equal(const StrategyRound& round) {
  return std::all_of(round.flows.begin(), round.flows.end(),
                     [&](const StrategyFlow& f) { return f.bytes == round.flows.front().bytes; });
}

}  // namespace

Schedule JointPlanner::to_schedule(const AlltoallStrategy& strategy, const StepPattern& pattern,
                                   const PlanningInput& input) {
  const auto n = static_cast<Node>(input.fabric.gpus);
  TopologyCatalog catalog;
  ScheduleParts parts = schedule_header(pattern, input);
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  std::vector<int> index_of_topology;
  for (const Topology& t : strategy.topologies) {
    t.check_ports(input.fabric);
    index_of_topology.push_back(catalog.index_of(t));
  }
  std::vector<Bytes> delivered(static_cast<size_t>(n) * n);
  const std::string chunks = input.params.has("chunks") ? input.params.text("chunks") : "auto";
  if (chunks != "auto" && chunks != "pipelined" && chunks != "waves") {
    input.params.fail("chunks", "must be auto, pipelined or waves, got '" + chunks + "'");
  }
  // auto: on k = 1 a contention-free round loads every circuit with its h flows
  // at distinct hop indices, so streamed chunks keep TotalCost (and save a
  // latency per chunk); on k > 1 the chunk pipelines of flows sharing a circuit
  // interleave and drift from it by a few percent, so a round of equal flows
  // runs chunk by chunk, the paper's one-chunk round c times. Rounds of unequal
  // flows stream (waves would make every wave wait for its longest route), as
  // do rounds that are not contention-free (multipath baselines, merged rounds).
  const bool waves_for_equal_rounds = chunks == "waves" || (chunks == "auto" && input.fabric.ports > 1 && strategy.contention_free_rounds);
  const int64_t chunk = input.workload.chunk.count();
  int previous_topology = 0;
  for (const StrategyRound& round : strategy.rounds) {
    if (round.topology < previous_topology || round.topology >= strategy.configurations()) {
      throw Error("joint strategy '" + strategy.construction + "': rounds must follow the topology order");
    }
    previous_topology = round.topology;
    const int topology = index_of_topology[static_cast<size_t>(round.topology)];
    // Step w carries bytes [w*chunk, (w+1)*chunk) of every single-path flow.
    const bool waves = input.workload.chunk.count() > 0 &&
                       (chunks == "waves" || (waves_for_equal_rounds && all_flows_equal(round)));
    int64_t wave_count = 1;
    if (waves) {
      for (const StrategyFlow& f : round.flows) {
        if (f.routes.size() == 1) wave_count = std::max(wave_count, (f.bytes.count() + chunk - 1) / chunk);
      }
    }
    for (int64_t wave = 0; wave < wave_count; ++wave) {
      Step step{topology, {}};
      for (const StrategyFlow& f : round.flows) {
        Transfer t;
        t.src = f.src;
        t.dst = f.dst;
        t.bytes = f.bytes;
        t.blocks = {f.src * n + f.dst};
        if (f.routes.size() == 1) {
          t.path = f.routes.front().path;
          if (waves) {
            const int64_t first = wave * chunk;
            if (first >= f.bytes.count()) continue;
            t.bytes = Bytes(std::min(chunk, f.bytes.count() - first));
          }
        } else {
          if (wave > 0) continue;
          t.routes = f.routes;
        }
        delivered[static_cast<size_t>(f.src) * n + f.dst] += t.bytes;
        step.transfers.push_back(std::move(t));
      }
      parts.steps.push_back(std::move(step));
    }
  }
  const std::vector<Bytes> demand = demand_of(pattern, input.fabric.gpus);
  for (Node s = 0; s < n; ++s) {
    for (Node d = 0; d < n; ++d) {
      if (delivered[static_cast<size_t>(s) * n + d] != demand[static_cast<size_t>(s) * n + d]) {
        throw Error("joint strategy '" + strategy.construction + "' delivers " +
                    std::to_string(delivered[static_cast<size_t>(s) * n + d].count()) + " bytes from node " +
                    std::to_string(s) + " to node " + std::to_string(d) + ", the workload asks " +
                    std::to_string(demand[static_cast<size_t>(s) * n + d].count()));
      }
    }
  }
  parts.topologies = catalog.take();
  return Schedule(std::move(parts));
}

void JointPlanner::for_each_candidate(const StepPattern& pattern, const PlanningInput& input,
                                      const std::function<void(Candidate&&)>& visit) {
  if (!input.joint || !input.algorithm_params) {
    throw Error("planner 'joint' needs an algorithm that chooses topologies and rounds together "
                "(synthesis.algorithm: rdc, fast, mixnet, directconnect, topoopt, static_ring, pairwise)");
  }
  const std::vector<Bytes> demand = demand_of(pattern, input.fabric.gpus);
  const JointInput joint_input{input.fabric, input.workload, demand, *input.algorithm_params, input.seed};
  std::vector<AlltoallStrategy> strategies = input.joint->strategies(joint_input, input.reconfigurations);
  if (strategies.empty()) {
    std::vector<int> counts;
    for (const AlltoallStrategy& s : input.joint->strategies(joint_input, std::nullopt)) counts.push_back(s.configurations());
    throw Error("synthesis.reconfigurations: algorithm '" + input.algorithm + "' builds d in {" + list(counts) +
                "} on " + std::to_string(input.fabric.gpus) + " GPUs with " + std::to_string(input.fabric.ports) +
                " port(s), got " + std::to_string(input.reconfigurations.value_or(0)));
  }
  for (const AlltoallStrategy& strategy : strategies) {
    Schedule schedule = to_schedule(strategy, pattern, input);
    Schedule predicted = schedule.with_prediction(predict_alpha_beta_congestion(schedule, input.fabric, input.workload));
    visit(Candidate{strategy.configurations(), strategy.contention_free_rounds ? strategy.hop_sum() : -1,
                    strategy.construction, std::move(predicted)});
  }
}

std::vector<JointPlanner::Candidate> JointPlanner::candidates(const StepPattern& pattern,
                                                              const PlanningInput& input) {
  std::vector<Candidate> out;
  for_each_candidate(pattern, input, [&](Candidate&& c) { out.push_back(std::move(c)); });
  return out;
}

Schedule JointPlanner::plan(const StepPattern& pattern, const PlanningInput& input) const {
  std::optional<Candidate> best;
  for_each_candidate(pattern, input, [&](Candidate&& c) {
    if (!best || c.schedule.prediction().total() < best->schedule.prediction().total()) best = std::move(c);
  });
  return best->schedule;
}

}  // namespace photonsim
