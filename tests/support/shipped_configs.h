#pragma once
// Contract (tests): every experiment config shipped under configs/, sorted -
// all but the benchmarks (configs/bench/ and below: engine and scale cases,
// too heavy for tests), sweep files (configs/sweeps/), the task-graph
// workloads (configs/training/: shipped_task_graph_configs()) and the
// availability studies (configs/availability/: shipped_availability_configs(),
// which `run` refuses: their random failures are drawn by `availability`).
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/test_paths.h"

namespace photonsim::testing_support {

inline std::vector<std::filesystem::path> shipped_experiment_configs() {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(PHOTONSIM_SOURCE_DIR) / "configs";
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const fs::path& p = entry.path();
    const std::string top = fs::relative(p, root).begin()->string();
    if (p.extension() == ".yaml" && top != "bench" && top != "sweeps" && top != "training" &&
        top != "availability") out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Each shipped experiment config as shipped and, up to 64 GPUs (the
// sanitized suite stays quick), with 64 KiB packets: its path, the --set
// overrides and a name for failure messages.
struct ShippedRun {
  std::filesystem::path config;
  std::vector<std::string> sets;
  std::string name;
};
template <typename LoadGpus>
std::vector<ShippedRun> shipped_experiment_runs(LoadGpus gpus_of) {
  std::vector<ShippedRun> out;
  for (const std::filesystem::path& p : shipped_experiment_configs()) {
    out.push_back({p, {}, p.filename().string()});
    if (gpus_of(p) <= 64) out.push_back({p, {"fabric.packet=64KiB"}, p.filename().string() + " with 64 KiB packets"});
  }
  return out;
}

// The task-graph configs under configs/training/, sorted; their graph files
// (*_graph.yaml, a list of nodes each) are not configs and are left out.
inline std::vector<std::filesystem::path> shipped_task_graph_configs() {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(fs::path(PHOTONSIM_SOURCE_DIR) / "configs" / "training")) {
    const fs::path& p = entry.path();
    if (p.extension() == ".yaml" && !p.stem().string().ends_with("_graph")) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The availability studies under configs/availability/, sorted.
inline std::vector<std::filesystem::path> shipped_availability_configs() {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(fs::path(PHOTONSIM_SOURCE_DIR) / "configs" / "availability"))
    if (entry.path().extension() == ".yaml") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace photonsim::testing_support
