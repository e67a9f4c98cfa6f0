// The adversarial battery, paths: an output never replaces an input (files
// compared by device and inode, not by name), and an input that is not a
// regular file, is larger than its kind's cap, or has a path the OS rejects
// is refused at once (exit 1, naming the file) instead of hanging, reading
// gigabytes or failing as an internal error.
#include <sys/stat.h>
#include <unistd.h>

#include "tests/cli/hostile_run.h"

namespace photonsim_test {
namespace {

class AdversarialPaths : public Hostile {
 protected:
  // A small, fast config (the quickstart at 4 GPUs) written into the scratch folder.
  std::string config(const std::string& name = "c.yaml", const std::string& extra = "") {
    return write(name,
                 "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                 "workload: {collective: alltoall, message: 4MB" +
                     extra +
                     "}\n"
                     "synthesis: {algorithm: direct, planner: static, topology: ring}\n");
  }
  // Refused naming both files, and the input is byte for byte what it was.
  void refuse_keeping(const std::vector<std::string>& args, const std::string& input,
                      const std::vector<std::string>& fragments) {
    const std::string before = slurp(input);
    refuse(args, fragments);
    EXPECT_EQ(slurp(input), before) << input << " changed";
  }
};

// Finding 1: an output that is an input.

TEST_F(AdversarialPaths, SynthOutIsTheConfig) {
  const std::string c = config();
  refuse_keeping({"synth", c, "--out", c}, c, {"--out", "the same file as the input config", "c.yaml"});
}

TEST_F(AdversarialPaths, SynthOutIsAHardLinkToTheConfig) {
  const std::string c = config();
  const std::string link = (dir_ / "other_name.pb").string();
  ASSERT_EQ(::link(c.c_str(), link.c_str()), 0);
  refuse_keeping({"synth", c, "--out", link}, c, {"other_name.pb", "config", "c.yaml"});
}

TEST_F(AdversarialPaths, SynthOutIsTheConfigSpelledAnotherWay) {
  const std::string c = config();
  refuse_keeping({"synth", c, "--out", (dir_ / "." / "c.yaml").string()}, c, {"the same file as the input config"});
}

TEST_F(AdversarialPaths, RunTraceIsTheConfig) {
  const std::string c = config();
  refuse_keeping({"run", c, "--trace", c}, c, {"--trace", "the input config"});
}

TEST_F(AdversarialPaths, ReplayTraceIsTheSchedule) {
  const std::string c = config();
  const std::string s = (dir_ / "s.pb").string();
  ASSERT_EQ(run({"synth", c, "--out", s}).code, 0);
  refuse_keeping({"replay", s, c, "--trace", s}, s, {"--trace", "the input schedule", "s.pb"});
}

TEST_F(AdversarialPaths, RunOutDirHoldsTheConfigAsResultJson) {
  fs::create_directories(dir_ / "out");
  const std::string c = config("out/result.json");
  refuse_keeping({"run", c, "--out", (dir_ / "out").string()}, c, {"result.json", "the input config"});
  EXPECT_FALSE(fs::exists(dir_ / "out" / "result.csv"));  // nothing was written
}

TEST_F(AdversarialPaths, OutputDirInTheConfigHoldsTheConfig) {
  fs::create_directories(dir_ / "o");
  const std::string c = write("o/result.csv",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {collective: alltoall, message: 4MB}\n"
                              "synthesis: {algorithm: direct, planner: static, topology: ring}\n"
                              "output: {dir: " +
                                  (dir_ / "o").string() + "}\n");
  refuse_keeping({"run", c}, c, {"output.dir", "result.csv", "the input config"});
}

TEST_F(AdversarialPaths, RunOutDirIsASymlinkToTheConfigsFolder) {
  fs::create_directories(dir_ / "real");
  const std::string c = config("real/schedule.pb");
  fs::create_directory_symlink(dir_ / "real", dir_ / "alias");
  refuse_keeping({"run", c, "--out", (dir_ / "alias").string()}, c, {"schedule.pb", "the input config"});
}

TEST_F(AdversarialPaths, RunTraceIsTheGraphFile) {
  const std::string graph = write("g.yaml", "- {name: c, type: compute, gpus: [\"0-3\"], duration: 1us}\n");
  const std::string c = write("c.yaml",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {graph: g.yaml}\n"
                              "synthesis: {algorithm: direct}\n");
  refuse_keeping({"run", c, "--trace", graph}, graph, {"--trace", "graph file", "g.yaml"});
}

TEST_F(AdversarialPaths, RunOutDirHoldsTheGraphFileAsNodesCsv) {
  fs::create_directories(dir_ / "out");
  const std::string graph = write("out/nodes.csv", "- {name: c, type: compute, gpus: [\"0-3\"], duration: 1us}\n");
  const std::string c = write("c.yaml",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {graph: out/nodes.csv}\n"
                              "synthesis: {algorithm: direct}\n");
  refuse_keeping({"run", c, "--out", (dir_ / "out").string()}, graph, {"nodes.csv", "graph file"});
  EXPECT_FALSE(fs::exists(dir_ / "out" / "graph.json"));
}

TEST_F(AdversarialPaths, SynthOutIsTheMscclFile) {
  const std::string xml = write("ring.xml", slurp(source("configs/msccl/ring_allreduce_4.xml")));
  const std::string c = write("c.yaml",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {collective: allreduce, message: 4000B}\n"
                              "synthesis: {algorithm: {type: msccl, file: ring.xml}, planner: static, "
                              "topology: ring}\n");
  refuse_keeping({"synth", c, "--out", xml}, xml, {"--out", "algorithm file", "ring.xml"});
}

TEST_F(AdversarialPaths, RunTraceIsAChakraTrace) {
  for (const char* rank : {"0", "1", "2", "3"}) {
    fs::copy_file(source("configs/chakra/p2p_4/trace.") + rank + ".et", dir_ / (std::string("t.") + rank + ".et"));
  }
  ASSERT_EQ(run({"run", write("ok.yaml",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {graph: {chakra: t}}\n"
                              "synthesis: {algorithm: ring, topology: ring}\n")})
                .code,
            0);  // the traces load: the refusal below is the identity check's
  const std::string c = write("c.yaml",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {graph: {chakra: t}}\n"
                              "synthesis: {algorithm: ring, topology: ring}\n");
  const std::string trace = (dir_ / "t.1.et").string();
  refuse_keeping({"run", c, "--trace", trace}, trace, {"--trace", "Chakra trace", "t.1.et"});
}

TEST_F(AdversarialPaths, TraceAndOutDirShareAFile) {
  const std::string c = config();
  refuse({"run", c, "--out", (dir_ / "o").string(), "--trace", (dir_ / "o" / "result.json").string()},
         {"result.json", "two outputs cannot share a file"});
  EXPECT_FALSE(fs::exists(dir_ / "o" / "result.csv"));
}

TEST_F(AdversarialPaths, SweepOutHoldsTheSweepFileAsResultsCsv) {
  config("base.yaml");
  fs::create_directories(dir_ / "sw");
  const std::string sweep = write("sw/results.csv", "base: ../base.yaml\ngrid:\n  fabric.reconfig_delay: [1us, 2us]\n");
  refuse_keeping({"sweep", sweep, "--out", (dir_ / "sw").string(), "--jobs", "1"}, sweep,
                 {"results.csv", "the input sweep file"});
  EXPECT_FALSE(fs::exists(dir_ / "sw" / ".results.lock"));
}

TEST_F(AdversarialPaths, DistinctOutputsStillWork) {
  const std::string c = config();
  const HostileOutcome o =
      run({"run", c, "--out", (dir_ / "o").string(), "--trace", (dir_ / "o" / "trace.json").string()});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(fs::is_regular_file(dir_ / "o" / "result.json"));
  EXPECT_TRUE(fs::is_regular_file(dir_ / "o" / "trace.json"));
}

// Finding 6: inputs that are not regular files, too large, or unreachable paths.

TEST_F(AdversarialPaths, ConfigIsAFifo) {
  const std::string fifo = (dir_ / "f.yaml").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  refuse({"run", fifo}, {"f.yaml", "a FIFO", "regular files only"}, HostileLimits{5, 2L * 1024 * 1024});
}

TEST_F(AdversarialPaths, ConfigIsADevice) {
  refuse({"run", "/dev/urandom"}, {"/dev/urandom", "a device"}, HostileLimits{5, 256L * 1024});
}

TEST_F(AdversarialPaths, ConfigIsADirectory) { refuse({"run", dir_.string()}, {"a directory"}); }

TEST_F(AdversarialPaths, ConfigOverTheCap) {
  const std::string big = (dir_ / "big.yaml").string();
  { std::ofstream out(big); }
  ASSERT_EQ(::truncate(big.c_str(), (off_t{257} << 20)), 0);  // sparse: no disk used
  refuse({"run", big}, {"big.yaml", "257.0 MiB", "256.0 MiB cap"}, HostileLimits{5, 256L * 1024});
}

TEST_F(AdversarialPaths, AVeryLongPathIsAUserError) {
  const std::string path = std::string(100000, 'a') + ".yaml";
  const HostileOutcome o = run({"run", path});
  expect_refused(o, "run <100,000 characters>", {"cannot read config", "File name too long"});
  EXPECT_EQ(o.code, 1);
  const HostileOutcome v = run({"verify", path});
  EXPECT_EQ(v.code, 1) << v.err;
  const HostileOutcome s = run({"sweep", path});
  EXPECT_EQ(s.code, 1) << s.err;
}

TEST_F(AdversarialPaths, AVeryLongOutputPathIsAUserError) {
  const std::string c = config();
  const HostileOutcome o = run({"synth", c, "--out", (dir_ / std::string(5000, 'b')).string() + ".pb"});
  EXPECT_EQ(o.code, 1) << o.err;
  config("base.yaml");
  const std::string sweep = write("sw.yaml", "base: base.yaml\ngrid:\n  fabric.reconfig_delay: [1us, 2us]\n");
  const HostileOutcome t = run({"sweep", sweep, "--out", std::string(100000, 'c')});
  EXPECT_EQ(t.code, 1) << t.err;
}

TEST_F(AdversarialPaths, ScheduleIsAFifo) {
  const std::string c = config();
  const std::string fifo = (dir_ / "s.pb").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  refuse({"replay", fifo, c}, {"schedule", "s.pb", "a FIFO"}, HostileLimits{5, 2L * 1024 * 1024});
  refuse({"verify", fifo}, {"s.pb", "a FIFO"}, HostileLimits{5, 2L * 1024 * 1024});
}

TEST_F(AdversarialPaths, SweepFileIsADevice) { refuse({"sweep", "/dev/zero"}, {"sweep file", "a device"}); }

TEST_F(AdversarialPaths, GraphFileIsAFifo) {
  ASSERT_EQ(::mkfifo((dir_ / "g.yaml").c_str(), 0644), 0);
  const std::string c = write("c.yaml",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {graph: g.yaml}\n"
                              "synthesis: {algorithm: direct}\n");
  refuse({"run", c}, {"workload.graph", "g.yaml", "a FIFO"}, HostileLimits{5, 2L * 1024 * 1024});
}

TEST_F(AdversarialPaths, MscclFileIsADevice) {
  const std::string c = write("c.yaml",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {collective: allreduce, message: 4000B}\n"
                              "synthesis: {algorithm: {type: msccl, file: /dev/zero}, planner: static}\n");
  refuse({"run", c}, {"/dev/zero", "a device"}, HostileLimits{5, 256L * 1024});
}

TEST_F(AdversarialPaths, ChakraRankIsAFifo) {
  for (const char* rank : {"0", "2", "3"}) {
    fs::copy_file(source("configs/chakra/p2p_4/trace.") + rank + ".et", dir_ / (std::string("t.") + rank + ".et"));
  }
  ASSERT_EQ(::mkfifo((dir_ / "t.1.et").c_str(), 0644), 0);
  const std::string c = write("c.yaml",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {graph: {chakra: t}}\n"
                              "synthesis: {algorithm: ring, topology: ring}\n");
  refuse({"run", c}, {"t.1.et", "a FIFO"}, HostileLimits{5, 2L * 1024 * 1024});
}

TEST_F(AdversarialPaths, EdgeFileIsADirectory) {
  const std::string c = write("c.yaml",
                              "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
                              "workload: {collective: alltoall, message: 4MB}\n"
                              "synthesis: {algorithm: direct, planner: static, topology: {type: from_edges, file: " +
                                  dir_.string() + "}}\n");
  refuse({"run", c}, {"edge file", "a directory"});
}

}  // namespace
}  // namespace photonsim_test
