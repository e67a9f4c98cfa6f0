// workload: one collective, or a task graph (then the one collective's keys
// are refused), and the rules between its keys.
#include <cstdint>
#include <string_view>

#include "sim/config/config_key_builders.h"
#include "sim/config/config_readers.h"

namespace photonsim {
namespace {

// The workload keys that describe the one collective of a config without a graph.
constexpr std::string_view kSingleCollectiveKeys[]{"collective",   "message",     "root",
                                                   "distribution", "zipf_factor", "message_scope"};

}  // namespace

void read_workload(ConfigReader& reader, const ConfigValue& value, ExperimentConfig& config) {
  const ConfigValue workload = reader.section(value);
  WorkloadSpec& w = config.workload;
  if (auto graph = reader.find(workload, "graph")) {
    // What a task graph cannot run on. Chakra traces are checked once
    // read: photonsim's own export of a schedule runs as that schedule, on
    // any fabric a schedule runs on.
    const auto runs_as_graph = [&] {
      if (config.fabric.bandwidth_scope != BandwidthScope::circuit)
        fail_at(*graph,
                "workload.graph runs with fabric.bandwidth_scope: circuit only (a task graph changes circuits "
                "one at a time, and the split rates depend on the whole configuration)");
      // A node's collective is synthesized on its own GPUs, numbered from 0:
      // the physical layer's placement of GPUs on tiles does not carry over.
      if (config.fabric.physical)
        fail_at(*graph,
                "workload.graph cannot run on fabric.physical yet (a node's collective is planned on its own "
                "GPUs, not where they sit on the servers); drop one of the two");
    };
    const bool chakra = graph->value.IsMap();
    if (!chakra) runs_as_graph();
    for (std::string_view name : kSingleCollectiveKeys) {
      if (auto given = reader.find(workload, name))
        fail_at(*given, given->key +
                            " is not used with workload.graph (each node names its own collective, message "
                            "and root)");
    }
    reader.read_keys(workload, config, [](const std::string& name) { return name == "chunk" || name == "graph"; });
    if (chakra && config.graph) runs_as_graph();
    return;
  }
  reader.read_keys(workload, config, [](const std::string& name) { return name != "graph"; });
  const ConfigValue collective = reader.require(workload, "collective");
  if (w.distribution != FlowDistribution::uniform && w.collective != Collective::alltoall)
    fail_at(collective, "workload.distribution: " + std::string(to_string(w.distribution)) +
                            " needs workload.collective: alltoall (flow sizes are per pair)");
}

// A GPU of the fabric (read before the workload).
void read_root(ConfigReader&, const ConfigValue& value, ExperimentConfig& config) {
  config.workload.root = read_integer<int>(value, 0, config.fabric.gpus - 1);
}

void check_zipf_factor(ConfigReader&, const ConfigValue& value, ExperimentConfig& config) {
  if (config.workload.distribution != FlowDistribution::zipf)
    fail_at(value, value.key + " applies only to workload.distribution: zipf");
}

// ReTri and nccl-tests size an all-to-all by the per-GPU buffer m: each
// of the n flows (own block included) is m / n.
void apply_message_scope(ConfigReader&, const ConfigValue& scope, ExperimentConfig& config) {
  WorkloadSpec& w = config.workload;
  const int gpus = config.fabric.gpus;
  if (!read_choice(scope, kMessageScopeNames)) return;
  if (w.collective != Collective::alltoall)
    fail_at(
        scope,
        scope.key + ": gpu applies to workload.collective: alltoall (other collectives' message is per GPU already)");
  const int64_t per_flow = w.message.count() / gpus;
  if (per_flow < 1)
    fail_at(scope, scope.key + ": gpu splits workload.message over " + std::to_string(gpus) +
                       " flows: less than one byte each");
  w.message = Bytes(per_flow);
}

}  // namespace photonsim
