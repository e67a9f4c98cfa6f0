// The adversarial battery, command-line usage: every hostile invocation is
// refused with exit 1 or 2 and one line naming what was wrong.
#include "tests/cli/hostile_run.h"

namespace photonsim_test {
namespace {

using AdversarialUsage = Hostile;

TEST_F(AdversarialUsage, UnknownVerbListsTheValidOnes) {
  refuse({"simulate", quickstart()}, {"unknown command 'simulate'", "run, synth"});
}

TEST_F(AdversarialUsage, EscapeSequenceAsVerbIsNotEchoedRaw) {
  const HostileOutcome o = run({"\033[2J\033[31mrun", quickstart()});
  expect_refused(o, "escape-sequence verb", {"unknown command", "\\x1b[2J"});
  EXPECT_EQ(o.err.find('\033'), std::string::npos);
}

TEST_F(AdversarialUsage, MissingConfigFileIsNamed) {
  refuse({"run", (dir_ / "absent.yaml").string()}, {"absent.yaml"});
}

TEST_F(AdversarialUsage, UnknownOptionIsBadUsage) {
  const HostileOutcome o = run({"run", quickstart(), "--frobnicate"});
  expect_refused(o, "--frobnicate", {"frobnicate"});
  EXPECT_EQ(o.code, 2);
}

// Exit codes follow docs/cli.md: a bad option value is bad usage (2).
void expect_usage_error(Hostile& h, const HostileOutcome& o, const std::string& what,
                        const std::vector<std::string>& fragments) {
  (void)h;
  expect_refused(o, what, fragments);
  EXPECT_EQ(o.code, 2) << what;
}

// A space where the '=' belongs would bind the key alone and take the value
// for a positional argument: the error says what to write instead.
TEST_F(AdversarialUsage, SetWithoutEqualsSaysSo) {
  const HostileOutcome o = run({"run", quickstart(), "--set", "fabric.gpus", "8"});
  expect_usage_error(*this, o, "--set fabric.gpus 8",
                     {"--set fabric.gpus 8: --set takes KEY=VALUE, joined by '='", "write --set fabric.gpus=8"});
  expect_usage_error(*this, run({"plan", "--set", "fabric.gpus", quickstart()}), "plan --set fabric.gpus CONFIG",
                     {"--set takes KEY=VALUE"});
  expect_usage_error(*this, run({"synth", quickstart(), "--set", "fabric.gpus"}), "--set fabric.gpus at the end",
                     {"write --set fabric.gpus=VALUE"});
}

TEST_F(AdversarialUsage, BadFormatIsBadUsage) {
  expect_usage_error(*this, run({"run", quickstart(), "--format", "xml"}), "--format xml",
                     {"--format", "table, json, csv"});
}

TEST_F(AdversarialUsage, BadFidelityIsBadUsage) {
  expect_usage_error(*this, run({"run", quickstart(), "--fidelity", "exact"}), "--fidelity exact",
                     {"--fidelity", "packet, packet_reference, chunk, analytical"});
}

TEST_F(AdversarialUsage, ZeroJobsIsBadUsage) {
  expect_usage_error(*this, run({"sweep", source("configs/sweeps/harvest_regimes.yaml"), "--jobs", "0"}), "--jobs 0",
                     {"--jobs", "at least 1"});
}

TEST_F(AdversarialUsage, NonNumericJobs) {
  expect_usage_error(*this, run({"sweep", source("configs/sweeps/harvest_regimes.yaml"), "--jobs", "many"}),
                     "--jobs many", {"jobs"});
}

TEST_F(AdversarialUsage, BadTopoFormat) {
  expect_usage_error(*this, run({"topo", "--type", "ring", "--gpus", "8", "--format", "png"}), "topo --format png",
                     {"table, json, dot"});
}

TEST_F(AdversarialUsage, BadPlanFormat) {
  expect_usage_error(*this, run({"plan", quickstart(), "--format", "csv"}), "plan --format csv", {"table, json"});
}

TEST_F(AdversarialUsage, BadBoundFormat) {
  expect_usage_error(*this, run({"bound", "--gpus", "8", "--format", "dot"}), "bound --format dot",
                     {"table, json, csv"});
}

TEST_F(AdversarialUsage, TopoOneGpu) {
  expect_usage_error(*this, run({"topo", "--type", "ring", "--gpus", "1"}), "topo --gpus 1", {"--gpus", "at least 2"});
}

TEST_F(AdversarialUsage, TopoBadCircuits) {
  expect_usage_error(*this, run({"topo", "--type", "ring", "--gpus", "8", "--circuits", "both"}), "--circuits both",
                     {"--circuits", "directed or bidirectional"});
}

TEST_F(AdversarialUsage, TopoParamWithoutEquals) {
  expect_usage_error(*this, run({"topo", "--type", "ring", "--gpus", "8", "--param", "degree"}), "--param degree",
                     {"--param", "key=value"});
}

TEST_F(AdversarialUsage, NoArguments) {
  const HostileOutcome o = run({});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("usage:"), std::string::npos);
}

TEST_F(AdversarialUsage, ReplayWithoutConfig) {
  expect_usage_error(*this, run({"replay", write("s.pb", "")}), "replay FILE",
                     {"replay needs FILE.pb and CONFIG.yaml"});
}

TEST_F(AdversarialUsage, SynthWithoutOut) {
  expect_usage_error(*this, run({"synth", quickstart()}), "synth without --out", {"--out"});
}

TEST_F(AdversarialUsage, SetWithoutEquals) {
  refuse({"run", quickstart(), "--set", "fabric.gpus"}, {"--set", "fabric.gpus"});
}

TEST_F(AdversarialUsage, SetThroughAScalar) {
  refuse({"run", quickstart(), "--set", "fabric.gpus.x=1"}, {"fabric.gpus"});
}

TEST_F(AdversarialUsage, BoundColumnsStaySeparateAtHugeN) {
  // Before the fix: fixed widths, and "        119999999900000000" ran the columns together.
  const HostileOutcome o = run({"bound", "--gpus", "200000000", "--reconfigs", "1"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("reconfigs     transmission_T\n        1  19999999900000000\n"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace photonsim_test
