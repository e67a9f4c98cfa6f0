#include "sim/cli/terminal_progress.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "sim/app/experiment_runner.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

TEST(TerminalProgress, WarnsOnlyPastABillionEvents) {
  std::ostringstream err;
  TerminalProgress(err, false).starting(TerminalProgress::kWarnEvents, 3);
  EXPECT_EQ(err.str(), "");
  TerminalProgress(err, false).starting(7170000000, 7);
  EXPECT_EQ(err.str(),
            "photonsim: warning: this run fires at least 7.17e+09 events in 7 steps and may take minutes "
            "(a larger fabric.packet, or --fidelity chunk, needs fewer)\n");
}

TEST(TerminalProgress, NothingOnAStreamThatIsNoTerminal) {
  std::ostringstream err;
  {
    TerminalProgress p(err, false);
    p.starting(10, 1);
    p.advanced(0, 1, 10);
  }
  EXPECT_EQ(err.str(), "");
}

TEST(TerminalProgress, AStatusLineOnATerminalAfterThreeSeconds) {
  std::ostringstream err;
  {
    TerminalProgress p(err, true);
    p.starting(10, 2);
    p.advanced(0, 2, 4);
    EXPECT_EQ(err.str(), "");  // a quick run says nothing
    std::this_thread::sleep_for(std::chrono::milliseconds(3050));
    p.advanced(0, 2, 5);
  }
  EXPECT_EQ(err.str(), "\rphotonsim: step 1/2, 5 events, 3 s, about 3 s left\n");
}

// A synthesis's stage, as a share or (where it may end early) as a count of
// at most; the simulation's line starts on a new line after it.
TEST(TerminalProgress, ASynthesisStageWithTheTimeLeft) {
  std::ostringstream exact_err;
  std::ostringstream bound_err;
  std::ostringstream quiet_err;
  std::ostringstream single_err;
  TerminalProgress exact(exact_err, true);
  TerminalProgress single(single_err, true);
  TerminalProgress bound(bound_err, true);
  TerminalProgress quiet(quiet_err, false);
  exact.progressed({"FAST: decomposing", 0, 4});
  bound.progressed({"rdc: contracted (d)", 0, 100, WorkTotal::at_most});
  std::this_thread::sleep_for(std::chrono::milliseconds(3050));
  exact.progressed({"FAST: decomposing", 1, 4});
  bound.progressed({"rdc: contracted (d)", 10, 100, WorkTotal::at_most});
  quiet.progressed({"FAST: decomposing", 1, 4});
  single.progressed({"rdc: building d = 7", 0, 1});  // one unit of work: what, not how far
  // About 3 s for the first quarter: about 9 s for the other three.
  EXPECT_EQ(exact_err.str(), "\rphotonsim: FAST: decomposing: 25%, 3 s, about 9 s left");
  EXPECT_EQ(bound_err.str(), "\rphotonsim: rdc: contracted (d): 10 of at most 100, 3 s, at most about 27 s left");
  EXPECT_EQ(quiet_err.str(), "");
  EXPECT_EQ(single_err.str(), "\rphotonsim: rdc: building d = 7, 3 s");
  exact.starting(10, 1);
  exact.advanced(0, 1, 10);  // the simulation's own three seconds start now
  EXPECT_EQ(exact_err.str(), "\rphotonsim: FAST: decomposing: 25%, 3 s, about 9 s left\n");
}

// A shorter line blanks out what the longer line before it left.
TEST(TerminalProgress, AShorterLineBlanksTheRestOfTheLonger) {
  std::ostringstream err;
  {
    TerminalProgress p(err, true);
    p.progressed({"a long stage name", 0, 2});
    std::this_thread::sleep_for(std::chrono::milliseconds(3050));
    p.progressed({"a long stage name", 1, 2});
    std::this_thread::sleep_for(std::chrono::milliseconds(550));
    p.progressed({"short", 1, 2});  // a new stage: no pace yet, so no time left
  }
  EXPECT_EQ(err.str(),
            "\rphotonsim: a long stage name: 50%, 3 s, about 3 s left"
            "\rphotonsim: short: 50%, 4 s                            \n");
}

// The engine's lower bound (packet by packet, two events per packet per hop;
// with trains, one per transfer per hop), and it is a lower bound of what the
// quickstart run fires, heard once per step.
void expect_minimum_bounds_what_it_fires(Fidelity fidelity, uint64_t minimum) {
  struct Recorder : RunProgress {
    uint64_t minimum = 0;
    uint64_t last = 0;
    size_t calls = 0;
    void starting(uint64_t m, size_t) override { minimum = m; }
    void advanced(size_t, size_t, uint64_t events) override {
      last = events;
      ++calls;
    }
  } recorder;
  const ExperimentConfig config =
      load_config(std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml", {"fabric.packet=64KB"});
  const RunReport report = run_experiment(config, SynthesizerRegistry::with_builtins(), fidelity, &recorder);
  EXPECT_EQ(recorder.minimum, minimum);
  EXPECT_LE(recorder.minimum, report.result.events);
  EXPECT_EQ(recorder.calls, 7u);  // once per step: no step reaches 2^20 events
  EXPECT_EQ(recorder.last, report.result.events);
}

TEST(MinimumEvents, QuickstartIsBoundedByWhatItFires) {
  // 56 flows of 4 MB in 63 packets of 64 KB (62 full, one of 32 KB), one hop each: 2 * 56 * 63.
  expect_minimum_bounds_what_it_fires(Fidelity::packet_reference, 2u * 56 * 63);
}

TEST(MinimumEvents, TrainsAreBoundedByWhatTheyFire) {
  // 56 flows, one hop each: at least one train each.
  expect_minimum_bounds_what_it_fires(Fidelity::packet, 56u);
}

}  // namespace
}  // namespace photonsim
