// Sweep results that survive damage and repetition: a torn last row is
// dropped and its point rerun (not glued to the next row), repeated grid
// values run once and are reported.
#include "tests/cli/hostile_run.h"

namespace photonsim_test {
namespace {

using SweepIntegrity = Hostile;

size_t lines_of(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

TEST_F(SweepIntegrity, TornLastRowIsDroppedAndItsPointRunsAgain) {
  const std::string sweep =
      write("s.yaml", "base: " + quickstart() + "\ngrid: {fabric.reconfig_delay: [1us, 2us, 3us]}\n");
  const std::string out = (dir_ / "out").string();
  ASSERT_EQ(run({"sweep", sweep, "--out", out, "--jobs", "1"}).code, 0);
  const std::string whole = slurp(dir_ / "out" / "results.csv");
  ASSERT_EQ(lines_of(whole), 4u);
  // Cut the last row in half, as a full disk or a crash would.
  const size_t last = whole.rfind('\n', whole.size() - 2) + 1;
  write("out/results.csv", whole.substr(0, last + (whole.size() - last) / 2));
  const HostileOutcome o = run({"sweep", sweep, "--out", out, "--resume", "--jobs", "1"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("dropped a torn last row"), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("1 ran, 2 already done"), std::string::npos) << o.out;
  EXPECT_EQ(slurp(dir_ / "out" / "results.csv").size(), whole.size());
  EXPECT_EQ(lines_of(slurp(dir_ / "out" / "results.csv")), 4u);
}

TEST_F(SweepIntegrity, RepeatedValuesRunOnceAndAreReported) {
  const std::string sweep =
      write("s.yaml", "base: " + quickstart() + "\ngrid: {fabric.reconfig_delay: [1us, 2us, 1us, 1us]}\n");
  const HostileOutcome o = run({"sweep", sweep, "--out", (dir_ / "out").string(), "--jobs", "1"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("repeats 2 value(s)"), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("sweep: 2 points"), std::string::npos) << o.out;
  EXPECT_EQ(lines_of(slurp(dir_ / "out" / "results.csv")), 3u);
}

TEST_F(SweepIntegrity, LogRangeRoundingToRepeatsRunsEachPointOnce) {
  // 1ps..10ps x20: 21 log-spaced points round to the 10 integers 1..10.
  const std::string sweep = write("s.yaml", "base: " + quickstart() + "\ngrid: {fabric.latency: 1ps..10ps x20}\n");
  const HostileOutcome o = run({"sweep", sweep, "--out", (dir_ / "out").string(), "--jobs", "2"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("grid.fabric.latency repeats"), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("sweep: 10 points"), std::string::npos) << o.out;
}

TEST_F(SweepIntegrity, PointPastTheMemoryLimitFailsWithoutRunning) {
  const std::string sweep = write("s.yaml", "base: " + quickstart() + "\ngrid: {fabric.gpus: [8, 10000]}\n");
  const HostileOutcome o = run({"sweep", sweep, "--out", (dir_ / "out").string(), "--max-memory", "4GiB"});
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_NE(
      o.err.find("fabric.gpus=10000): fabric.gpus (10000 GPUs in an all-to-all of n(n-1) flows) needs an estimated"),
      std::string::npos)
      << o.err;
  EXPECT_NE(o.out.find("2 points, 1 ran, 0 already done, 1 failed"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace photonsim_test
