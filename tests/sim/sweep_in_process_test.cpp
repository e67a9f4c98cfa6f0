// A sweep run in this process's threads (SweepOptions::in_process, the
// Python package's way) writes the rows a sweep of child processes writes,
// failed points included, with the harvest planner's linear programs solved
// in two threads at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/reports/csv_text.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/sweep_spec.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

// results.csv's rows without the wall-clock columns, sorted (rows land as points finish).
std::vector<std::string> rows_without_timings(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const CsvRecords csv = csv_records(text.str());
  std::vector<std::string> header = csv_split(csv.records.at(0)), rows;
  for (size_t r = 1; r < csv.records.size(); ++r) {
    if (csv.records[r].empty()) continue;
    const std::vector<std::string> fields = csv_split(csv.records[r]);
    std::string row;
    for (size_t i = 0; i < fields.size(); ++i) {
      const bool timing = header[i] == "wall_s" || header[i] == "synthesis_s" || header[i] == "simulation_s";
      row += (timing ? std::string("-") : fields[i]) + ",";
    }
    rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(SweepInProcess, WritesTheRowsChildProcessesWrite) {
  const fs::path dir = fs::path(::testing::TempDir()) / "photonsim_sweep_in_process";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const SweepSpec spec =
      load_sweep_from_string("base: " + std::string(PHOTONSIM_SOURCE_DIR) +
                                 "/configs/quickstart.yaml\n"
                                 "grid:\n  fabric.reconfig_delay: [100ns, 10us, 1ms]\n  fabric.gpus: [8, 1]\n"
                                 "  synthesis.planner: [static, harvest]\n",
                             (dir / "s.yaml").string(), dir.string());
  SweepOptions options;
  options.jobs = 2;
  options.out_dir = (dir / "processes").string();
  std::ostringstream log;
  const SweepOutcome forked = run_sweep(spec, options, log);
  options.out_dir = (dir / "threads").string();
  options.in_process = true;
  const SweepOutcome threaded = run_sweep(spec, options, log);
  EXPECT_EQ(threaded.ran, forked.ran);
  EXPECT_EQ(threaded.failed, 6u);  // fabric.gpus = 1
  EXPECT_EQ(threaded.failures.size(), 6u);
  EXPECT_EQ(forked.failed, 6u);
  EXPECT_EQ(rows_without_timings(dir / "threads" / "results.csv"),
            rows_without_timings(dir / "processes" / "results.csv"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace photonsim
