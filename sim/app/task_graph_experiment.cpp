#include "sim/app/task_graph_experiment.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <tuple>

#include "core/error.h"
#include "core/spec/graph_node_error.h"
#include "core/time_overflow.h"
#include "sim/app/experiment_runner.h"
#include "sim/engine/backend/execution_backend.h"

namespace photonsim {

namespace {

// In a graph the fabric holds what earlier nodes left, not the schedule's
// initial topology: the graph sets up step 0's circuits when the node takes
// its ports (exposed or hidden), so step 0 is never charged again inside it.
Schedule first_topology_in_place(Schedule schedule) {
  if (schedule.steps().empty() || schedule.initial_topology() == schedule.steps().front().topology) return schedule;
  ScheduleParts parts = schedule.parts();
  parts.initial_topology = parts.steps.front().topology;
  return Schedule(std::move(parts));
}

// collective, group size, message or bytes, root's place, algorithm, planner
using Key = std::tuple<int, size_t, int64_t, int, std::string, std::string>;
using Schedules = std::map<Key, std::unique_ptr<Schedule>>;

// A communication node's schedule (shared by identical nodes), its fabric
// and its prediction.
void prepare_node(const ExperimentConfig& config, const SynthesizerRegistry& registry, const FabricSpec& fabric,
                  const TaskNode& node, Schedules& schedules, GraphNodeWork& w, GraphNodeInfo& about) {
  w.fabric = fabric;
  if (node.kind == TaskKind::p2p) {
    w.gpus = {static_cast<Node>(node.src), static_cast<Node>(node.dst)};
    std::unique_ptr<Schedule>& s = schedules[Key{-1, 2, node.bytes.count(), 0, "", ""}];
    if (!s) s = std::make_unique<Schedule>(registry.synthesize_point_to_point(fabric, node.bytes));
    w.schedule = s.get();
    about.predicted = s->prediction().total();
    w.predicted = about.predicted;
    about.algorithm = "p2p";
  } else {
    for (int g : node.gpus) w.gpus.push_back(static_cast<Node>(g));
    const int root_place =
        static_cast<int>(std::find(node.gpus.begin(), node.gpus.end(), node.root) - node.gpus.begin());
    SynthesisSpec synthesis = config.synthesis;
    if (!node.algorithm.empty() && node.algorithm != synthesis.algorithm) {
      synthesis.algorithm = node.algorithm;
      synthesis.algorithm_params.clear();  // the config's are the config's algorithm's
    }
    if (!node.planner.empty() && node.planner != synthesis.planner) {
      synthesis.planner = node.planner;
      synthesis.planner_params.clear();
    }
    // The planner sees the setup as the graph charges it: the circuits in
    // place are whatever earlier nodes left, and the node's first
    // configuration is a setup (exposed, or hidden behind compute) whichever
    // it is. So each collective is planned from no circuits (round 0's
    // topology chosen for itself, not to keep synthesis.topology), a static
    // planner still on synthesis.topology.
    if (!synthesis.static_topology) synthesis.static_topology = synthesis.topology;
    synthesis.topology = TopologySpec{};
    const Key key{static_cast<int>(node.collective),
                  node.gpus.size(),
                  node.message.count(),
                  node.collective == Collective::broadcast ? root_place : 0,
                  synthesis.algorithm,
                  synthesis.planner};
    std::unique_ptr<Schedule>& s = schedules[key];
    if (!s) {
      FabricSpec group = fabric;
      group.gpus = static_cast<int>(node.gpus.size());
      WorkloadSpec workload = config.workload;
      workload.collective = node.collective;
      workload.message = node.message;
      workload.root = std::get<3>(key);
      s = std::make_unique<Schedule>(first_topology_in_place(
          located(config, [&] { return registry.synthesize(group, workload, synthesis, config.seed); })));
    }
    w.schedule = s.get();
    // Once its first circuits are lit: without step 0's reconfiguration,
    // which the graph charges as the setup.
    const std::vector<StepPrediction>& steps = s->prediction().steps;
    w.predicted = s->prediction().total();
    if (!steps.empty()) w.predicted -= steps.front().reconfiguration;
    for (size_t k = 1; k < steps.size(); ++k) w.predicted_reconfiguration += steps[k].reconfiguration;
    about.predicted = w.predicted;
    about.algorithm = s->algorithm();
    about.planner = s->planner();
  }
  w.fabric.gpus = static_cast<int>(w.gpus.size());
  about.steps = w.schedule->steps().size();
}

}  // namespace

GraphReport run_task_graph(const ExperimentConfig& config, const SynthesizerRegistry& registry, Fidelity fidelity,
                           Timeline* timeline, WorkProgress* progress) {
  if (!config.graph) throw Error(config.source + ": no workload.graph to run");
  check_engine_names(config);
  const auto begin = std::chrono::steady_clock::now();
  const TaskGraph& graph = *config.graph;
  const std::unique_ptr<ExecutionBackend> backend = backend_for(fidelity);
  const FabricSpec fabric = backend->engine_fabric(config.fabric);

  // Where a node was written: its file:line, or its Chakra file and node id.
  const auto where = [&](const std::string& name) {
    const auto at = config.node_locations.find(name);
    return at == config.node_locations.end() ? config.source : at->second;
  };
  Schedules schedules;
  std::vector<GraphNodeWork> work;
  std::vector<GraphNodeInfo> info;
  const auto nodes = static_cast<double>(graph.nodes().size());
  for (const TaskNode& node : graph.nodes()) {
    report_work(progress, {"synthesizing the graph's collectives (nodes)", static_cast<double>(work.size()), nodes});
    GraphNodeWork w;
    GraphNodeInfo about;
    if (runs_off_network(node.kind)) {
      about.predicted = node.duration;
    } else {
      // Its schedule, its prediction and the times derived from them: any
      // error (a size or time past the range, a synthesizer's refusal) names
      // the node and where it was written.
      try {
        prepare_node(config, registry, fabric, node, schedules, w, about);
      } catch (const Error& e) {
        const std::string what =
            node.kind == TaskKind::p2p
                ? "p2p " + std::to_string(node.src) + "->" + std::to_string(node.dst)
                : std::string(to_string(node.collective)) + " over " + std::to_string(node.gpus.size()) + " GPUs";
        throw Error(where(node.name) + ": workload.graph: node '" + node.name + "' (" + what + "): " + e.what());
      }
    }
    work.push_back(std::move(w));
    info.push_back(std::move(about));
  }
  const std::chrono::duration<double> synthesis = std::chrono::steady_clock::now() - begin;
  // The engine names the node whose times pass the range: put where it was written in front.
  const auto at_node = [&](auto&& body) {
    try {
      return body();
    } catch (const GraphNodeError& e) {
      throw Error(where(e.node()) + ": " + e.what());
    }
  };
  GraphResult predicted = naming_time_overflow(config.source + ": the predicted iteration time", [&] {
    return at_node([&] {
      return backend_for(Fidelity::analytical)->execute_graph(graph, work, fabric, config.workload, progress, nullptr);
    });
  });
  GraphResult result =
      !backend->simulates() ? predicted : naming_time_overflow(config.source + ": the simulated iteration time", [&] {
        return at_node([&] {
          return backend->execute_graph(graph, std::move(work), fabric, config.workload, progress, timeline);
        });
      });
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
  GraphReport report{config,   std::move(result), std::move(info),  predicted.iteration,
                     fidelity, wall.count(),      synthesis.count()};
  return report;
}

}  // namespace photonsim
