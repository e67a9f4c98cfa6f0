#pragma once
// Contract: one task-graph run (a training iteration), rendered three ways.
// JSON and CSV columns are a contract: integer picoseconds for times, one CSV
// row per node. Per node: released/start/end, compute_ps (a compute node's
// duration), communication_ps (a communication node's start to end),
// port_wait_ps (released until its GPUs' ports were free), exposed and hidden
// reconfiguration (the setup of its first circuits after / before release,
// exposed adding its schedule's own reconfigurations), predicted_ps (the
// synthesizer's model for the node once its first circuits are lit; compute:
// its duration); predicted_iteration_ps and error_pct for the whole graph. Everything
// but wall_s is a pure function of config and seed. summary_csv: the run's
// settings, iteration_ps, the critical path's parts and the reconfiguration
// totals in one row (a sweep's row for a graph config).
#include <string>
#include <vector>

#include "core/spec/experiment_spec.h"
#include "sim/engine/fidelity.h"
#include "sim/engine/task_graph_execution.h"

namespace photonsim {

struct GraphNodeInfo {
  Time predicted;
  std::string algorithm;  // collective: the synthesizer; p2p: "p2p"; compute: ""
  std::string planner;
  size_t steps = 0;
};

struct GraphReport {
  ExperimentSpec spec;  // what it ran with (never the app's config type)
  GraphResult result;
  std::vector<GraphNodeInfo> info;  // per node
  // The same graph with every communication node taking its predicted time
  // (GraphTiming::analytical): the iteration the synthesizers' models give.
  Time predicted_iteration;
  Fidelity fidelity = Fidelity::packet;
  double wall_seconds = 0;
  double synthesis_seconds = 0;

  std::string table() const;
  std::string json() const;
  std::string csv() const;
  // One header and one row: the iteration as a whole (sweeps' rows).
  std::string summary_csv() const;
};

// "table" | "json" | "csv"; throws Error listing them otherwise.
std::string render_graph_report(const GraphReport& report, const std::string& format);

}  // namespace photonsim
