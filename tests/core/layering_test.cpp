// The layers and what each may include (the libraries link the same way, see
// the CMakeLists): a file's folder is matched by its longest prefix below,
// and every header it includes must lie under one of that layer's allowed
// prefixes and none of its forbidden ones. Then no two folders may include
// each other, directly or through others: the folders' include graph is
// acyclic. A break fails here with file:line (or the folders of the cycle).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

struct Layer {
  std::string prefix;
  std::vector<std::string> allowed;
  std::vector<std::string> forbidden = {};
};

// Below to above. The kernel never includes the specs; the topology base
// never includes its solvers (flow: CLP, physical: CBC); the schedule model
// and the engine never include planners, algorithms or solvers; cost models
// never include planners; reports never include the app or the config.
const std::vector<Layer> kLayers{
    {"core/spec/", {"core/"}},
    {"core/", {"core/"}, {"core/spec/"}},
    {"topology/flow/", {"core/", "topology/"}, {"topology/physical/"}},
    {"topology/physical/", {"core/", "topology/"}, {"topology/flow/"}},
    {"topology/", {"core/", "topology/"}, {"topology/flow/", "topology/physical/"}},
    {"schedules/model/", {"core/", "topology/", "schedules/model/"}, {"topology/flow/", "topology/physical/"}},
    {"schedules/cost/", {"core/", "topology/", "schedules/model/", "schedules/cost/"}},
    {"schedules/", {"core/", "topology/", "schedules/"}},
    // Other tools' formats to and from photonsim's specs and schedule values.
    {"sim/interop/",
     {"core/", "topology/", "schedules/model/", "sim/interop/"},
     {"topology/flow/", "topology/physical/"}},
    {"sim/engine/network/",
     {"core/", "topology/", "schedules/model/", "sim/engine/network/"},
     {"topology/flow/", "topology/physical/"}},
    // The switch places a topology's circuits and gives each its line rate.
    {"sim/engine/switch/",
     {"core/", "topology/", "schedules/model/", "sim/engine/network/", "sim/engine/switch/"},
     {"topology/flow/", "topology/physical/"}},
    {"sim/engine/",
     {"core/", "topology/", "schedules/model/", "sim/engine/"},
     {"topology/flow/", "topology/physical/"}},
    // A config may hold a schedule value: photonsim's own Chakra export read
    // back; it reads the reconfiguration models' names and parameters, declared
    // beside them in the switch, through its schema.
    {"sim/config/", {"core/", "schedules/model/", "sim/interop/", "sim/engine/switch/", "sim/config/"}},
    // Reports format what was computed: they run no synthesizer or planner.
    {"sim/reports/",
     {"core/", "topology/", "schedules/", "sim/engine/", "sim/reports/"},
     {"schedules/algorithms/", "schedules/planners/", "schedules/alltoall/rdc/", "schedules/alltoall/degree_k/",
      "schedules/alltoall/baselines/"}},
    {"sim/app/",
     {"core/", "topology/", "schedules/", "sim/engine/", "sim/interop/", "sim/config/", "sim/reports/", "sim/app/"}},
    {"sim/sweep/",
     {"core/", "topology/", "schedules/", "sim/engine/", "sim/interop/", "sim/config/", "sim/reports/", "sim/app/",
      "sim/sweep/"}},
    {"sim/availability/",
     {"core/", "topology/", "schedules/", "sim/engine/", "sim/interop/", "sim/config/", "sim/reports/", "sim/app/",
      "sim/availability/"}},
    {"sim/cli/", {"core/", "topology/", "schedules/", "sim/"}},
    // The Python package's module: the pipeline, as the command line has it
    // (and its progress line).
    {"sim/python/", {"core/", "topology/", "schedules/", "sim/"}},
};

const Layer* layer_of(const std::string& path) {
  const Layer* best = nullptr;
  for (const Layer& l : kLayers) {
    if (path.rfind(l.prefix, 0) == 0 && (best == nullptr || l.prefix.size() > best->prefix.size())) best = &l;
  }
  return best;
}

bool under_any(const std::string& path, const std::vector<std::string>& prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return path.rfind(p, 0) == 0; });
}

// Every (file, line, included header) of the layered folders.
struct Include {
  std::string file;
  int line;
  std::string header;
};

std::vector<Include> project_includes() {
  const fs::path root(PHOTONSIM_SOURCE_DIR);
  std::vector<Include> out;
  for (const char* top : {"core", "topology", "schedules", "sim"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".h" && ext != ".cpp") continue;
      const std::string name = fs::relative(entry.path(), root).string();
      std::ifstream in(entry.path());
      std::string text;
      for (int number = 1; std::getline(in, text); ++number) {
        if (text.rfind("#include \"", 0) != 0) continue;
        const std::string header = text.substr(10, text.find('"', 10) - 10);
        if (header.find('/') != std::string::npos) out.push_back({name, number, header});
      }
    }
  }
  return out;
}

TEST(Layering, EveryIncludeIsAllowedByItsLayer) {
  const std::vector<Include> includes = project_includes();
  EXPECT_GT(includes.size(), 500u);
  for (const Include& inc : includes) {
    const Layer* layer = layer_of(inc.file);
    ASSERT_NE(layer, nullptr) << inc.file << " is in no layer: add its folder to kLayers";
    if (!under_any(inc.header, {"core/", "topology/", "schedules/", "sim/"})) continue;  // generated, tests
    EXPECT_TRUE(under_any(inc.header, layer->allowed) && !under_any(inc.header, layer->forbidden))
        << inc.file << ":" << inc.line << " includes " << inc.header << ", which layer " << layer->prefix
        << " may not include";
  }
}

TEST(Layering, NoTwoFoldersIncludeEachOther) {
  std::map<std::string, std::set<std::string>> edges;
  for (const Include& inc : project_includes()) {
    const std::string from = fs::path(inc.file).parent_path().string();
    const std::string to = fs::path(inc.header).parent_path().string();
    if (!fs::is_directory(fs::path(PHOTONSIM_SOURCE_DIR) / to) || from == to) continue;
    edges[from].insert(to);
  }
  // Depth-first search; a folder met again while on the path closes a cycle.
  std::map<std::string, int> state;  // 1: on the path, 2: done
  std::vector<std::string> path;
  std::function<void(const std::string&)> visit = [&](const std::string& v) {
    state[v] = 1;
    path.push_back(v);
    for (const std::string& w : edges[v]) {
      if (state[w] == 1) {
        std::string cycle;
        for (auto it = std::find(path.begin(), path.end(), w); it != path.end(); ++it) cycle += *it + " -> ";
        ADD_FAILURE() << "include cycle between folders: " << cycle << w;
      } else if (state[w] == 0) {
        visit(w);
      }
    }
    path.pop_back();
    state[v] = 2;
  };
  for (const auto& [v, _] : edges) {
    if (state[v] == 0) visit(v);
  }
  EXPECT_GT(edges.size(), 20u);
}

}  // namespace
}  // namespace photonsim
