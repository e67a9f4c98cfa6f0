// What an --out folder records of how it was made (sim/reports/provenance.h):
// provenance.json (version, git revision, the command), command.txt and
// config.yaml (the config with every --set applied), for a run, a task
// graph and a sweep; the config it keeps runs to the same result; a
// provenance file never replaces an input. (The files' text itself:
// tests/sim/provenance_test.cpp.)
#include <gtest/gtest.h>

#include <string>

#include "core/version.h"
#include "tests/cli/hostile_run.h"
#include "tests/support/json_value.h"
#include "tests/support/test_paths.h"

namespace photonsim_test {
namespace {

using photonsim::testing_support::parse_json;

const std::string kProvenanceCliSource = PHOTONSIM_SOURCE_DIR;

class Provenance : public Hostile {};

TEST_F(Provenance, ARunsFolderKeepsItsCommandVersionAndResolvedConfig) {
  const std::string out = (dir_ / "out").string();
  const std::string config = kProvenanceCliSource + "/configs/quickstart.yaml";
  const HostileOutcome o = run({"run", config, "--set", "fabric.reconfig_delay=3us", "--set", "workload.message=2MB",
                                "--out", out, "--format", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto about = parse_json(slurp(out + "/provenance.json"));
  EXPECT_EQ(about.at("photonsim").text, PHOTONSIM_VERSION);
  EXPECT_FALSE(about.at("git_revision").text.empty());
  EXPECT_EQ(about.at("config").text, config);
  const auto& command = about.at("command").items;
  ASSERT_EQ(command.size(), 11u);
  EXPECT_EQ(command[1].text, "run");
  EXPECT_EQ(command[4].text, "fabric.reconfig_delay=3us");
  EXPECT_EQ(slurp(out + "/command.txt").substr(slurp(out + "/command.txt").find(" run ")),
            " run " + config + " --set fabric.reconfig_delay=3us --set workload.message=2MB --out " + out +
                " --format json\n");
  const std::string resolved = slurp(out + "/config.yaml");
  EXPECT_NE(resolved.find("reconfig_delay: 3us"), std::string::npos) << resolved;
  EXPECT_NE(resolved.find("message: 2MB"), std::string::npos) << resolved;
  // The kept config runs to the same result, without the --sets.
  const HostileOutcome again = run({"run", out + "/config.yaml", "--format", "json"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(parse_json(again.out).at("measured_ps").integer(), parse_json(o.out).at("measured_ps").integer());
  EXPECT_EQ(without_timings(again.out), without_timings(o.out));
}

TEST_F(Provenance, AGraphsAndASweepsFoldersKeepThemToo) {
  const std::string graph_out = (dir_ / "graph").string();
  ASSERT_EQ(run({"run", kProvenanceCliSource + "/configs/training/transformer_32.yaml", "--fidelity", "analytical",
                 "--out", graph_out})
                .code,
            0);
  for (const char* f : {"provenance.json", "command.txt", "config.yaml", "graph.json", "nodes.csv"})
    EXPECT_TRUE(fs::exists(graph_out + "/" + f)) << f;
  const std::string sweep = write("s.yaml", "base: " + kProvenanceCliSource +
                                                "/configs/quickstart.yaml\n"
                                                "grid:\n  workload.message: [1MB, 2MB]\n");
  const std::string sweep_out = (dir_ / "sweep").string();
  const HostileOutcome o = run({"sweep", sweep, "--out", sweep_out, "--jobs", "1"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(slurp(sweep_out + "/config.yaml"), slurp(sweep));  // a sweep keeps its sweep file
  EXPECT_EQ(parse_json(slurp(sweep_out + "/provenance.json")).at("config").text, sweep);
}

// Issue 51, item 1: --version names the build folder and the git revision
// (before: the version alone; and in a git worktree, whose .git is a file,
// the revision was "unknown").
TEST_F(Provenance, VersionNamesTheBuildAndItsGitRevision) {
  const HostileOutcome o = run({"--version"});
  ASSERT_EQ(o.code, 0) << o.err;
  const std::string build = fs::path(PHOTONSIM_BINARY).parent_path().string();
  EXPECT_NE(o.out.find("built in " + build + " from " + kProvenanceCliSource), std::string::npos) << o.out;
  const size_t at = o.out.find("git revision ");
  ASSERT_NE(at, std::string::npos) << o.out;
  const std::string revision = o.out.substr(at + 13, o.out.find(',', at) - at - 13);
  if (fs::exists(kProvenanceCliSource + "/.git")) {
    EXPECT_NE(revision, "unknown");
  }
  // provenance.json records the same revision.
  const std::string out = (dir_ / "out").string();
  ASSERT_EQ(run({"run", kProvenanceCliSource + "/configs/quickstart.yaml", "--out", out}).code, 0);
  EXPECT_EQ(parse_json(slurp(out + "/provenance.json")).at("git_revision").text, revision);
}

TEST_F(Provenance, NeverReplacesAnInput) {
  fs::create_directories(dir_ / "out");
  const std::string config = write("out/config.yaml", slurp(kProvenanceCliSource + "/configs/quickstart.yaml"));
  const std::string before = slurp(config);
  refuse({"run", config, "--out", (dir_ / "out").string()}, {"config.yaml"});
  EXPECT_EQ(slurp(config), before);
}

}  // namespace
}  // namespace photonsim_test
