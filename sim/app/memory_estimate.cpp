#include "sim/app/memory_estimate.h"

#include <algorithm>

#include "schedules/alltoall/rdc/rdc.h"
#include "sim/config/graph_memory_estimate.h"

namespace photonsim {

namespace {

bool rdc_builds_genkautz(const ExperimentConfig& config) {
  const auto& params = config.synthesis.algorithm_params;
  const auto base = params.find("base");
  const std::string name = base == params.end() ? "auto" : base->second;
  return name == "genkautz" || (name == "auto" && config.fabric.gpus <= Rdc::kGenKautzAutoLimit);
}

// The graph (its nodes and dependencies, the two runs' state) beside its
// largest collective as one run of its own: a node's schedule and its
// packets in flight are alive while the node runs, identical nodes share one.
MemoryEstimate estimate_graph_memory(const ExperimentConfig& config) {
  const TaskGraph& graph = *config.graph;
  uint64_t edges = 0;
  for (const auto& preds : graph.predecessors()) edges += preds.size();
  const uint64_t nodes = graph.nodes().size();
  MemoryEstimate largest;
  for (const TaskNode& node : graph.nodes()) {
    if (node.kind != TaskKind::collective) continue;
    ExperimentConfig group;
    group.fabric = config.fabric;
    group.fabric.gpus = static_cast<int>(node.gpus.size());
    group.workload.collective = node.collective;
    group.synthesis.algorithm = node.algorithm.empty() ? config.synthesis.algorithm : node.algorithm;
    group.synthesis.algorithm_params = config.synthesis.algorithm_params;
    MemoryEstimate one = estimate_run_memory(group);
    if (one.bytes > largest.bytes) largest = std::move(one);
  }
  const uint64_t graph_bytes = graph_memory_estimate(nodes, edges);
  MemoryEstimate estimate{
      graph_bytes > UINT64_MAX - largest.bytes ? UINT64_MAX : graph_bytes + largest.bytes,
      "workload.graph (" + std::to_string(nodes) + " nodes, " + std::to_string(edges) + " dependencies"};
  if (!largest.what.empty()) estimate.what += "; its largest collective: " + largest.what;
  estimate.what += ")";
  return estimate;
}

}  // namespace

MemoryEstimate estimate_run_memory(const ExperimentConfig& config) {
  if (config.graph) return estimate_graph_memory(config);
  const auto n = static_cast<long double>(config.fabric.gpus);
  const std::string gpus = "fabric.gpus (" + std::to_string(config.fabric.gpus) + " GPUs";
  const auto clamp = [](long double bytes) { return bytes > 1.8e19L ? UINT64_MAX : static_cast<uint64_t>(bytes); };
  if (config.workload.collective == Collective::alltoall) {
    // rdc with k = 1 holds one d at a time with implicit routes (shifted
    // rings), and with k > 1 the Circulant family goes one d at a time too:
    // the n(n-1) flows, like every other all-to-all. The Generalized Kautz
    // family also keeps per pair its best topology and the candidate paths
    // it has drawn (126 MB at n = 256).
    if (config.synthesis.algorithm == "rdc" && config.fabric.ports > 1 && rdc_builds_genkautz(config)) {
      return {clamp(2000 * n * (n - 1)),
              gpus + ", synthesis.algorithm rdc with the Generalized Kautz family: candidate paths per pair)"};
    }
    if (config.synthesis.algorithm == "fast") {
      // The BvN decomposition and its matcher (rows sorted by value, bitsets)
      // beside the flows: about 1.5 KB per pair, 1559 MiB at n = 1024.
      return {clamp(1600 * n * (n - 1)), gpus + ", synthesis.algorithm fast: BvN terms of n(n-1) flows)"};
    }
    return {clamp(300 * n * (n - 1)), gpus + " in an all-to-all of n(n-1) flows)"};
  }
  return {clamp(4096 * n), gpus + ")"};
}

}  // namespace photonsim
