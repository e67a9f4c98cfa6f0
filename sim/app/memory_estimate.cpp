#include "sim/app/memory_estimate.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <string>

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

uint64_t to_bytes(long double bytes) { return bytes > 1.8e19L ? UINT64_MAX : static_cast<uint64_t>(bytes); }

// A parameter as a number when it is one (the generator validates it later); `fallback` otherwise.
long double number_or(const TopologySpec& spec, const char* key, long double fallback) {
  const auto it = spec.params.find(key);
  if (it == spec.params.end()) return fallback;
  try {
    size_t used = 0;
    const long double v = std::stold(it->second, &used);
    return used == it->second.size() && v >= 1 ? v : fallback;
  } catch (const std::exception&) {
    return fallback;
  }
}

// How many items a comma (generators) or 'x' (dims) separated list holds.
long double list_size_or(const TopologySpec& spec, const char* key, char separator, long double fallback) {
  const auto it = spec.params.find(key);
  if (it == spec.params.end()) return fallback;
  return 1.0L + static_cast<long double>(std::count(it->second.begin(), it->second.end(), separator));
}

// Circuits out of each GPU the generator makes, from its name and parameters:
// deliberately low (a generator not named here counts as one circuit per GPU).
long double circuits_per_gpu(const TopologySpec& spec, const FabricSpec& fabric) {
  const long double n = fabric.gpus;
  const long double both = fabric.circuits == CircuitKind::bidirectional ? 2 : 1;
  const std::string& type = spec.type;
  if (type == "complete") return n - 1;
  if (type == "ring" || type == "subrings") return both;
  if (type == "circulant") return both * list_size_or(spec, "generators", ',', 1);
  if (type == "generalized_kautz" || type == "de_bruijn" || type == "random_regular") {
    const long double ports = fabric.ports > 0 && fabric.ports < std::numeric_limits<int>::max() ? fabric.ports : 1;
    return std::min(n - 1, number_or(spec, "degree", ports));
  }
  if (type == "torus" || type == "grid") return 2 * list_size_or(spec, "dims", 'x', number_or(spec, "dimensions", 2));
  if (type == "hypercube") return std::max(1.0L, std::floor(std::log2(n)));
  return 1;
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

MemoryEstimate estimate_replay_memory(int gpus) {
  return {to_bytes(256.0L * gpus),
          "fabric.gpus (" + std::to_string(gpus) + " GPUs of the replayed schedule's network)"};
}

MemoryEstimate estimate_topology_memory(const TopologySpec& spec, const FabricSpec& fabric, bool with_demand) {
  const long double n = fabric.gpus;
  const long double circuits = n * circuits_per_gpu(spec, fabric);
  const std::string gpus = "--gpus " + std::to_string(fabric.gpus);
  if (with_demand) {
    return {to_bytes(64 * n + 24 * circuits + 8 * n * n),
            gpus + " with --demand alltoall (an n x n demand matrix and its flow LP)"};
  }
  return {to_bytes(64 * n + 24 * circuits),
          gpus + " (--type " + spec.type + ": about " + std::to_string(static_cast<uint64_t>(circuits)) + " circuits)"};
}

MemoryEstimate estimate_bound_memory(int gpus, int ports, std::optional<int> reconfigs, bool compare) {
  const long double n = gpus;
  const long double rows = reconfigs ? 1 : std::max(1.0L, n - 1);
  const std::string what = "--gpus " + std::to_string(gpus) + (reconfigs ? "" : " (a row for every d in 1..n-1)");
  // Each row and its printed line (JSON: about 90 characters); for k > 1 the
  // bound's own tables, three of n values per d.
  long double bytes = 128 * rows + (ports > 1 ? 24 * n : 0);
  if (compare) {
    // k = 1: the shift search's hop table (2 bytes per shift and offset);
    // k > 1: rdc's Generalized Kautz family up to its size limit (as run's
    // estimate of rdc), above it the Circulant family's rounds, O(n k d) per d.
    bytes += ports == 1 ? 2 * n * n : (gpus <= Rdc::kGenKautzAutoLimit ? 2000 : 16) * n * (n - 1);
    return {to_bytes(bytes), what + " with --compare (rdc for every d)"};
  }
  return {to_bytes(bytes), what};
}

namespace {

MemoryEstimate estimate_collective_memory(const ExperimentConfig& config) {
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

}  // namespace

MemoryEstimate estimate_run_memory(const ExperimentConfig& config) {
  if (config.graph) return estimate_graph_memory(config);
  MemoryEstimate estimate = estimate_collective_memory(config);
  if (const auto& p = config.fabric.physical) {
    // The MZI meshes (a cell per MZI of every server), and each circuit's
    // route across the server grid, about rows + cols servers long. Measured
    // with photonsim physical on 64x64 meshes, 4 tiles a server, 8 fibers:
    // 30 MB on 16x16 servers, 230 MB on 32x32, past 2 GB on 64x64; this
    // stays below them (20 bytes a cell, 250 a circuit per server row or
    // column: 29 MB, 150 MB, 860 MB).
    const auto servers = static_cast<long double>(p->servers.count());
    const long double cells = servers * p->mesh.rows * p->mesh.cols;
    const long double circuits = static_cast<long double>(config.fabric.gpus) * config.fabric.ports;
    const long double bytes = 20 * cells + 250 * circuits * (p->servers.rows + p->servers.cols);
    estimate.bytes = to_bytes(static_cast<long double>(estimate.bytes) + bytes);
    estimate.what += " on fabric.physical (" + std::to_string(p->servers.rows) + "x" + std::to_string(p->servers.cols) +
                     " servers of " + std::to_string(p->mesh.rows) + "x" + std::to_string(p->mesh.cols) + " MZIs)";
  }
  return estimate;
}

}  // namespace photonsim
