#pragma once
// Contract: what one experiment runs with, as every layer above the loader
// sees it - the specs, the seed, the file it came from, and which optional
// report columns it asked for - with no trace of YAML. Reports echo it; the
// app's ExperimentConfig adds what only loading knows (key locations, input
// files, warnings).
#include <cstdint>
#include <optional>
#include <string>

#include "core/spec/fabric_spec.h"
#include "core/spec/synthesis_spec.h"
#include "core/spec/task_graph.h"
#include "core/spec/workload_spec.h"

namespace photonsim {

struct ExperimentSpec {
  std::string source;  // the file the experiment came from, for messages and reports
  uint64_t seed = 1;
  FabricSpec fabric;
  WorkloadSpec workload;
  SynthesisSpec synthesis;
  // workload.graph: a training iteration's task graph (then workload.collective
  // and workload.message are not given; each node names its own).
  std::optional<TaskGraph> graph;
  // The experiment named fabric.sync or fabric.reconfiguration: its report
  // then carries the execution columns (sync, reconfiguration,
  // barrier_wait_ps), which older reports (and the goldens) do not have.
  bool execution_columns = false;
  // The experiment named fabric.bandwidth_scope: its report carries the
  // bandwidth_scope column (a sweep over both scopes keeps one header).
  bool bandwidth_scope_column = false;
};

inline bool reports_execution(const ExperimentSpec& spec) { return spec.execution_columns; }

}  // namespace photonsim
