#pragma once
// Contract (tests): every experiment config shipped under configs/, sorted -
// all but the benchmarks (configs/bench/ and below: engine and scale cases,
// too heavy for tests) and sweep files (configs/sweeps/).
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace photonsim::testing_support {

inline std::vector<std::filesystem::path> shipped_experiment_configs() {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(PHOTONSIM_SOURCE_DIR) / "configs";
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const fs::path& p = entry.path();
    const std::string top = fs::relative(p, root).begin()->string();
    if (p.extension() == ".yaml" && top != "bench" && top != "sweeps") out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace photonsim::testing_support
