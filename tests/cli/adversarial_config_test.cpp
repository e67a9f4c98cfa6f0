// The adversarial battery, configs and sweep files: read strictly, every
// refusal one line with file:line (or the --set that caused it), echoed
// values cut short.
#include "tests/cli/hostile_run.h"
#include "tests/support/test_paths.h"

#include <sys/file.h>

namespace photonsim_test {
namespace {

class AdversarialConfig : public Hostile {
 protected:
  static constexpr const char* kBase =
      "fabric: {gpus: 4, bandwidth: 100Gbps, latency: 1ns}\n"
      "workload: {collective: alltoall, message: 1000B}\n";
  std::string config(const std::string& synthesis) { return write("c.yaml", std::string(kBase) + synthesis); }
};

TEST_F(AdversarialConfig, NestedListsInFromEdgesAreNotFlattened) {
  // Before the fix: [[0, [1, 2]], [3, 0]] read as the circuits 0->1, 2->3, 0->?
  refuse(
      {"run", config("synthesis: {algorithm: direct, topology: {type: from_edges, edges: [[0, [1, 2]], [3, 0]]}}\n")},
      {"edges", "[src, dst] pairs"});
}

TEST_F(AdversarialConfig, FlatListInFromEdges) {
  refuse({"run", config("synthesis: {algorithm: direct, topology: {type: from_edges, edges: [0, 1, 1, 2]}}\n")},
         {"edges", "[src, dst] pairs"});
}

TEST_F(AdversarialConfig, TripleInFromEdges) {
  refuse({"run", config("synthesis: {algorithm: direct, topology: {type: from_edges, edges: [[0, 1, 2]]}}\n")},
         {"edges", "pair"});
}

TEST_F(AdversarialConfig, EdgeFileWithAWordLine) {
  // Before the fix: the line was skipped silently.
  const std::string edges = write("e.txt", "0 1\n1 2\nthree four\n2 3\n3 0\n");
  refuse({"run", config("synthesis: {algorithm: direct, topology: {type: from_edges, file: " + edges + "}}\n")},
         {"e.txt:3", "src dst", "three four"});
}

TEST_F(AdversarialConfig, EdgeFileWithOneNodeOnALine) {
  const std::string edges = write("e.txt", "0 1\n1\n");
  refuse({"run", config("synthesis: {algorithm: direct, topology: {type: from_edges, file: " + edges + "}}\n")},
         {"e.txt:2"});
}

TEST_F(AdversarialConfig, EdgeFileThatIsADirectory) {
  fs::create_directories(dir_ / "edges.d");
  refuse({"run", config("synthesis: {algorithm: direct, topology: {type: from_edges, file: " +
                        (dir_ / "edges.d").string() + "}}\n")},
         {"edges.d", "directory"});
}

TEST_F(AdversarialConfig, SecondYamlDocumentIsRefused) {
  // Before the fix: the second document was ignored.
  refuse({"run", write("two.yaml", std::string(kBase) + "synthesis: {algorithm: direct}\n---\nfabric: {gpus: 64}\n")},
         {"two.yaml:4", "second YAML document"});
}

TEST_F(AdversarialConfig, CommaAloneOnceHungTheLoader) {
  // scripts/dev/fuzz found it: yaml-cpp's LoadAll never returns on "\n,".
  refuse({"run", write("comma.yaml", "\n,")}, {"comma.yaml"});
}

TEST_F(AdversarialConfig, ConfigThatIsADirectory) {
  // Before the fix: "... (got nothing)".
  fs::create_directories(dir_ / "conf.yaml");
  refuse({"run", (dir_ / "conf.yaml").string()}, {"conf.yaml", "is a directory"});
}

TEST_F(AdversarialConfig, TenMegabyteValueIsNotEchoedWhole) {
  const std::string huge(10 * 1000 * 1000, '7');
  // yaml-cpp takes about 2 s (plain build) to scan a 10 MB scalar, many
  // times that under the sanitizers on a loaded machine: the limit here is
  // for a hang, not for speed.
  const HostileLimits limits{60, 2L * 1024 * 1024};
  const HostileOutcome o = run({"run", write("huge.yaml", "fabric: {gpus: 4, bandwidth: 100Gbps, latency: " + huge +
                                                              "}\nworkload: {collective: alltoall, message: 1000B}\n"
                                                              "synthesis: {algorithm: direct}\n")},
                               limits);
  expect_refused(o, "10 MB latency", {"huge.yaml:1", "fabric.latency", "10000000 characters"}, limits);
  EXPECT_LT(o.err.size(), 600u);
}

TEST_F(AdversarialConfig, TenMegabyteSetIsNotEchoedWhole) {
  const HostileOutcome o = run({"run", quickstart(), "--set", "fabric.router=" + std::string(100000, 'x')});
  expect_refused(o, "huge --set", {"fabric.router"});
  EXPECT_LT(o.err.size(), 600u);
}

TEST_F(AdversarialConfig, UnknownAlgorithmCarriesFileAndLine) {
  refuse({"run", config("synthesis:\n  algorithm: nosuch\n")}, {"c.yaml:4", "nosuch", "valid:"});
}

TEST_F(AdversarialConfig, UnknownPlannerCarriesFileAndLine) {
  refuse({"run", config("synthesis:\n  algorithm: direct\n  planner: nosuch\n")}, {"c.yaml:5", "nosuch", "valid:"});
}

TEST_F(AdversarialConfig, UnknownTopologyCarriesFileAndLine) {
  refuse({"run", config("synthesis:\n  algorithm: direct\n  topology: nosuch\n")}, {"c.yaml:5", "nosuch"});
}

TEST_F(AdversarialConfig, AliasBomb) {
  std::string yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i) {
    yaml += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) yaml += std::string(j ? ", " : "") + "*a" + std::to_string(i - 1);
    yaml += "]\n";
  }
  refuse({"run", write("bomb.yaml", yaml + kBase + "synthesis: {algorithm: direct}\n")}, {"bomb.yaml"});
}

TEST_F(AdversarialConfig, AliasBombInsideAKnownSection) {
  std::string yaml = "x0: &x0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  for (int i = 1; i < 9; ++i) {
    yaml += "x" + std::to_string(i) + ": &x" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) yaml += std::string(j ? ", " : "") + "*x" + std::to_string(i - 1);
    yaml += "]\n";
  }
  refuse({"run", write("bomb2.yaml",
                       std::string(kBase) +
                           "synthesis: {algorithm: direct, topology: {type: circulant, generators: *x8}}\n" + yaml)},
         {"bomb2.yaml"});
}

TEST_F(AdversarialConfig, DeepNesting) {
  refuse({"run", write("deep.yaml",
                       std::string(kBase) + "synthesis: " + std::string(5000, '[') + std::string(5000, ']') + "\n")},
         {"deep.yaml"});
}

TEST_F(AdversarialConfig, NonUtf8Bytes) {
  const HostileOutcome o =
      run({"run", write("bin.yaml", std::string(kBase) + "synthesis: {algorithm: \xff\xfe\x80}\n")});
  expect_refused(o, "non-UTF-8 algorithm", {"bin.yaml:3", "\\xff\\xfe\\x80"});
  EXPECT_EQ(o.err.find('\xff'), std::string::npos) << "raw bytes on the terminal";
}

TEST_F(AdversarialConfig, NulByteInAValue) {
  refuse({"run", write("nul.yaml", std::string(kBase) + std::string("synthesis: {algorithm: \"dir\\0ect\"}\n"))},
         {"nul.yaml"});
}

TEST_F(AdversarialConfig, EmptyFile) { refuse({"run", write("empty.yaml", "")}, {"empty.yaml"}); }

TEST_F(AdversarialConfig, ListInsteadOfMap) { refuse({"run", write("list.yaml", "- 1\n- 2\n")}, {"list.yaml", "map"}); }

TEST_F(AdversarialConfig, UnknownTopLevelKey) {
  refuse({"run", write("k.yaml", std::string(kBase) + "synthesis: {algorithm: direct}\nfabrik: {}\n")},
         {"k.yaml:4", "fabrik"});
}

TEST_F(AdversarialConfig, DuplicateKey) {
  refuse({"run",
          write("dup.yaml", std::string(kBase) + "synthesis: {algorithm: direct}\nsynthesis: {algorithm: direct}\n")},
         {"dup.yaml"});
}

TEST_F(AdversarialConfig, MissingUnit) {
  refuse({"run", quickstart(), "--set", "fabric.latency=500"}, {"fabric.latency", "unit"});
}

TEST_F(AdversarialConfig, BadRouterName) {
  refuse({"run", quickstart(), "--set", "fabric.router=wormhole"}, {"fabric.router", "cut_through"});
}

TEST_F(AdversarialConfig, BadEgressOrder) {
  refuse({"run", quickstart(), "--set", "fabric.egress_order=random"}, {"fabric.egress_order", "chunk", "fifo"});
}

TEST_F(AdversarialConfig, SweepWithASecondDocument) {
  refuse({"sweep", write("s.yaml", "base: " + quickstart() + "\ngrid: {fabric.reconfig_delay: [1us]}\n---\nzip: {}\n"),
          "--out", (dir_ / "out").string()},
         {"s.yaml:3", "second YAML document"});
}

TEST_F(AdversarialConfig, SweepThatIsADirectory) {
  fs::create_directories(dir_ / "s.yaml");
  refuse({"sweep", (dir_ / "s.yaml").string()}, {"s.yaml", "directory"});
}

TEST_F(AdversarialConfig, SweepOfAQuadrillionPoints) {
  // Before the fix: bad_alloc (exit 3) while listing the points.
  refuse({"sweep",
          write("s.yaml", "base: " + quickstart() +
                              "\ngrid:\n  fabric.reconfig_delay: 1ps..1000s x5000\n"
                              "  fabric.latency: 1ps..1000s x5000\n  workload.message: 1B..1TB x5000\n"),
          "--out", (dir_ / "out").string()},
         {"s.yaml", "points", "1000000"});
}

TEST_F(AdversarialConfig, SweepRangeWithoutPointsPerDecade) {
  refuse({"sweep", write("s.yaml", "base: " + quickstart() + "\ngrid: {fabric.reconfig_delay: 1us..1ms}\n")},
         {"s.yaml:2", "A..B xN"});
}

TEST_F(AdversarialConfig, SweepWhileAnotherHoldsTheFolder) {
  fs::create_directories(dir_ / "out");
  const int fd = ::open((dir_ / "out" / ".results.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  refuse({"sweep", write("s.yaml", "base: " + quickstart() + "\ngrid: {fabric.reconfig_delay: [1us, 2us]}\n"), "--out",
          (dir_ / "out").string()},
         {"another photonsim sweep", "out"});
  ::close(fd);
}

TEST_F(AdversarialConfig, TwoSweepsStartedOnOneFolder) {
  // Before the fix: both ran and interleaved duplicate rows.
  const std::string base = write("slow.yaml", slurp(quickstart()) + "\n");
  // 4 KiB chunks interleave at every egress port: trains of a few packets,
  // so each point takes a while even with trains.
  const std::string sweep = write("s.yaml", "base: " + base +
                                                "\ngrid:\n  fabric.packet: [4KiB]\n  workload.chunk: [4KiB]\n"
                                                "  workload.message: [16MB, 17MB, 18MB, 19MB, 20MB, 21MB, 22MB, 23MB]\n");
  const std::string out = (dir_ / "out").string();
  const pid_t first = ::fork();
  if (first == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execl(PHOTONSIM_BINARY, PHOTONSIM_BINARY, "sweep", sweep.c_str(), "--out", out.c_str(), "--jobs", "1",
            static_cast<char*>(nullptr));
    ::_exit(126);
  }
  // Wait until the first holds the folder (its lock file exists), then start the second.
  for (int i = 0; i < 500 && !fs::exists(dir_ / "out" / ".results.lock"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  refuse({"sweep", sweep, "--out", out, "--jobs", "1"}, {"another photonsim sweep is writing there"});
  int status = 0;
  ::waitpid(first, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const std::string csv = slurp(dir_ / "out" / "results.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9) << csv;  // header + 8 points, none twice
}

TEST_F(AdversarialConfig, ResumeAfterTheBaseConfigChanged) {
  const std::string base = write("base.yaml", slurp(quickstart()));
  const std::string sweep = write("s.yaml", "base: " + base + "\ngrid: {fabric.reconfig_delay: [1us, 2us]}\n");
  const std::string out = (dir_ / "out").string();
  ASSERT_EQ(run({"sweep", sweep, "--out", out, "--jobs", "1"}).code, 0);
  write("base.yaml", slurp(quickstart()) + "\n# edited\n");
  std::string text = slurp(dir_ / "out" / "results.csv");
  text = text.substr(0, text.rfind('\n', text.size() - 2) + 1);  // forget the last point
  write("out/results.csv", text);
  refuse({"sweep", sweep, "--out", out, "--resume"}, {"results.csv", "another version of the base config"});
}

}  // namespace
}  // namespace photonsim_test

namespace photonsim_test {
namespace {

TEST_F(AdversarialConfig, UnknownReconfigurationModelIsRefusedNamingTheValidOnes) {
  const std::string config = write("m.yaml",
                                   "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns,\n"
                                   "         reconfig_model: teleport}\n"
                                   "workload: {collective: alltoall, message: 1000B}\n"
                                   "synthesis: {algorithm: direct, planner: every_step}\n");
  for (const char* fidelity : {"packet", "analytical"}) {
    refuse({"run", config, "--fidelity", fidelity}, {"m.yaml:2", "fabric.reconfig_model", "'teleport'", "valid: constant"});
  }
}

}  // namespace
}  // namespace photonsim_test
