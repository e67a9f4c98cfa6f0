// The engine's one-place rules, read from the sources (docs/layout.md): one
// run driver (sim/engine/run_driver.*) owns the clock and hears the network,
// so every other file that executes a run is a policy of it; the
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
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

struct Hit {
  std::string where;
  std::string line;
};

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Lines of sim/ (outside the `allowed` files) whose code (comments aside)
// `matches`.
template <class Matches>
std::vector<Hit> lines_where(Matches matches, const std::vector<std::string>& allowed) {
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
      if (matches(line.substr(0, line.find("//")))) hits.push_back({relative + ":" + std::to_string(number), line});
    }
  }
  return hits;
}

// A declaration of a name holding `part`: `TYPE name;`, `TYPE name = ...`
// or `TYPE name{...}`, TYPE ending in one of `types` (a word, or `>`).
bool declares(const std::string& code, const std::string& part, const std::vector<std::string>& types) {
  for (size_t at = code.find(part); at != std::string::npos; at = code.find(part, at + 1)) {
    size_t begin = at, end = at + part.size();
    while (begin > 0 && is_word(code[begin - 1])) --begin;
    while (end < code.size() && is_word(code[end])) ++end;
    size_t next = end;
    while (next < code.size() && code[next] == ' ') ++next;
    if (next == code.size() || (code[next] != ';' && code[next] != '=' && code[next] != '{')) continue;
    size_t type_end = begin;
    while (type_end > 0 && code[type_end - 1] == ' ') --type_end;
    if (type_end == begin) continue;  // no space before the name: not a declaration
    for (const std::string& type : types) {
      if (type_end >= type.size() && code.compare(type_end - type.size(), type.size(), type) == 0 &&
          (type == ">" || type_end == type.size() || !is_word(code[type_end - type.size() - 1]))) {
        return true;
      }
    }
  }
  return false;
}

// Where a port leads (lit_to, leads_to), whether a command is pending on it
// (a bool ...commanded), its dark span (dark_since, lights_at). A run's own
// accounting of when it commanded its groups is no circuit state.
bool keeps_circuit_state(const std::string& code) {
  for (const char* part : {"lit_to", "leads_to", "dark_since", "lights_at"}) {
    if (declares(code, part, {"int", "Time", ">"})) return true;
  }
  return declares(code, "commanded", {"bool"});
}

// A ReconfigurationModel is asked through its pointer, with the command's size.
bool asks_a_model(const std::string& code) {
  return code.find("->dark_time(") != std::string::npos || code.find("dark_time(SwitchCommand") != std::string::npos;
}

// An event list of its own (`EventList events_;`), or a handler of the clock's
// or the network's callbacks: what a second driver would need.
bool drives_a_run(const std::string& code) {
  return declares(code, "event", {"EventList", "EventList>"}) ||
         code.find("public EventHandler") != std::string::npos || code.find("public FlowListener") != std::string::npos;
}

std::string text_of(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

const std::vector<std::string> kSwitch{"sim/engine/switch/optical_switch.h", "sim/engine/switch/optical_switch.cpp"};

TEST(EngineStructure, OnlyTheSwitchHoldsCircuitState) {
  for (const Hit& hit : lines_where(keeps_circuit_state, kSwitch)) {
    ADD_FAILURE() << hit.where << " keeps circuit state outside the switch: " << hit.line;
  }
  // The check reads what it should: the switch itself declares them, and
  // the fields the engine had before the switch owned them are caught.
  std::istringstream header(text_of(fs::path(PHOTONSIM_SOURCE_DIR) / kSwitch[0]));
  int found = 0;
  for (std::string line; std::getline(header, line);) found += keeps_circuit_state(line) ? 1 : 0;
  EXPECT_GE(found, 4) << kSwitch[0] << " no longer matches what this test looks for";
  for (const char* old : {"  std::vector<int> lit_to_;  // per fabric slot", "  bool commanded = false;",
                          "  Time dark_since;", "  Time lights_at;"}) {
    EXPECT_TRUE(keeps_circuit_state(old)) << old;
  }
  EXPECT_FALSE(keeps_circuit_state("  std::vector<Time> group_commanded_at_;  // per group"));
  EXPECT_FALSE(keeps_circuit_state("    if (switch_.leads_to(x) == dst) return false;"));
}

// The data planes (the reference Network, the TrainNetwork) are the driver's
// packet engines: each handles the packet events it schedules on the driver's clock.
const std::vector<std::string> kDriver{"sim/engine/run_driver.h", "sim/engine/run_driver.cpp",
                                       "sim/engine/network/network.h", "sim/engine/network/train_network.h"};

TEST(EngineStructure, OnlyTheDriverRunsTheClock) {
  for (const Hit& hit : lines_where(drives_a_run, kDriver)) {
    ADD_FAILURE() << hit.where << " drives a run outside the RunDriver (make it a RunPolicy): " << hit.line;
  }
  EXPECT_TRUE(drives_a_run(text_of(fs::path(PHOTONSIM_SOURCE_DIR) / kDriver[0])))
      << kDriver[0] << " no longer matches what this test looks for";
  // The drivers the engine had before it had one are caught.
  for (const char* old : {"class DependencyRun : public FlowListener, public EventHandler {",
                          "class TaskGraphRun : public FlowListener, public EventHandler, public RunObserver {",
                          "  EventList events_;", "  std::unique_ptr<EventList> own_events_;"}) {
    EXPECT_TRUE(drives_a_run(old)) << old;
  }
  EXPECT_FALSE(drives_a_run("class ScheduleExecution : public RunPolicy {"));
  EXPECT_FALSE(drives_a_run("  EventList& events_;"));
}

// What a front end saves (a run's, a graph's or a sweep's folder, a schedule
// file or Chakra traces) goes through sim/app/output_writer.*: a call that
// makes those files' contents for writing, anywhere else in sim/, fails here.
bool writes_an_output(const std::string& code) {
  for (const char* call : {"provenance_files(", "write_msccl_xml(", "write_schedule(", "\"/result.json\"",
                           "\"/graph.json\"", "\"/nodes.csv\""}) {
    if (code.find(call) != std::string::npos) return true;
  }
  return false;
}

TEST(EngineStructure, OneWriterSavesEveryOutput) {
  const std::vector<std::string> writer{"sim/app/output_writer.h", "sim/app/output_writer.cpp",
                                        "sim/reports/provenance.h", "sim/reports/provenance.cpp"};
  for (const Hit& hit : lines_where(writes_an_output, writer)) {
    ADD_FAILURE() << hit.where << " writes an output outside sim/app/output_writer: " << hit.line;
  }
  EXPECT_TRUE(writes_an_output(text_of(fs::path(PHOTONSIM_SOURCE_DIR) / writer[1])))
      << writer[1] << " no longer matches what this test looks for";
  // The copies the CLI and Python had before.
  EXPECT_TRUE(writes_an_output("      write_file_atomically(dir + \"/graph.json\", report.json());"));
  EXPECT_TRUE(writes_an_output("      xml = write_msccl_xml(s);"));
}

TEST(EngineStructure, OnlyTheSwitchComputesDarkTime) {
  for (const Hit& hit : lines_where(asks_a_model, kSwitch)) {
    ADD_FAILURE() << hit.where << " asks a ReconfigurationModel for dark time outside the switch: " << hit.line;
  }
  EXPECT_TRUE(asks_a_model(text_of(fs::path(PHOTONSIM_SOURCE_DIR) / kSwitch[1])))
      << kSwitch[1] << " no longer matches what this test looks for";
  EXPECT_FALSE(asks_a_model("    later(node, now, switch_.dark_time(commands.size()), \"first circuits\");"));
}

}  // namespace
}  // namespace photonsim
