// End-to-end tests of the photonsim binary: the contract verbs, flags, output
// columns, determinism, and one-line errors with a non-zero exit on bad input.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/shipped_configs.h"
#include "tests/support/test_paths.h"
#include "tests/support/test_size.h"

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("photonsim_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome photonsim(const std::string& args) {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string command =
        std::string(PHOTONSIM_BINARY) + " " + args + " >" + out.string() + " 2>" + err.string() + " </dev/null";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
  }

  std::string write(const std::string& name, const std::string& content) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }

  static std::string quickstart() { return std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml"; }

  // Runs and expects a one-line error containing every fragment.
  void expect_error(const std::string& args, const std::vector<std::string>& fragments) {
    const Outcome o = photonsim(args);
    EXPECT_NE(o.code, 0) << args;
    EXPECT_NE(o.code, -1) << args << " did not exit normally";
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << "not one line: " << o.err;
    for (const std::string& f : fragments) {
      EXPECT_NE(o.err.find(f), std::string::npos) << "'" << f << "' missing from: " << o.err;
    }
  }

  fs::path dir_;
};

const char* kMinimal =
    "fabric:\n"
    "  gpus: 4\n"
    "  bandwidth: 100Gbps\n"
    "  latency: 1us\n"
    "workload:\n"
    "  collective: alltoall\n"
    "  message: 1MB\n"
    "synthesis:\n"
    "  algorithm: direct\n"
    "  topology: ring\n";

std::vector<std::string> split_lines(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The timings (wall_s and its synthesis_s / simulation_s shares) are the only
// columns that differ between runs of the same config and seed.
bool is_timing(const std::string& name) { return name == "wall_s" || name == "synthesis_s" || name == "simulation_s"; }

std::string without_wall(const std::string& json) {
  std::istringstream in(json);
  std::string line, out;
  while (std::getline(in, line)) {
    const size_t open = line.find('"');
    const size_t close = open == std::string::npos ? open : line.find('"', open + 1);
    if (close == std::string::npos || !is_timing(line.substr(open + 1, close - open - 1))) out += line + "\n";
  }
  return out;
}

TEST_F(Cli, QuickstartPrintsMeasuredNextToPredicted) {
  const Outcome o = photonsim("run " + quickstart());
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("measured"), std::string::npos);
  EXPECT_NE(o.out.find("predicted"), std::string::npos);
  EXPECT_NE(o.out.find("alltoall / direct"), std::string::npos);
  EXPECT_NE(o.out.find("on 8 GPUs"), std::string::npos);
}

TEST_F(Cli, JsonCarriesTheContractColumns) {
  const Outcome o = photonsim("run " + quickstart() + " --format json");
  ASSERT_EQ(o.code, 0) << o.err;
  for (const char* key : {"collective", "algorithm", "planner", "gpus", "message_bytes", "reconfig_delay_ps",
                          "measured_ps", "predicted_ps", "error_pct", "reconfigurations", "reconfig_ps", "steps",
                          "events", "packets", "wall_s", "synthesis_s", "simulation_s", "per_step"}) {
    EXPECT_NE(o.out.find("\"" + std::string(key) + "\":"), std::string::npos) << key;
  }
  EXPECT_NE(o.out.find("\"measured_ps\": 1134000000"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"predicted_ps\": 1134000000"), std::string::npos);
}

TEST_F(Cli, CsvIsAHeaderAndOneRowWithTheSameColumns) {
  const Outcome o = photonsim("run " + quickstart() + " --format csv");
  ASSERT_EQ(o.code, 0) << o.err;
  std::istringstream in(o.out);
  std::string header, row, extra;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_FALSE(std::getline(in, extra));
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), std::count(row.begin(), row.end(), ','));
  for (const char* key : {"collective", "measured_ps", "predicted_ps", "error_pct", "wall_s"}) {
    EXPECT_NE(header.find(key), std::string::npos) << key;
  }
}

TEST_F(Cli, SameConfigAndSeedGiveIdenticalOutput) {
  const std::string args = "run " + quickstart() + " --format json --seed 7 --set fabric.packet=64KB";
  const Outcome a = photonsim(args), b = photonsim(args);
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(without_wall(a.out), without_wall(b.out));
  EXPECT_NE(a.out.find("\"seed\": 7"), std::string::npos);
}

TEST_F(Cli, SetOverridesAnyKey) {
  const Outcome o = photonsim("run " + quickstart() +
                              " --format csv --set synthesis.topology=none --set synthesis.static_topology=ring");
  ASSERT_EQ(o.code, 0) << o.err;
  // R + 28T with R = 10us, T = 40.5us.
  EXPECT_NE(o.out.find(",1144000000,1144000000,"), std::string::npos) << o.out;
}

TEST_F(Cli, OutDirHoldsResultsAndAReplayableSchedule) {
  const fs::path out = dir_ / "results";
  ASSERT_EQ(photonsim("run " + quickstart() + " --out " + out.string()).code, 0);
  for (const char* f : {"result.json", "result.csv", "schedule.pb"}) EXPECT_TRUE(fs::exists(out / f)) << f;
  const Outcome replay = photonsim("replay " + (out / "schedule.pb").string() + " " + quickstart() + " --format json");
  ASSERT_EQ(replay.code, 0) << replay.err;
  // Replay adds the stored prediction (made for the same fabric here) as extra fields.
  std::string replayed = without_wall(replay.out);
  for (const char* extra :
       {"  \"stored_model\": \"alpha_beta_congestion\",\n", "  \"stored_predicted_ps\": 1134000000,\n"}) {
    const size_t at = replayed.find(extra);
    ASSERT_NE(at, std::string::npos) << extra;
    replayed.erase(at, std::string(extra).size());
  }
  EXPECT_EQ(replayed, without_wall(read_file(out / "result.json")));
}

TEST_F(Cli, SynthWritesAScheduleAndPrintsItsPrediction) {
  const std::string pb = (dir_ / "s.pbtxt").string();
  const Outcome o = photonsim("synth " + quickstart() + " --out " + pb);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("predicted"), std::string::npos);
  EXPECT_NE(o.out.find("1134000000 ps"), std::string::npos) << o.out;
  EXPECT_NE(read_file(pb).find("algorithm: \"direct\""), std::string::npos);
}

TEST_F(Cli, HelpAndListSucceed) {
  EXPECT_EQ(photonsim("--help").code, 0);
  const Outcome run_help = photonsim("run --help");
  EXPECT_EQ(run_help.code, 0);
  EXPECT_NE(run_help.out.find("--set"), std::string::npos);
  const Outcome list = photonsim("list");
  ASSERT_EQ(list.code, 0);
  for (const char* name : {"direct", "ring", "binomial", "static", "every_step", "none"}) {
    EXPECT_NE(list.out.find(name), std::string::npos) << name;
  }
}

TEST_F(Cli, UnknownKeyNamesFileLineAndKey) {
  const std::string path = write("c.yaml", std::string(kMinimal) + "  bandwith: 1Gbps\n");
  expect_error("run " + path, {"c.yaml:11:", "bandwith"});
}

TEST_F(Cli, MissingRequiredKey) {
  std::string yaml = kMinimal;
  yaml.erase(yaml.find("  latency: 1us\n"), 14);
  expect_error("run " + write("c.yaml", yaml), {"fabric.latency"});
}

TEST_F(Cli, UnparsableUnit) {
  expect_error("run " + write("c.yaml", kMinimal) + " --set fabric.bandwidth=100Gbs", {"fabric.bandwidth", "100Gbs"});
}

TEST_F(Cli, TooFewGpus) { expect_error("run " + write("c.yaml", kMinimal) + " --set fabric.gpus=1", {"fabric.gpus"}); }

TEST_F(Cli, NegativeDelay) {
  expect_error("run " + write("c.yaml", kMinimal) + " --set fabric.reconfig_delay=-1us",
               {"fabric.reconfig_delay", "negative"});
}

TEST_F(Cli, ConfigurationOverThePortLimitNamesTheNode) {
  expect_error("run " + write("c.yaml", kMinimal) + " --set \"synthesis.topology={type: ring, bidirectional: true}\"",
               {"node 0", "fabric.ports"});
}

TEST_F(Cli, UnknownAlgorithmListsTheValidOnes) {
  expect_error("run " + write("c.yaml", kMinimal) + " --set synthesis.algorithm=bogus",
               {"synthesis.algorithm", "bogus", "direct", "ring", "binomial"});
}

TEST_F(Cli, UnroutableTransferNamesTheNodes) {
  const std::string pb = write(
      "s.pbtxt",
      "collective: \"alltoall\" algorithm: \"hand\" planner: \"hand\" gpus: 4\n"
      "message_bytes: 1000 initial_topology: 0\n"
      "topologies { name: \"line\" gpus: 4 edges { src: 0 dst: 1 } edges { src: 1 dst: 2 } edges { src: 2 dst: 3 } }\n"
      "steps { topology: 0 transfers { src: 3 dst: 0 bytes: 1000 } }\n"
      "end_marker: 827542864\n");
  // No blocks: the verifier cannot prove it, so only --no-verify reaches the engine's route check.
  expect_error("replay " + pb + " " + write("c.yaml", kMinimal), {"s.pbtxt", "declares no blocks", "--no-verify"});
  expect_error("replay --no-verify " + pb + " " + write("c.yaml", kMinimal), {"no route from node 3 to node 0"});
}

TEST_F(Cli, TruncatedScheduleIsRejected) {
  const std::string pb = (dir_ / "s.pb").string();
  ASSERT_EQ(photonsim("synth " + quickstart() + " --out " + pb).code, 0);
  const std::string bytes = read_file(pb);
  for (size_t keep : {size_t{0}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
    const std::string cut = write("cut.pb", bytes.substr(0, keep));
    expect_error("replay " + cut + " " + quickstart(), {"cut.pb"});
  }
}

TEST_F(Cli, MissingConfigFile) { expect_error("run " + (dir_ / "nope.yaml").string(), {"nope.yaml"}); }

TEST_F(Cli, BadFormatAndBadVerb) {
  expect_error("run " + quickstart() + " --format xml", {"--format", "table, json, csv"});
  const Outcome o = photonsim("frobnicate");
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("run, synth, replay, plan, list, topo, verify"), std::string::npos);
}

TEST_F(Cli, VerifyProvesAConfigAndNamesTheFirstViolationOfAFile) {
  const Outcome ok = photonsim("verify " + quickstart());
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("verified: alltoall / direct on 8 GPUs"), std::string::npos) << ok.out;
  // Broadcast on 3 GPUs where node 1 forwards before it has received.
  const std::string pb = write("bad.pbtxt",
                               "collective: \"broadcast\" algorithm: \"hand\" planner: \"hand\" gpus: 3\n"
                               "message_bytes: 10 blocks: 1 root: 0 initial_topology: -1\n"
                               "topologies { name: \"all\" gpus: 3 edges { src: 0 dst: 1 } edges { src: 1 dst: 2 } }\n"
                               "steps { topology: 0 transfers { src: 0 dst: 1 bytes: 10 blocks: 0 }\n"
                               "                    transfers { src: 1 dst: 2 bytes: 10 blocks: 0 } }\n"
                               "end_marker: 827542864\n");
  const Outcome bad = photonsim("verify " + pb);
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.out.find("step 0, node 1, block 0: node 1 sends block 0 it does not hold"), std::string::npos)
      << bad.out;
}

TEST_F(Cli, TopoJsonHasTheContractKeys) {
  const Outcome o = photonsim("topo --type torus --gpus 16 --dims 4x4 --demand alltoall --format json");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("\"gpus\": 16"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"diameter\": 4"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"theta\": 0.125"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"edges\": [[0, 1], [0, 3], [0, 4], [0, 12], [1, 0]"), std::string::npos) << o.out;
}

TEST_F(Cli, TopoTableAndDot) {
  const Outcome table = photonsim("topo --type generalized_kautz --gpus 12 --degree 2");
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("diameter        3"), std::string::npos) << table.out;
  const Outcome dot = photonsim("topo --type ring --gpus 3 --format dot");
  ASSERT_EQ(dot.code, 0) << dot.err;
  EXPECT_NE(dot.out.find("2 -> 0;"), std::string::npos) << dot.out;
  const Outcome param = photonsim("topo --type subrings --gpus 27 --param phase=1 --format json");
  ASSERT_EQ(param.code, 0) << param.err;
  EXPECT_NE(param.out.find("\"strongly_connected\": false"), std::string::npos) << param.out;
}

TEST_F(Cli, TopoBadParametersNameTheParameter) {
  expect_error("topo --type torus --gpus 15 --dims 4x4", {"'dims'"});
  expect_error("topo --type generalized_kautz --gpus 8 --degree 8", {"'degree'"});
  expect_error("topo --type circulant --gpus 8 --generators \"\"", {"'generators'"});
  expect_error("topo --type tours --gpus 8", {"unknown topology 'tours'", "torus"});
  expect_error("topo --type ring --gpus 8 --demand gather", {"--demand", "alltoall"});
  expect_error("topo --type ring --gpus 8 --ports 0", {"--ports"});
}

TEST_F(Cli, BoundPrintsTheoremOneInUnitsOfT) {
  const Outcome json = photonsim("bound --gpus 8 --ports 1 --reconfigs 2 --format json");
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_EQ(json.out, "{\"gpus\": 8, \"ports\": 1, \"reconfigs\": 2, \"transmission_T\": 16}\n");
  const Outcome table = photonsim("bound --gpus 8 --compare");
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("        3              12     13  1.0833"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("worst ratio over d: 1.1000"), std::string::npos) << table.out;
  const Outcome csv = photonsim("bound --gpus 4 --ports 2 --format csv");
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(csv.out, "gpus,ports,reconfigs,transmission_T\n4,2,1,3\n4,2,2,2\n4,2,3,2\n");
}

TEST_F(Cli, BoundRejectsImpossibleArguments) {
  expect_error("bound --gpus 8 --reconfigs 8", {"d (configured topologies) must be in 1..7"});
  expect_error("bound --gpus 1", {"n (GPUs) must be >= 2"});
  expect_error("bound --ports 2", {"bound needs --gpus N"});
  expect_error("bound --gpus 8 --format xml", {"--format", "table, json, csv"});
}

TEST_F(Cli, PlanShowsTheJointCostCurve) {
  const std::string config = write("a2a.yaml",
                                   "fabric: {gpus: 8, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 283.5us}\n"
                                   "workload: {collective: alltoall, message: 4MB, chunk: 4MB}\n"
                                   "synthesis: {algorithm: rdc, topology: none}\n");
  const Outcome o = photonsim("plan " + config);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("joint d=2               1.215ms         2  2R + 16T (shifted rings 1,7)"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("joint d=1               1.417ms         1  1R + 28T"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("joint d=7               2.268ms         7  7R + 7T"), std::string::npos) << o.out;
  const Outcome run = photonsim("run " + config + " --set synthesis.algorithm=pairwise --format json");
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("\"measured_ps\": 2268000000"), std::string::npos) << run.out;
}

// The rows of results.csv as (swept values) -> measured_ps.
std::map<std::string, std::string> sweep_rows(const std::string& csv, size_t keys, size_t* lines) {
  std::istringstream in(csv);
  std::string header, line;
  std::getline(in, header);
  const std::string column = "measured_ps";
  size_t measured = 0;
  {
    std::istringstream h(header);
    std::string name;
    for (size_t i = 0; std::getline(h, name, ','); ++i) {
      if (name == column) measured = i;
    }
  }
  std::map<std::string, std::string> rows;
  *lines = 0;
  while (std::getline(in, line)) {
    ++*lines;
    std::istringstream l(line);
    std::string field, key, value;
    for (size_t i = 0; std::getline(l, field, ','); ++i) {
      if (i < keys) key += field + "|";
      if (i == measured) value = field;
    }
    rows[key] = value;
  }
  return rows;
}

TEST_F(Cli, SweepWritesOneRowPerPointAndResumesWithoutDuplicates) {
  const std::string sweep = write("s.yaml", "base: " + quickstart() +
                                                "\n"
                                                "grid:\n"
                                                "  fabric.reconfig_delay: 1us..1ms x1\n"
                                                "  workload.message: [1MB, 2MB, 4MB, 8MB]\n");
  const std::string out = (dir_ / "out").string();
  const Outcome first = photonsim("sweep " + sweep + " --out " + out + " --jobs 2");
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_NE(first.out.find("16 points, 16 ran"), std::string::npos) << first.out;
  const std::string csv = read_file(out + "/results.csv");
  EXPECT_EQ(csv.rfind("fabric.reconfig_delay,workload.message,collective,", 0), 0u) << csv.substr(0, 80);
  EXPECT_NE(csv.find(",seed,"), std::string::npos);
  EXPECT_NE(csv.find(",version,"), std::string::npos);
  EXPECT_NE(csv.find(",algbw_GBps,busbw_GBps,version,wall_s,synthesis_s,simulation_s,point\n"), std::string::npos);
  size_t lines = 0;
  const auto rows = sweep_rows(csv, 2, &lines);
  EXPECT_EQ(lines, 16u);
  EXPECT_EQ(rows.size(), 16u);
  // Each row names its point in the grid's order (the last key fastest),
  // whatever order the points finished in.
  {
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    std::set<int> points;
    const char* messages[] = {"1MB", "2MB", "4MB", "8MB"};
    while (std::getline(in, line)) {
      const int point = std::stoi(line.substr(line.rfind(',') + 1));
      points.insert(point);
      EXPECT_EQ(line.substr(line.find(',') + 1, line.find(',', line.find(',') + 1) - line.find(',') - 1),
                messages[point % 4])
          << line;
    }
    EXPECT_EQ(points.size(), 16u);
    EXPECT_EQ(*points.rbegin(), 15);
  }
  // Nothing is overwritten without --resume.
  expect_error("sweep " + sweep + " --out " + out, {"results.csv exists", "--resume"});
  // An interrupted sweep: only its first 9 rows survived.
  std::istringstream in(csv);
  std::string kept, line;
  for (int i = 0; i < 10 && std::getline(in, line); ++i) kept += line + "\n";
  std::ofstream(out + "/results.csv", std::ios::binary | std::ios::trunc) << kept;
  const Outcome resumed = photonsim("sweep " + sweep + " --out " + out + " --resume --jobs 2");
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("16 points, 7 ran, 9 already done"), std::string::npos) << resumed.out;
  size_t resumed_lines = 0;
  EXPECT_EQ(sweep_rows(read_file(out + "/results.csv"), 2, &resumed_lines), rows);
  EXPECT_EQ(resumed_lines, 16u);
  if (std::system("python3 -c 'import csv' >/dev/null 2>&1") == 0) {
    const Outcome parsed = Outcome{
        std::system(("python3 -c \"import csv,sys; r=list(csv.DictReader(open('" + out +
                     "/results.csv'))); sys.exit(0 if len(r)==16 and all(len(x)==len(r[0]) for x in r) else 1)\"")
                        .c_str()),
        "", ""};
    EXPECT_EQ(parsed.code, 0) << "Python's csv module does not read 16 complete rows";
  }
}

TEST_F(Cli, KilledSweepKeepsWholeRowsAndResumes) {
  const std::string sweep = write("k.yaml", "base: " + quickstart() +
                                                "\n"
                                                "grid:\n"
                                                "  fabric.packet: [4KiB]\n"
                                                "  workload.message: [2MB, 4MB, 6MB, 8MB]\n"
                                                "  fabric.reconfig_delay: [1us, 2us, 3us, 4us]\n");
  const std::string out = (dir_ / "killed").string();
  // Killed at some moment (maybe before the first row, maybe after the last).
  std::system(("timeout -s KILL 1 " + std::string(PHOTONSIM_BINARY) + " sweep " + sweep + " --out " + out +
               " --jobs 1 >/dev/null 2>&1")
                  .c_str());
  if (fs::exists(out + "/results.csv")) {
    const std::string partial = read_file(out + "/results.csv");
    ASSERT_FALSE(partial.empty());
    EXPECT_EQ(partial.back(), '\n') << "a row was cut";
  }
  const Outcome resumed = photonsim("sweep " + sweep + " --out " + out + " --resume --jobs 2");
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  size_t lines = 0;
  EXPECT_EQ(sweep_rows(read_file(out + "/results.csv"), 3, &lines).size(), 16u);
  EXPECT_EQ(lines, 16u);
}

// A run killed at any moment leaves each output file whole or absent: equal
// to a completed run's (results less wall time, the schedule byte for byte).
TEST_F(Cli, KilledRunLeavesWholeOutputsOrNone) {
  const std::string config = quickstart() + " --set workload.message=64MB --set fabric.packet=4KiB";
  const fs::path full = dir_ / "full";
  ASSERT_EQ(photonsim("run " + config + " --out " + full.string()).code, 0);
  const std::string expected_json = without_wall(read_file(full / "result.json"));
  const std::string expected_schedule = read_file(full / "schedule.pb");
  for (const char* delay : {"0.05", "0.3", "1", "3"}) {
    const fs::path out = dir_ / (std::string("killed-") + delay);
    std::system(("timeout -s KILL " + std::string(delay) + " " + std::string(PHOTONSIM_BINARY) + " run " + config +
                 " --out " + out.string() + " >/dev/null 2>&1")
                    .c_str());
    if (fs::exists(out / "result.json")) {
      EXPECT_EQ(without_wall(read_file(out / "result.json")), expected_json) << "killed after " << delay << " s";
    }
    if (fs::exists(out / "schedule.pb")) {
      EXPECT_EQ(read_file(out / "schedule.pb"), expected_schedule) << "killed after " << delay << " s";
    }
    if (fs::exists(out / "result.csv")) {
      const std::string csv = read_file(out / "result.csv");
      EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2) << "killed after " << delay << " s";
      EXPECT_EQ(csv.back(), '\n');
    }
  }
}

// The kill above lands wherever the clock puts it, rarely inside a write. This
// one watches the output folder (inotify) and kills the run the moment the
// temporary file of schedule.pb (1.5 MB here) appears: the temporary file left
// behind proves the kill landed mid-write, and the target must still be absent.
TEST_F(Cli, KillLandingInsideAWriteLeavesTheTargetAbsent) {
  const fs::path out = dir_ / "watched";
  std::vector<std::string> args{PHOTONSIM_BINARY,  "run",        quickstart(), "--set",
                                "fabric.gpus=300", "--fidelity", "analytical", "--out",
                                out.string(),      "--format",   "csv"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  bool proven = false;
  for (int attempt = 0; attempt < 5 && !proven; ++attempt) {
    fs::remove_all(out);
    fs::create_directories(out);
    const int watch = ::inotify_init1(IN_CLOEXEC);
    ASSERT_GE(watch, 0);
    ASSERT_GE(::inotify_add_watch(watch, out.c_str(), IN_CREATE), 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::freopen("/dev/null", "w", stdout);
      ::execv(argv[0], argv.data());
      ::_exit(126);
    }
    bool killed = false;
    alignas(struct inotify_event) char buffer[4096];
    while (!killed) {
      struct pollfd p {
        watch, POLLIN, 0
      };
      if (::poll(&p, 1, 60000) <= 0) break;
      const ssize_t got = ::read(watch, buffer, sizeof buffer);
      for (ssize_t at = 0; at < got;) {
        const auto* e = reinterpret_cast<const struct inotify_event*>(buffer + at);
        if (e->len > 0 && std::string(e->name).rfind("schedule.pb.tmp", 0) == 0) {
          ::kill(pid, SIGKILL);
          killed = true;
        }
        at += static_cast<ssize_t>(sizeof(struct inotify_event) + e->len);
      }
    }
    ::close(watch);
    int status = 0;
    ::waitpid(pid, &status, 0);
    size_t temporaries = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
      temporaries += entry.path().filename().string().rfind("schedule.pb.tmp", 0) == 0;
    }
    if (killed && WIFSIGNALED(status) && temporaries > 0) {
      proven = true;
      EXPECT_FALSE(fs::exists(out / "schedule.pb")) << "a half-written schedule.pb took the target's name";
      // Written before it, whole: two lines.
      const std::string csv = read_file(out / "result.csv");
      EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2);
    }
  }
  EXPECT_TRUE(proven) << "no kill landed inside the write of schedule.pb in 5 attempts";
}

// A run of billions of events says so before it starts (then it is stopped here).
TEST_F(Cli, RunOfBillionsOfEventsWarnsUpFront) {
  const std::string err_path = (dir_ / "err.txt").string();
  std::system(("timeout -s KILL 3 " + std::string(PHOTONSIM_BINARY) + " run " + quickstart() +
               " --fidelity packet_reference --set fabric.packet=1B --set workload.message=64MB >/dev/null 2>" + err_path)
                  .c_str());
  EXPECT_NE(read_file(err_path).find("photonsim: warning: this run fires at least 7.17e+09 events in 7 steps"),
            std::string::npos)
      << read_file(err_path);
}

// bound --compare at large n runs for minutes to hours: it says so first (then it is stopped here).
TEST_F(Cli, BoundCompareAtLargeNWarnsFirst) {
  const std::string err_path = (dir_ / "err.txt").string();
  std::system(("timeout -s KILL 2 " + std::string(PHOTONSIM_BINARY) +
               " bound --gpus 1024 --ports 2 --compare >/dev/null 2>" + err_path)
                  .c_str());
  EXPECT_NE(read_file(err_path).find("photonsim: warning: --compare builds rdc for every d at n = 1024"),
            std::string::npos)
      << read_file(err_path);
}

TEST_F(Cli, SweepErrorsNameTheSweepFile) {
  const std::string bad = write("bad.yaml", "base: nowhere.yaml\ngrid:\n  fabric.gpus: [8]\n");
  const Outcome o = photonsim("sweep " + bad + " --out " + (dir_ / "o").string());
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("nowhere.yaml"), std::string::npos) << o.err;
  expect_error("sweep " + write("r.yaml", "base: q.yaml\ngrid:\n  fabric.gpus: 8..16\n"), {"r.yaml:3:", "A..B xN"});
}

// Every experiment shipped in configs/ (but the heavy engine and scale
// benchmarks under configs/bench/) runs, and every shipped sweep's points load
// against its base config.
TEST_F(Cli, EveryShippedConfigRuns) {
  size_t configs = 0;
  for (const fs::path& p : photonsim::testing_support::shipped_experiment_configs()) {
    const Outcome o = photonsim("run " + p.string() + " --format csv");
    EXPECT_EQ(o.code, 0) << p << ": " << o.err;
    ++configs;
  }
  EXPECT_GE(configs, 6u);
}

// With MPI built in (and mpirun installed), two ranks produce the same rows
// as a local run, in some order; skipped otherwise.
TEST_F(Cli, SweepUnderMpirunGivesTheLocalRows) {
  const Outcome version = photonsim("--version");
  if (version.out.find("(MPI)") == std::string::npos || std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "photonsim built without MPI or no mpirun";
  }
  const std::string sweep = write("m.yaml", "base: " + quickstart() +
                                                "\n"
                                                "grid:\n"
                                                "  fabric.reconfig_delay: [1us, 1ms]\n"
                                                "  workload.message: [1MB, 2MB, 4MB]\n");
  const std::string local = (dir_ / "local").string(), mpi = (dir_ / "mpi").string();
  ASSERT_EQ(photonsim("sweep " + sweep + " --out " + local).code, 0);
  // Open MPI refuses root without these; leak checks would flag MPI's own allocations.
  const std::string env = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 ";
  const std::string command = env + "mpirun -np 2 --oversubscribe " + std::string(PHOTONSIM_BINARY) + " sweep " +
                              sweep + " --out " + mpi + " >" + (dir_ / "mpi.out").string() + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << read_file(dir_ / "mpi.out");
  const std::string mpi_out = read_file(dir_ / "mpi.out");
  EXPECT_EQ(std::count(mpi_out.begin(), mpi_out.end(), '\n'), 1) << "only rank 0 reports: " << mpi_out;
  // Rows equal as sets once the timings (the last run columns before the bandwidths) are dropped.
  auto rows = [](const std::string& csv) {
    std::multiset<std::string> out;
    std::istringstream in(csv);
    std::string header, line;
    std::getline(in, header);
    const auto names = [](const std::string& l) {
      std::vector<std::string> f;
      std::istringstream s(l);
      std::string x;
      while (std::getline(s, x, ',')) f.push_back(x);
      return f;
    };
    const std::vector<std::string> columns = names(header);
    while (std::getline(in, line)) {
      const std::vector<std::string> fields = names(line);
      std::string kept;
      for (size_t i = 0; i < fields.size() && i < columns.size(); ++i) {
        if (!is_timing(columns[i])) kept += fields[i] + ",";
      }
      out.insert(kept);
    }
    return out;
  };
  const auto local_rows = rows(read_file(local + "/results.csv"));
  EXPECT_EQ(local_rows.size(), 6u);
  EXPECT_EQ(rows(read_file(mpi + "/results.csv")), local_rows);
}

// Golden scenarios: small end-to-end runs whose JSON (less the timings) is checked
// in under tests/golden/expected; any change of a figure fails with the diff.
// The version line is left out too: a release must not change a golden.
// Regenerate on purpose with scripts/dev/regenerate_goldens.
TEST_F(Cli, GoldenScenariosMatchTheirCheckedInJson) {
  const fs::path golden = fs::path(PHOTONSIM_SOURCE_DIR) / "tests" / "golden";
  size_t scenarios = 0;
  for (const auto& entry : fs::directory_iterator(golden)) {
    if (entry.path().extension() != ".yaml") continue;
    ++scenarios;
    const std::string name = entry.path().stem().string();
    const fs::path expected = golden / "expected" / (name + ".json");
    ASSERT_TRUE(fs::exists(expected)) << expected << " is missing: run scripts/dev/regenerate_goldens";
    const Outcome o = photonsim("run " + entry.path().string() + " --format json");
    ASSERT_EQ(o.code, 0) << name << ": " << o.err;
    std::string actual;
    for (const std::string& line : split_lines(without_wall(o.out))) {
      if (line.find("\"version\"") == std::string::npos) actual += line + "\n";
    }
    if (actual != read_file(expected)) {
      const std::string got = write(name + ".actual.json", actual);
      const std::string diff_file = (dir_ / (name + ".diff")).string();
      std::system(("diff -u " + expected.string() + " " + got + " > " + diff_file + " 2>&1").c_str());
      ADD_FAILURE() << "golden scenario '" << name << "' changed (scripts/dev/regenerate_goldens if intended):\n"
                    << read_file(diff_file);
    }
  }
  EXPECT_GE(scenarios, 8u);
}

// fabric.sync = dataflow never takes longer than the barrier on the shipped
// configs (every paper's, the quickstart, the goldens and the engine
// benchmarks but alltoall64_ring_32MB, a 45 s run: docs/model.md "Beyond the barrier" lists
// it), with either reconfiguration scope; and partial reconfiguration never
// takes longer than reconfiguring everything. One test per config: four runs
// of the largest take minutes under AddressSanitizer.
std::vector<std::string> shipped_execution_configs() {
  const fs::path root(PHOTONSIM_SOURCE_DIR);
  std::vector<std::string> configs = {"configs/quickstart.yaml"};
  for (const char* folder : {"configs/alltoall_paper", "configs/harvest_paper", "configs/pccl_paper",
                             "configs/retri_paper", "configs/bench", "tests/golden"}) {
    for (const auto& entry : fs::directory_iterator(root / folder)) {
      if (entry.path().extension() == ".yaml" && entry.path().stem() != "alltoall64_ring_32MB") {
        configs.push_back(fs::relative(entry.path(), root).string());
      }
    }
  }
  std::sort(configs.begin(), configs.end());
  return configs;
}

class ShippedConfigExecution : public Cli, public ::testing::WithParamInterface<std::string> {};

TEST_P(ShippedConfigExecution, DataflowAndPartialReconfigurationAreNeverSlowerThanTheBarrier) {
  // The engine benchmarks are the paper configs' algorithms at scale (64 and
  // 1,024 GPUs): three minutes of the suite under the sanitizers, so they run
  // with PHOTONSIM_LONG_TESTS=1 (scripts/test --long); the paper configs and
  // goldens keep every algorithm family in the default run.
  if (GetParam().rfind("configs/bench/", 0) == 0 && !::photonsim::testing_support::long_tests())
    GTEST_SKIP() << GetParam() << ": an engine benchmark, run with PHOTONSIM_LONG_TESTS=1";
  const fs::path config = fs::path(PHOTONSIM_SOURCE_DIR) / GetParam();
  const auto measured = [&](const char* sync, const char* scope) {
    const Outcome o = photonsim("run " + config.string() + " --format json --set fabric.sync=" + sync +
                                " --set fabric.reconfiguration=" + scope);
    EXPECT_EQ(o.code, 0) << config << ": " << o.err;
    const size_t at = o.out.find("\"measured_ps\": ");
    EXPECT_NE(at, std::string::npos) << config;
    return at == std::string::npos ? int64_t{-1} : std::stoll(o.out.substr(at + 15));
  };
  const int64_t barrier = measured("barrier", "all");
  EXPECT_LE(measured("barrier", "changed"), barrier) << config;
  EXPECT_LE(measured("dataflow", "all"), barrier) << config;
  EXPECT_LE(measured("dataflow", "changed"), barrier) << config;
}

INSTANTIATE_TEST_SUITE_P(Shipped, ShippedConfigExecution, ::testing::ValuesIn(shipped_execution_configs()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param.substr(0, param_info.param.size() - 5);  // without .yaml
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(ShippedConfigs, EnoughAreComparedUnderEveryExecutionMode) { EXPECT_GE(shipped_execution_configs().size(), 18u); }

}  // namespace
