// The engine's one-place rules, read from the sources (docs/layout.md): the
// switch (sim/engine/switch/optical_switch.*) is the only holder of circuit
// state - where a port leads, whether a command is pending on it, since when
// it is dark and when it lights - and the only caller of a
// ReconfigurationModel, so dark time is computed in one file. A field of
// that kind declared, or a model asked, anywhere else in sim/ fails here
// with file:line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

namespace photonsim {
namespace {

namespace fs = std::filesystem;

struct Hit {
  std::string where;
  std::string line;
};

// Lines of sim/ (outside the `allowed` files) that match `pattern`.
std::vector<Hit> lines_matching(const std::regex& pattern, const std::vector<std::string>& allowed) {
  const fs::path root = fs::path(PHOTONSIM_SOURCE_DIR);
  std::vector<Hit> hits;
  for (const auto& entry : fs::recursive_directory_iterator(root / "sim")) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
    const std::string relative = fs::relative(entry.path(), root).generic_string();
    if (std::find(allowed.begin(), allowed.end(), relative) != allowed.end()) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      const std::string code = line.substr(0, line.find("//"));
      if (std::regex_search(code, pattern)) hits.push_back({relative + ":" + std::to_string(number), line});
    }
  }
  return hits;
}

const std::vector<std::string> kSwitch{"sim/engine/switch/optical_switch.h", "sim/engine/switch/optical_switch.cpp"};

TEST(EngineStructure, OnlyTheSwitchHoldsCircuitState) {
  // A member (or local table) naming where a port leads (lit_to, leads_to),
  // whether a command is pending on it (a bool ...commanded), or its dark
  // span (dark_since, lights_at). A run's own accounting of when it
  // commanded its groups is no circuit state.
  const std::regex state(
      R"(\b(bool\s+\w*commanded\w*|(int|Time|std::vector<int>|std::vector<Time>)\s+\w*(lit_to|leads_to|dark_since|lights_at)\w*)\s*[;={])");
  for (const Hit& hit : lines_matching(state, kSwitch)) {
    ADD_FAILURE() << hit.where << " keeps circuit state outside the switch: " << hit.line;
  }
  // The check reads what it should: the switch itself declares them.
  const fs::path header = fs::path(PHOTONSIM_SOURCE_DIR) / kSwitch[0];
  std::ifstream in(header);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(std::regex_search(text, state)) << header << " no longer matches the pattern this test looks for";
}

TEST(EngineStructure, OnlyTheSwitchComputesDarkTime) {
  const std::regex asks_model(R"((model\w*|ReconfigurationModel\w*)\s*(->|\.)\s*dark_time\s*\()");
  for (const Hit& hit : lines_matching(asks_model, kSwitch)) {
    ADD_FAILURE() << hit.where << " asks a ReconfigurationModel for dark time outside the switch: " << hit.line;
  }
  const fs::path source = fs::path(PHOTONSIM_SOURCE_DIR) / kSwitch[1];
  std::ifstream in(source);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(std::regex_search(text, asks_model)) << source << " no longer matches the pattern this test looks for";
}

}  // namespace
}  // namespace photonsim
