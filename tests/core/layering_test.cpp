// The layers include downwards only: core <- topology, sim/interop <-
// schedules <- sim/engine <- sim/{app,reports,sweep}. A file that includes a header of a
// layer above its own fails here with file:line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace photonsim {
namespace {

namespace fs = std::filesystem;

const std::vector<std::pair<std::string, int>> kLayers{
    {"core/", 0},       {"sim/interop/", 1}, {"topology/", 1},    {"schedules/", 2},
    {"sim/engine/", 3}, {"sim/app/", 4},     {"sim/reports/", 4}, {"sim/sweep/", 4},
};

int layer_of(const std::string& path) {
  for (const auto& [prefix, layer] : kLayers) {
    if (path.rfind(prefix, 0) == 0) return layer;
  }
  return -1;
}

TEST(Layering, NoFileIncludesALayerAboveItsOwn) {
  const fs::path root(PHOTONSIM_SOURCE_DIR);
  size_t files = 0;
  for (const auto& [prefix, layer] : kLayers) {
    for (const auto& entry : fs::recursive_directory_iterator(root / prefix)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".h" && ext != ".cpp") continue;
      ++files;
      const std::string name = fs::relative(entry.path(), root).string();
      std::ifstream in(entry.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        if (line.rfind("#include \"", 0) != 0) continue;
        const std::string included = line.substr(10, line.find('"', 10) - 10);
        EXPECT_LE(layer_of(included), layer)
            << name << ":" << number << " includes " << included << ", a layer above its own";
      }
    }
  }
  EXPECT_GT(files, 100u);
}

}  // namespace
}  // namespace photonsim
