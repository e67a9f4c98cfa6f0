// Provenance that reruns (issue 51, item 6): the config.yaml an --out folder
// keeps runs again from that folder, and its command.txt from anywhere, to
// the same bytes (wall-clock timings masked), for a run, a sweep, a replay
// and a task graph. Each front starts from a relative path, so a file name
// kept as written would point nowhere from the folder: before the fix a
// sweep's config.yaml kept `base: fabric.yaml`, a run's an MSCCL `file:`
// and a graph's `graph:` relative to the original config's folder, and
// command.txt held the command without the folder it ran in.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/cli/hostile_run.h"
#include "tests/support/test_paths.h"

namespace photonsim_test {
namespace {

const std::string kProvenanceRerunSource = PHOTONSIM_SOURCE_DIR;
// PHOTONSIM_BATTERY_BINARY runs these against another build, as the battery does (hostile_run.h).
const std::string kBinary =
    std::getenv("PHOTONSIM_BATTERY_BINARY") != nullptr && *std::getenv("PHOTONSIM_BATTERY_BINARY")
        ? std::getenv("PHOTONSIM_BATTERY_BINARY")
        : PHOTONSIM_BINARY;

// The CSV's wall-clock columns blanked: the rest must match byte for byte.
std::string csv_without_timings(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream cells(line);
    while (std::getline(cells, field, ',')) fields.push_back(field);
    if (!line.empty() && line.back() == ',') fields.push_back("");
    rows.push_back(fields);
  }
  if (rows.empty()) return "";
  std::vector<bool> timing(rows[0].size(), false);
  for (size_t i = 0; i < rows[0].size(); ++i)
    timing[i] = rows[0][i] == "wall_s" || rows[0][i] == "synthesis_s" || rows[0][i] == "simulation_s";
  std::string out;
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + (i < timing.size() && timing[i] ? "-" : row[i]);
    out += "\n";
  }
  return out;
}

// A result file without its timings, by its kind; `config_named` also
// blanks the config's name (a graph's JSON records the path it was given).
std::string masked(const fs::path& file, bool config_named = false) {
  const std::string text = slurp(file);
  if (file.extension() == ".csv") return csv_without_timings(text);
  if (file.extension() != ".json") return text;
  std::string out, line;
  std::istringstream in(without_timings(text));
  while (std::getline(in, line)) out += (config_named && line.starts_with("  \"config\": ") ? "-" : line) + "\n";
  return out;
}

// Where two texts first differ, for a short failure message.
std::string first_difference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i == a.size() && i == b.size()) return "";
  const size_t from = i < 80 ? 0 : i - 80;
  return "differ at byte " + std::to_string(i) + ":\n  " + a.substr(from, 160) + "\nvs\n  " + b.substr(from, 160);
}

class ProvenanceRerun : public Hostile {
 protected:
  // `command` through sh in `folder`; stderr kept for the failure message.
  int shell(const std::string& folder, const std::string& command) {
    const std::string full = "cd '" + folder + "' && " + command + " >'" + (dir_ / "sh_out.txt").string() + "' 2>'" +
                             (dir_ / "sh_err.txt").string() + "' </dev/null";
    const int status = std::system(full.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string shell_err() { return slurp(dir_ / "sh_err.txt"); }

  // The saved config.yaml, run from its own folder with `verb_args` (the
  // config's place marked by CONFIG), writes `files` as the original did.
  void expect_config_reruns(const fs::path& saved, const std::string& verb_args,
                            const std::vector<std::string>& files) {
    const fs::path again = dir_ / "again";
    fs::remove_all(again);
    std::string args = verb_args;
    args.replace(args.find("CONFIG"), 6, "config.yaml");
    ASSERT_EQ(shell(saved.string(), kBinary + " " + args + " --out '" + again.string() + "'"), 0) << shell_err();
    for (const std::string& f : files)
      EXPECT_EQ(first_difference(masked(again / f, true), masked(saved / f, true)), "") << f;
  }

  // command.txt, run by sh from another folder, writes the same files again.
  void expect_command_reruns(const fs::path& saved, const std::vector<std::string>& files,
                             const std::vector<std::string>& remove_first = {}) {
    std::vector<std::string> before;
    for (const std::string& f : files) before.push_back(masked(saved / f));
    for (const std::string& f : remove_first) fs::remove(saved / f);
    const std::string command = slurp(saved / "command.txt");
    ASSERT_EQ(command.find("cd "), 0u) << command;
    ASSERT_EQ(shell("/", "sh '" + (saved / "command.txt").string() + "'"), 0) << shell_err() << "\n" << command;
    for (size_t i = 0; i < files.size(); ++i)
      EXPECT_EQ(first_difference(masked(saved / files[i]), before[i]), "") << files[i];
  }
};

TEST_F(ProvenanceRerun, ARunsConfigAndCommandRerunFromItsFolder) {
  // Run from the source root with a relative config whose MSCCL file is relative to it.
  const fs::path out = dir_ / "run";
  ASSERT_EQ(shell(kProvenanceRerunSource,
                  kBinary + " run configs/msccl/ring_allreduce_4.yaml --set fabric.reconfig_delay=7us --out '" +
                      out.string() + "'"),
            0)
      << shell_err();
  const std::vector<std::string> files{"result.json", "result.csv", "schedule.pb"};
  expect_config_reruns(out, "run CONFIG", files);
  expect_command_reruns(out, files);
}

TEST_F(ProvenanceRerun, ASweepsConfigAndCommandRerunFromItsFolder) {
  // The tutorial's layout: a sweep file beside its base, named relative to it.
  fs::create_directories(dir_ / "tutorial");
  write("tutorial/fabric.yaml", slurp(kProvenanceRerunSource + "/configs/quickstart.yaml"));
  write("tutorial/sweep.yaml",
        "base: fabric.yaml                 # relative to this file\n"
        "grid:\n  fabric.reconfig_delay: [1us, 100us]\n  workload.message: [1MB, 4MB]\n");
  const fs::path out = dir_ / "tutorial" / "out";
  ASSERT_EQ(shell(dir_.string(), kBinary + " sweep tutorial/sweep.yaml --jobs 1 --out tutorial/out"), 0) << shell_err();
  const std::string kept = slurp(out / "config.yaml");
  EXPECT_NE(kept.find("base: " + (dir_ / "tutorial" / "fabric.yaml").string()), std::string::npos) << kept;
  EXPECT_NE(kept.find("# relative to this file"), std::string::npos) << "comments kept: " << kept;
  expect_config_reruns(out, "sweep CONFIG --jobs 1", {"results.csv"});
  // A sweep's folder refuses a second run without --resume: without its rows, command.txt writes them again.
  expect_command_reruns(out, {"results.csv"}, {"results.csv", "results.csv.base_hash"});
}

TEST_F(ProvenanceRerun, AReplaysConfigAndCommandRerunFromItsFolder) {
  ASSERT_EQ(shell(kProvenanceRerunSource,
                  kBinary + " synth configs/quickstart.yaml --out '" + (dir_ / "s.pb").string() + "'"),
            0)
      << shell_err();
  const fs::path out = dir_ / "replay";
  ASSERT_EQ(shell(dir_.string(), kBinary + " replay s.pb " + kProvenanceRerunSource +
                                     "/configs/quickstart.yaml --set fabric.reconfig_delay=3us --out replay"),
            0)
      << shell_err();
  const std::vector<std::string> files{"result.json", "result.csv", "schedule.pb"};
  // The folder keeps the schedule it replayed (schedule.pb) beside the config.
  expect_config_reruns(out, "replay schedule.pb CONFIG", files);
  expect_command_reruns(out, files);
}

TEST_F(ProvenanceRerun, ATaskGraphsConfigAndCommandRerunFromItsFolder) {
  // workload.graph names a file relative to the config's folder.
  const fs::path out = dir_ / "graph";
  ASSERT_EQ(
      shell(kProvenanceRerunSource,
            kBinary + " run configs/training/transformer_32.yaml --fidelity analytical --out '" + out.string() + "'"),
      0)
      << shell_err();
  const std::vector<std::string> files{"graph.json", "nodes.csv"};
  expect_config_reruns(out, "run CONFIG --fidelity analytical", files);
  expect_command_reruns(out, files);
}

}  // namespace
}  // namespace photonsim_test
