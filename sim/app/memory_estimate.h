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
#include <string>

#include "sim/config/experiment_config.h"

namespace photonsim {

struct MemoryEstimate {
  uint64_t bytes = 0;
  std::string what;  // e.g. "fabric.gpus: 10000 GPUs in an all-to-all (n(n-1) flows)"
};

MemoryEstimate estimate_run_memory(const ExperimentConfig& config);

}  // namespace photonsim
