// photonsim run/replay --trace FILE.json end to end: a valid Chrome trace
// event document, the same results on stdout, a clear one-line error and no
// file at all when it cannot be written, and scripts/plots/plot_timeline.py's PNG.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/cli/hostile_run.h"
#include "tests/support/json_value.h"
#include "tests/support/trace_checks.h"
#include "tests/support/test_paths.h"

namespace photonsim_test {
namespace {

using photonsim::testing_support::JsonValue;
using photonsim::testing_support::parse_json;
using photonsim::testing_support::validate_trace;

class TraceCli : public Hostile {
 protected:
  // Files under the scratch folder other than the runner's own captures.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("hostile_", 0) != 0) names.push_back(fs::relative(e.path(), dir_).string());
    }
    return names;
  }
};

TEST_F(TraceCli, RunWritesAValidTraceAndTheSameResults) {
  const std::string trace = (dir_ / "quickstart.json").string();
  const HostileOutcome traced = run({"run", quickstart(), "--format", "json", "--trace", trace});
  ASSERT_EQ(traced.code, 0) << traced.err;
  const HostileOutcome plain = run({"run", quickstart(), "--format", "json"});
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(without_timings(traced.out), without_timings(plain.out));

  const JsonValue doc = parse_json(slurp(trace));
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  const JsonValue& other = doc.at("otherData");
  EXPECT_EQ(other.at("algorithm").text, "direct");
  EXPECT_EQ(other.at("fidelity").text, "packet");
  EXPECT_EQ(other.at("photonsim_gpu_processes").integer(), 8);
  EXPECT_EQ(other.at("photonsim_aggregation").text.rfind("none", 0), 0u);
  size_t steps = 0, ports = 0;
  for (const JsonValue& e : doc.at("traceEvents").items) {
    if (e.at("ph").text != "X") continue;
    steps += e.at("pid").integer() == 1 && e.at("name").text.rfind("step ", 0) == 0 ? 1 : 0;
    ports += e.at("name").text.rfind("-> ", 0) == 0 ? 1 : 0;
  }
  EXPECT_EQ(steps, 7u);
  EXPECT_EQ(static_cast<int64_t>(ports), other.at("photonsim_port_spans_written").integer());

  // The same run writes the same bytes.
  const std::string again = (dir_ / "again.json").string();
  ASSERT_EQ(run({"run", quickstart(), "--trace", again}).code, 0);
  EXPECT_EQ(slurp(again), slurp(trace));
}

TEST_F(TraceCli, ReplayWritesATrace) {
  const std::string schedule = (dir_ / "schedule.pb").string();
  ASSERT_EQ(run({"synth", quickstart(), "--out", schedule}).code, 0);
  const std::string trace = (dir_ / "replay.json").string();
  const HostileOutcome o = run({"replay", schedule, quickstart(), "--trace", trace});
  ASSERT_EQ(o.code, 0) << o.err;
  const JsonValue doc = parse_json(slurp(trace));
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  EXPECT_EQ(doc.at("otherData").at("schedule").text, schedule);
}

TEST_F(TraceCli, AnalyticalWritesTheStepsAloneAndSaysSo) {
  const std::string trace = (dir_ / "analytical.json").string();
  const HostileOutcome o = run({"run", quickstart(), "--fidelity", "analytical", "--trace", trace});
  ASSERT_EQ(o.code, 0) << o.err;
  const JsonValue doc = parse_json(slurp(trace));
  EXPECT_EQ(validate_trace(doc), std::vector<std::string>{});
  for (const JsonValue& e : doc.at("traceEvents").items) EXPECT_EQ(e.at("pid").integer(), 1);
  EXPECT_NE(doc.at("otherData").at("photonsim_tracks").text.find("no packet run"), std::string::npos);
}

// The parent is a regular file: the run succeeds, the trace cannot be written.
TEST_F(TraceCli, AnUnwritablePathIsAnErrorAndLeavesNoFile) {
  write("blocker", "a file, not a directory\n");
  const std::string trace = (dir_ / "blocker" / "t.json").string();
  expect_refused(run({"run", quickstart(), "--trace", trace}), "trace under a file", {"cannot write", trace});
  EXPECT_EQ(files(), std::vector<std::string>{"blocker"});

  // A directory at the path is refused before the run.
  fs::create_directories(dir_ / "taken");
  const std::string taken = (dir_ / "taken").string();
  expect_refused(run({"run", quickstart(), "--trace", taken}), "trace onto a directory", {"refusing", taken});
  expect_refused(run({"run", quickstart(), "--trace", ""}), "empty trace path", {"--trace"});
}

TEST_F(TraceCli, PlotTimelineDrawsAPng) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "no Debian python3 with matplotlib (apt-get install python3-matplotlib)";
  }
  const std::string trace = (dir_ / "t.json").string(), png = (dir_ / "t.png").string();
  ASSERT_EQ(run({"run", quickstart(), "--trace", trace}).code, 0);
  const std::string command = "/usr/bin/python3 " + std::string(PHOTONSIM_SOURCE_DIR) +
                              "/scripts/plots/plot_timeline.py " + trace + " " + png + " --gpus 4 >/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string bytes = slurp(png);
  EXPECT_GT(bytes.size(), 1000u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

}  // namespace
}  // namespace photonsim_test
