#pragma once
// Contract: what synthesizing and simulating a config will take in memory,
// estimated from its size before anything of size O(n^2) or more is built,
// with the key that drives it, for MemoryBudget::check. Calibrated on this
// engine (scripts/dev/bench): a direct all-to-all on a ring holds ~414 bytes per
// (source, destination) pair at n = 1000; rdc's candidate rounds ~141 bytes
// per n^3 at n = 128 and 256. The estimate is deliberately low (300 and 120
// bytes): past it MemoryBudget::enforce still stops the run cleanly. A task
// graph's run: the graph (sim/config/graph_memory_estimate.h) plus its
// largest collective's estimate as a run of its own.
#include <cstdint>
#include <optional>
#include <string>

#include "core/spec/fabric_spec.h"
#include "core/spec/topology_spec.h"
#include "sim/config/experiment_config.h"

namespace photonsim {

struct MemoryEstimate {
  uint64_t bytes = 0;
  std::string what;  // e.g. "fabric.gpus: 10000 GPUs in an all-to-all (n(n-1) flows)"
};

MemoryEstimate estimate_run_memory(const ExperimentConfig& config);

// `photonsim replay` (and an imported schedule's run): the schedule is
// already in memory; the network built for its n GPUs holds ~330 bytes a
// GPU (16M GPUs: 5.2 GB), estimated at 256.
MemoryEstimate estimate_replay_memory(int gpus);

// `photonsim topo`: the circuits the generator will make (from its name and
// parameters, without building them), their successor lists and the
// breadth-first searches over n GPUs (about 64 bytes per GPU and 24 per
// circuit), and with a demand the n x n demand matrix of the flow LP.
MemoryEstimate estimate_topology_memory(const TopologySpec& spec, const FabricSpec& fabric, bool with_demand);

// `photonsim bound`: one row per d (every d in 1..n-1 unless `reconfigs`),
// its printed line, and with `compare` rdc's hop sums (k = 1: the shift
// search's n x n hop table; k > 1: rdc's candidate paths, as run's estimate).
MemoryEstimate estimate_bound_memory(int gpus, int ports, std::optional<int> reconfigs, bool compare);

}  // namespace photonsim
