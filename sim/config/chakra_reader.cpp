// workload.graph: {chakra: PREFIX[, replicate: N][, algorithms: {...}]}:
// Chakra traces PREFIX.0.et, PREFIX.1.et, ... (relative to the config's
// folder), one rank per GPU; the map's keys are the schema's.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>

#include "core/memory_budget.h"
#include "sim/config/chakra_import.h"
#include "sim/config/config_readers.h"
#include "sim/config/config_schema.h"
#include "sim/config/graph_memory_estimate.h"
#include "sim/config/key_parsers.h"
#include "sim/interop/chakra_trace.h"

namespace photonsim {

void read_chakra_graph(ConfigReader& reader, const ConfigValue& graph, ExperimentConfig& config) {
  const int gpus = config.fabric.gpus;
  const ConfigSchema& schema = ConfigSchema::builtin();
  const std::vector<std::string> valid = schema.chakra_keys();
  std::string listing;
  for (const std::string& name : valid) listing += (listing.empty() ? "" : ", ") + name;
  std::map<std::string, ConfigValue> given;
  for (const auto& pair : graph.value) {
    const ConfigValue key{pair.first, graph.key, graph.where};
    const std::string name = pair.first.IsScalar() ? pair.first.Scalar() : std::string("?");
    if (std::find(valid.begin(), valid.end(), name) == valid.end())
      fail_at(key, graph.key + " must be a list of nodes, the name of a YAML file holding one, or {chakra: PREFIX} " +
                       "(optionally with replicate: N, algorithms: {COLLECTIVE: ALGORITHM}) (got the key '" + name +
                       "'; valid keys: " + listing + ")");
    const std::string dotted = graph.key + "." + name;
    // The prefix is located at the graph; the others at their own lines.
    given[name] =
        ConfigValue{pair.second, dotted, name == "chakra" ? graph.where : reader.where(dotted, pair.first.Mark())};
  }
  const auto found = given.find("chakra");
  if (found == given.end()) fail_at(graph, graph.key + " as a map needs chakra: PREFIX");
  const ConfigValue& prefix = found->second;
  // Every key through its schema line, in schema order, before any trace is read.
  ChakraImport import;
  for (const std::string& name : valid) {
    if (const auto value = given.find(name); value != given.end())
      schema.chakra_key(name)->read_chakra(value->second, import);
  }
  const int copies = import.replicate.value_or(0);
  const std::string path =
      (std::filesystem::path(reader.source()).parent_path() / std::filesystem::path(import.prefix)).string();
  reader.names_file(prefix.value, path);
  if (reader.budget() != nullptr) {
    // Before parsing them: what their nodes will take, from the files' sizes.
    uint64_t bytes = 0;
    int ranks = 0;
    std::error_code ignored;
    for (;; ++ranks) {
      const std::string rank = path + "." + std::to_string(ranks) + ".et";
      if (!std::filesystem::is_regular_file(rank, ignored)) break;
      bytes += std::filesystem::file_size(rank, ignored);
    }
    if (copies > 0) {
      ranks = copies;
      bytes = bytes > UINT64_MAX / static_cast<uint64_t>(copies) ? UINT64_MAX : bytes * static_cast<uint64_t>(copies);
    }
    reader.budget()->check(graph_file_memory_estimate(bytes), path + ": workload.graph: Chakra traces of " +
                                                                  std::to_string(ranks) + " ranks, " +
                                                                  std::to_string(bytes) + " bytes");
  }
  ChakraGraph chakra;
  try {
    chakra = read_chakra_traces(path, path, copies);
  } catch (const Error& error) {
    fail_at(prefix, prefix.key + ": " + error.what());
  }
  if (chakra.ranks > gpus) {
    fail_at(prefix, prefix.key + ": the traces hold " + std::to_string(chakra.ranks) + " ranks but fabric.gpus is " +
                        std::to_string(gpus) + " (one GPU per rank)");
  }
  for (const std::string& file : chakra.files) reader.add_input({"Chakra trace (" + prefix.key + ")", file});
  if (chakra.schedule) {
    // photonsim's own export, unmodified: the schedule it was written
    // from, replayed on this fabric (chakra_trace.h), not a task graph.
    if (chakra.ranks != gpus) {
      fail_at(prefix, prefix.key + ": the traces are photonsim's export of a schedule on " +
                          std::to_string(chakra.ranks) + " GPUs but fabric.gpus is " + std::to_string(gpus) +
                          " (it runs on the fabric it was made for)");
    }
    WorkloadSpec& w = config.workload;
    w.collective = chakra.schedule->collective();
    w.message = chakra.schedule->message();
    w.root = chakra.schedule->root();
    config.imported_schedule_source = path + ".0.et";
    config.imported_schedule = std::make_shared<const Schedule>(std::move(*chakra.schedule));
    return;
  }
  for (size_t i = 0; i < chakra.nodes.size(); ++i) config.node_locations[chakra.nodes[i].name] = chakra.locations[i];
  for (const std::string& w : chakra.warnings) config.warnings.push_back(path + ": " + w);
  if (chakra.nodes.empty()) fail_at(prefix, prefix.key + ": the traces hold no node photonsim simulates");
  // As ASTRA-sim's per-collective implementations: the algorithm each kind
  // of collective in the trace runs (others: synthesis.algorithm).
  for (TaskNode& node : chakra.nodes) {
    const auto it = import.algorithms.find(node.collective);
    if (node.kind == TaskKind::collective && it != import.algorithms.end()) node.algorithm = it->second;
  }
  build_graph(reader, std::move(chakra.nodes), graph, config);
}

}  // namespace photonsim
