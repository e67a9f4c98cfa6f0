// workload.graph (task graphs), fabric.preconfigure and fabric.priority in the
// config loader: the nodes it builds and the file:line of every node error.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "tests/support/shipped_configs.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

// Line numbers matter: the tests below refer to them.
constexpr const char* kGraphConfig =
    "fabric:\n"                                                                                                 // 1
    "  gpus: 16\n"                                                                                              // 2
    "  bandwidth: 450GB/s\n"                                                                                    // 3
    "  latency: 3us\n"                                                                                          // 4
    "  preconfigure: true\n"                                                                                    // 5
    "  priority: fifo\n"                                                                                        // 6
    "workload:\n"                                                                                               // 7
    "  chunk: 1MB\n"                                                                                            // 8
    "  graph:\n"                                                                                                // 9
    "    - name: fwd\n"                                                                                         // 10
    "      type: compute\n"                                                                                     // 11
    "      gpus: [\"0-3\", 8]\n"                                                                                // 12
    "      duration: 100us\n"                                                                                   // 13
    "    - {name: ar, type: collective, collective: allreduce, gpus: [\"0-7/2\"], message: 2MB, after: fwd}\n"  // 14
    "    - {name: bc, type: collective, collective: broadcast, gpus: [9, 10, 11], message: 4KB, root: 10}\n"    // 15
    "    - {name: send, type: p2p, src: 3, dst: 12, bytes: 1MB, after: [fwd, ar]}\n"                            // 16
    "    - {name: bwd, type: compute, gpus: \"12-15\", duration: 1.5us, after: [send]}\n"                       // 17
    "    - {name: gather, type: collective, collective: allgather, gpus: [12, 13], message: 1KB, algorithm: "
    "bruck_concat, planner: every_step}\n"  // 18
    "synthesis:\n"                          // 19
    "  algorithm: rhd\n";                   // 20

// A config whose graph is `nodes` (one "    - {...}" line each): node k is on line 8 + k.
std::string with_graph(const std::string& nodes, const std::string& workload_extra = "") {
  return "fabric:\n"               // 1
         "  gpus: 16\n"            // 2
         "  bandwidth: 450GB/s\n"  // 3
         "  latency: 3us\n"        // 4
         "workload:\n"             // 5
         "  chunk: 1MB\n"          // 6
         "  graph:\n" +            // 7
         nodes +
         workload_extra +  // 8...
         "synthesis:\n"
         "  algorithm: rhd\n";
}

// A config whose workload.graph (line 7) names the file `graph`.
std::string graph_file_config(const std::string& graph) {
  return "fabric:\n  gpus: 16\n  bandwidth: 450GB/s\n  latency: 3us\nworkload:\n  chunk: 1MB\n  graph: " + graph +
         "\nsynthesis:\n  algorithm: rhd\n";
}

bool graph_config_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string graph_config_error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    load_config_from_string(yaml, "exp.yaml", overrides);
  } catch (const Error& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected an Error from:\n" << yaml;
  return "";
}

void graph_config_expect_error(const std::string& yaml, std::initializer_list<std::string> parts,
                               const std::vector<std::string>& overrides = {}) {
  const std::string message = graph_config_error_of(yaml, overrides);
  EXPECT_EQ(message.find('\n'), std::string::npos) << "multi-line message: " << message;
  for (const std::string& part : parts)
    EXPECT_TRUE(graph_config_contains(message, part)) << "'" << part << "' not in: " << message;
}

void graph_config_write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

const TaskNode& node_named(const TaskGraph& graph, const std::string& name) {
  for (const TaskNode& node : graph.nodes()) {
    if (node.name == name) return node;
  }
  throw Error("no node " + name);
}

TEST(GraphConfig, InlineGraphBecomesTaskNodes) {
  const ExperimentConfig config = load_config_from_string(kGraphConfig, "exp.yaml");
  EXPECT_TRUE(config.fabric.preconfigure);
  EXPECT_EQ(config.fabric.priority, CommunicationPriority::fifo);
  EXPECT_EQ(config.workload.chunk.count(), 1000000);
  ASSERT_TRUE(config.graph.has_value());
  const TaskGraph& graph = *config.graph;
  ASSERT_EQ(graph.nodes().size(), 6u);
  EXPECT_EQ(graph.nodes()[0].name, "fwd");  // the given order

  const TaskNode& fwd = node_named(graph, "fwd");
  EXPECT_EQ(fwd.kind, TaskKind::compute);
  EXPECT_EQ(fwd.gpus, (std::vector<int>{0, 1, 2, 3, 8}));
  EXPECT_EQ(fwd.duration.picoseconds(), 100'000'000);
  EXPECT_TRUE(fwd.after.empty());

  const TaskNode& ar = node_named(graph, "ar");
  EXPECT_EQ(ar.kind, TaskKind::collective);
  EXPECT_EQ(ar.collective, Collective::allreduce);
  EXPECT_EQ(ar.gpus, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(ar.message.count(), 2'000'000);
  EXPECT_EQ(ar.after, (std::vector<std::string>{"fwd"}));  // one name alone

  const TaskNode& bc = node_named(graph, "bc");
  EXPECT_EQ(bc.collective, Collective::broadcast);
  EXPECT_EQ(bc.root, 10);
  EXPECT_EQ(node_named(graph, "gather").root, 12);                   // default: the group's first GPU
  EXPECT_EQ(node_named(graph, "gather").algorithm, "bruck_concat");  // its own synthesis
  EXPECT_EQ(node_named(graph, "gather").planner, "every_step");
  EXPECT_EQ(bc.algorithm, "");  // the config's

  const TaskNode& send = node_named(graph, "send");
  EXPECT_EQ(send.kind, TaskKind::p2p);
  EXPECT_EQ(send.src, 3);
  EXPECT_EQ(send.dst, 12);
  EXPECT_EQ(send.bytes.count(), 1'000'000);
  EXPECT_EQ(send.after, (std::vector<std::string>{"fwd", "ar"}));

  const TaskNode& bwd = node_named(graph, "bwd");
  EXPECT_EQ(bwd.gpus, (std::vector<int>{12, 13, 14, 15}));  // a range alone
  EXPECT_EQ(bwd.duration.picoseconds(), 1'500'000);

  EXPECT_EQ(config.node_locations.at("fwd"), "exp.yaml:10");
  EXPECT_EQ(config.node_locations.at("ar"), "exp.yaml:14");
  EXPECT_EQ(config.node_locations.at("gather"), "exp.yaml:18");
  EXPECT_EQ(config.key_locations.at("workload.graph"), "exp.yaml:9");
  EXPECT_EQ(config.key_locations.count("workload.collective"), 0u);
}

// type: delay is host-side time: a duration, optionally whose host (gpus);
// it may overlap compute on that GPU, and takes no keys of the other types.
TEST(GraphConfig, DelayNodesTakeADurationAndOptionalGpus) {
  const ExperimentConfig c =
      load_config_from_string(with_graph("    - {name: host, type: delay, duration: 85us, gpus: [3]}\n"
                                         "    - {name: k, type: compute, gpus: [3], duration: 5us}\n"
                                         "    - {name: wait, type: delay, duration: 1ns, after: [host, k]}\n"),
                              "exp.yaml");
  const TaskNode& host = node_named(*c.graph, "host");
  EXPECT_EQ(host.kind, TaskKind::delay);
  EXPECT_EQ(host.duration, Time::us(85));
  EXPECT_EQ(host.gpus, (std::vector<int>{3}));
  EXPECT_TRUE(node_named(*c.graph, "wait").gpus.empty());
  graph_config_expect_error(with_graph("    - {name: host, type: delay, duration: 0us}\n"),
                            {"exp.yaml:8", "node 'host'", "a delay node needs a positive duration"});
  graph_config_expect_error(with_graph("    - {name: host, type: delay, duration: 1us, bytes: 1MB}\n"),
                            {"exp.yaml:8", "key 'bytes' does not apply to a delay node", "valid keys of a delay node"});
  graph_config_expect_error(with_graph("    - {name: host, type: delay}\n"),
                            {"exp.yaml:8", "missing required key 'duration'"});
}

TEST(GraphConfig, DefaultsAndOverridesOfTheFabricKeys) {
  const std::string plain = with_graph("    - {name: a, type: compute, gpus: [0], duration: 1us}\n");
  const ExperimentConfig defaults = load_config_from_string(plain, "exp.yaml");
  EXPECT_FALSE(defaults.fabric.preconfigure);
  EXPECT_EQ(defaults.fabric.priority, CommunicationPriority::p2p);
  const ExperimentConfig set =
      load_config_from_string(plain, "exp.yaml", {"fabric.preconfigure=true", "fabric.priority=fifo"});
  EXPECT_TRUE(set.fabric.preconfigure);
  EXPECT_EQ(set.fabric.priority, CommunicationPriority::fifo);
  EXPECT_EQ(set.key_locations.at("fabric.priority"), "--set fabric.priority=fifo");
  // A config without a graph reads them as well.
  const ExperimentConfig single = load_config_from_string(
      "fabric: {gpus: 4, bandwidth: 1GB/s, latency: 0ns, priority: p2p}\n"
      "workload: {collective: allreduce, message: 1MB}\nsynthesis: {algorithm: rhd}\n",
      "exp.yaml");
  EXPECT_FALSE(single.graph.has_value());
  EXPECT_TRUE(single.node_locations.empty());

  graph_config_expect_error(plain,
                            {"--set fabric.priority=first", "fabric.priority must be one of: p2p, fifo", "'first'"},
                            {"fabric.priority=first"});
  graph_config_expect_error(
      plain, {"--set fabric.preconfigure=yes", "fabric.preconfigure must be one of: false, true", "'yes'"},
      {"fabric.preconfigure=yes"});
}

TEST(GraphConfig, InlineGraphFromSetIsLocatedAtTheSet) {
  const std::string plain = with_graph("    - {name: a, type: compute, gpus: [0], duration: 1us}\n");
  const std::string set = "workload.graph=[{name: b, type: compute, gpus: [\"0-1\"], duration: 2us}]";
  const ExperimentConfig config = load_config_from_string(plain, "exp.yaml", {set});
  ASSERT_EQ(config.graph->nodes().size(), 1u);
  EXPECT_EQ(config.graph->nodes()[0].name, "b");
  EXPECT_EQ(config.node_locations.at("b"), "--set " + set);
  graph_config_expect_error(plain, {"--set workload.graph=[{name: b", "node 'b'", "missing required key 'duration'"},
                            {"workload.graph=[{name: b, type: compute, gpus: [0]}]"});
}

class GraphFile : public testing::Test {
 protected:
  void SetUp() override {
    // One folder per test: ctest runs tests side by side.
    dir_ = fs::path(testing::TempDir()) /
           ("graph_config_test_" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    config_ = dir_ / "exp.yaml";
    graph_config_write(config_, graph_file_config("sub/g.yaml"));
    graph_config_write(dir_ / "sub" / "g.yaml",
                       "# a graph file: a list of nodes\n"                             // 1
                       "- {name: x, type: compute, gpus: [\"0-1\"], duration: 5us}\n"  // 2
                       "- name: y\n"                                                   // 3
                       "  type: collective\n"                                          // 4
                       "  collective: allreduce\n"                                     // 5
                       "  gpus: [0, 1]\n"                                              // 6
                       "  message: 1MB\n"                                              // 7
                       "  after: x\n");                                                // 8
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_, config_;
};

TEST_F(GraphFile, PathIsRelativeToTheConfigFolder) {
  const ExperimentConfig config = load_config(config_.string());
  ASSERT_TRUE(config.graph.has_value());
  ASSERT_EQ(config.graph->nodes().size(), 2u);
  EXPECT_EQ(config.graph->nodes()[1].gpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(config.graph->nodes()[1].after, (std::vector<std::string>{"x"}));
  const std::string file = (dir_ / "sub" / "g.yaml").string();
  EXPECT_EQ(config.node_locations.at("x"), file + ":2");
  EXPECT_EQ(config.node_locations.at("y"), file + ":3");
  EXPECT_EQ(config.key_locations.at("workload.graph"), config_.string() + ":7");
}

TEST_F(GraphFile, SetNamesAnotherFileAlsoRelativeToTheConfigFolder) {
  graph_config_write(dir_ / "other.yaml", "- {name: z, type: p2p, src: 0, dst: 1, bytes: 1KB}\n");
  const ExperimentConfig config = load_config(config_.string(), {"workload.graph=other.yaml"});
  ASSERT_EQ(config.graph->nodes().size(), 1u);
  EXPECT_EQ(config.node_locations.at("z"), (dir_ / "other.yaml").string() + ":1");
}

TEST_F(GraphFile, ErrorsPointAtTheGraphFileLine) {
  graph_config_write(dir_ / "sub" / "g.yaml",
                     "- {name: x, type: compute, gpus: [0], duration: 5us}\n"  // 1
                     "- name: y\n"                                             // 2
                     "  type: compute\n"                                       // 3
                     "  gpus: [0]\n"                                           // 4
                     "  duration: soon\n");                                    // 5
  const std::string file = (dir_ / "sub" / "g.yaml").string();
  try {
    load_config(config_.string());
    ADD_FAILURE() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_TRUE(graph_config_contains(error.what(), file + ":5: workload.graph: node 'y': duration")) << error.what();
  }
  graph_config_write(dir_ / "sub" / "g.yaml",
                     "- {name: x, type: compute, gpus: [0], duration: 5us}\n"
                     "- {name: y, type: compute, gpus: [0], duration: 5us}\n");
  try {
    load_config(config_.string());
    ADD_FAILURE() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), file +
                                             ":2: workload.graph: node 'y': may run at the same time as 'x' and both "
                                             "compute on GPU 0; order them with `after`");
  }
  graph_config_write(dir_ / "sub" / "g.yaml", "name: x\ntype: compute\n");
  try {
    load_config(config_.string());
    ADD_FAILURE() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              file + ":1: workload.graph: a graph file must hold a YAML list of nodes (got a map)");
  }
}

// A file of more nodes than a batch (512): one-line items read without
// yaml-cpp's parser, a batch holding a block-style item parsed by it, and
// the same file parsed whole (an '&' in a comment rules batches out) give
// the same nodes at the same lines; errors name the line in whichever batch.
TEST_F(GraphFile, LargeFilesAreReadABatchAtATime) {
  const auto graph = [](const std::string& comment, const std::string& bad_duration, bool bad_syntax) {
    std::string text = "# " + comment + "\n";  // line 1
    for (int i = 0; i < 1300; ++i) {
      const std::string name = "n" + std::to_string(i);
      const std::string after = i > 0 ? "n" + std::to_string(i - 1) : std::string("[]");
      const std::string duration = i == 1250 ? bad_duration : std::string("1us");
      if (i == 700) {  // two lines
        text += "- {name: " + name + ", type: compute, gpus: [0],\n   duration: 1us, after: " + after + "}\n";
      } else if (i == 800 && bad_syntax) {
        text += "- {name: " + name + ", type: compute, gpus: [0, duration: 1us}\n";
      } else {
        text +=
            "- {name: " + name + ", type: compute, gpus: [\"0\"], duration: " + duration + ", after: " + after + "}\n";
      }
    }
    return text;
  };
  const std::string file = (dir_ / "sub" / "g.yaml").string();
  graph_config_write(dir_ / "sub" / "g.yaml", graph("batches", "1us", false));
  const ExperimentConfig batched = load_config(config_.string());
  graph_config_write(dir_ / "sub" / "g.yaml", graph("& whole", "1us", false));
  const ExperimentConfig whole = load_config(config_.string());
  ASSERT_EQ(batched.graph->nodes().size(), 1300u);
  EXPECT_EQ(batched.node_locations, whole.node_locations);
  EXPECT_EQ(batched.node_locations.at("n0"), file + ":2");
  EXPECT_EQ(batched.node_locations.at("n700"), file + ":702");
  EXPECT_EQ(batched.node_locations.at("n701"), file + ":704");
  EXPECT_EQ(batched.node_locations.at("n1299"), file + ":1302");
  for (size_t i = 0; i < 1300; ++i) {
    EXPECT_EQ(batched.graph->nodes()[i].after, whole.graph->nodes()[i].after) << i;
    EXPECT_EQ(batched.graph->nodes()[i].gpus, whole.graph->nodes()[i].gpus) << i;
  }
  for (const char* comment : {"batches", "& whole"}) {
    graph_config_write(dir_ / "sub" / "g.yaml", graph(comment, "soon", false));
    try {
      load_config(config_.string());
      ADD_FAILURE() << "expected an Error";
    } catch (const Error& error) {
      EXPECT_TRUE(graph_config_contains(error.what(), file + ":1253: workload.graph: node 'n1250': duration"))
          << error.what();
    }
    // A syntax error in a batch: the whole file says where.
    graph_config_write(dir_ / "sub" / "g.yaml", graph(comment, "1us", true));
    try {
      load_config(config_.string());
      ADD_FAILURE() << "expected an Error";
    } catch (const Error& error) {
      EXPECT_TRUE(graph_config_contains(error.what(), file + ":803:")) << error.what();
      EXPECT_TRUE(graph_config_contains(error.what(), "YAML syntax error")) << error.what();
    }
  }
}

TEST_F(GraphFile, MissingFileNamesTheResolvedPath) {
  const std::string missing = (dir_ / "nowhere.yaml").string();
  try {
    load_config(config_.string(), {"workload.graph=nowhere.yaml"});
    ADD_FAILURE() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_TRUE(graph_config_contains(
        error.what(), "--set workload.graph=nowhere.yaml: workload.graph: cannot read graph file '" + missing +
                          "': No such file or directory"))
        << error.what();
  }
  graph_config_expect_error(graph_file_config("/dev/zero"),
                            {"exp.yaml:7: workload.graph: cannot read graph file '/dev/zero': it is a device"});
  graph_config_expect_error(graph_file_config("."),
                            {"exp.yaml:7: workload.graph: cannot read graph file '.': it is a directory"});
  graph_config_expect_error(
      graph_file_config("missing/graph.yaml"),
      {"exp.yaml:7: workload.graph: cannot read graph file 'missing/graph.yaml': No such file or directory"});
}

TEST(GraphConfigErrors, UnknownTypeListsTheValidOnes) {
  graph_config_expect_error(
      with_graph("    - {name: a, type: gpu, gpus: [0], duration: 1us}\n"),
      {"exp.yaml:8: workload.graph: node 'a': type must be one of: compute, collective, p2p, delay (got 'gpu')"});
}

TEST(GraphConfigErrors, MissingDuration) {
  EXPECT_EQ(graph_config_error_of(with_graph("    - {name: a, type: compute, gpus: [0]}\n")),
            "exp.yaml:8: workload.graph: node 'a': missing required key 'duration'");
  // Zero is caught by TaskGraph and still located.
  graph_config_expect_error(with_graph("    - {name: a, type: compute, gpus: [0], duration: 1us}\n"
                                       "    - {name: b, type: compute, gpus: [1], duration: 0us}\n"),
                            {"exp.yaml:9: workload.graph: node 'b': a compute node needs a positive duration"});
}

TEST(GraphConfigErrors, UnknownGpu) {
  EXPECT_EQ(graph_config_error_of(with_graph("    - {name: a, type: compute, gpus: [0], duration: 1us}\n"
                                             "    - {name: b, type: compute, gpus: [1, 16], duration: 1us}\n")),
            "exp.yaml:9: workload.graph: node 'b': GPU 16 is outside 0..15 (fabric.gpus is 16)");
  graph_config_expect_error(with_graph("    - {name: a, type: compute, gpus: [\"8-99999999\"], duration: 1us}\n"),
                            {"exp.yaml:8: workload.graph: node 'a': gpus: GPU 99999999 is outside 0..15"});
  graph_config_expect_error(with_graph("    - {name: a, type: p2p, src: 2, dst: 20, bytes: 1MB}\n"),
                            {"exp.yaml:8: workload.graph: node 'a': GPU 20 is outside 0..15"});
  graph_config_expect_error(with_graph("    - {name: a, type: compute, gpus: [\"0-x\"], duration: 1us}\n"),
                            {"exp.yaml:8: workload.graph: node 'a': gpus: '0-x' is neither a GPU id nor a range"});
  graph_config_expect_error(with_graph("    - {name: a, type: compute, gpus: [\"5-2\"], duration: 1us}\n"),
                            {"exp.yaml:8: workload.graph: node 'a': gpus: the range '5-2' runs backwards"});
  graph_config_expect_error(with_graph("    - {name: a, type: compute, gpus: [\"0-4/0\"], duration: 1us}\n"),
                            {"node 'a': gpus: '0-4/0' is neither"});
  graph_config_expect_error(with_graph("    - {name: a, type: compute, gpus: [-1], duration: 1us}\n"),
                            {"node 'a': gpus: '-1' is neither"});
}

TEST(GraphConfigErrors, CycleIsNamedInOrder) {
  EXPECT_EQ(graph_config_error_of(with_graph("    - {name: a, type: compute, gpus: [0], duration: 1us, after: c}\n"
                                             "    - {name: b, type: compute, gpus: [0], duration: 1us, after: a}\n"
                                             "    - {name: c, type: compute, gpus: [0], duration: 1us, after: b}\n")),
            "exp.yaml:8: workload.graph: node 'a': its dependencies form a cycle: 'a' -> 'b' -> 'c' -> 'a'");
  graph_config_expect_error(with_graph("    - {name: a, type: compute, gpus: [0], duration: 1us, after: [zz]}\n"),
                            {"exp.yaml:8: workload.graph: node 'a': `after` names 'zz', which is no node"});
}

TEST(GraphConfigErrors, CollectivesThatMayRunAtOnceMustNotShareAGpu) {
  EXPECT_EQ(graph_config_error_of(with_graph(
                "    - {name: x, type: collective, collective: allreduce, gpus: [\"0-3\"], message: 1MB}\n"
                "    - {name: y, type: collective, collective: allgather, gpus: [\"3-6\"], message: 1MB}\n")),
            "exp.yaml:9: workload.graph: node 'y': may run at the same time as 'x' and both are collectives on GPU 3; "
            "order them with `after`");
  // Ordered, they may.
  EXPECT_NO_THROW(load_config_from_string(
      with_graph("    - {name: x, type: collective, collective: allreduce, gpus: [\"0-3\"], message: 1MB}\n"
                 "    - {name: y, type: collective, collective: allgather, gpus: [\"3-6\"], message: 1MB, after: x}\n"),
      "exp.yaml"));
}

TEST(GraphConfigErrors, KeysMustBelongToTheNodeType) {
  EXPECT_EQ(graph_config_error_of(with_graph("    - {name: a, type: compute, gpus: [0], duration: 1us, bytes: 1MB}\n")),
            "exp.yaml:8: workload.graph: node 'a': key 'bytes' does not apply to a compute node (valid keys of a "
            "compute node: name, type, after, gpus, duration)");
  graph_config_expect_error(with_graph("    - {name: a, type: p2p, src: 0, dst: 1, bytes: 1MB, speed: 3}\n"),
                            {"exp.yaml:8: workload.graph: node 'a': unknown key 'speed'",
                             "valid keys of a p2p node: name, type, after, src, dst, bytes"});
  graph_config_expect_error(
      with_graph("    - {name: a, type: collective, collective: allreduce, gpus: [0, 1], message: 1MB, "
                 "root: 1}\n"),
      {"exp.yaml:8: workload.graph: node 'a': root applies only to collective: broadcast"});
  graph_config_expect_error(
      with_graph("    - {name: a, type: collective, collective: gather, gpus: [0, 1], message: 1MB}\n"),
      {"exp.yaml:8: workload.graph: node 'a': collective must be one of: alltoall, allreduce, reducescatter, "
       "allgather, broadcast (got 'gather')"});
  graph_config_expect_error(
      with_graph("    - {name: a, type: collective, collective: allreduce, gpus: {a: 1}, message: 1MB}\n"),
      {"node 'a': gpus must be a list of GPU ids and ranges"});
  graph_config_expect_error(with_graph("    - {name: a, type: p2p, src: 0, dst: 1, bytes: 0B}\n"),
                            {"node 'a': bytes must be positive"});
}

TEST(GraphConfigErrors, NodeShapeAndNames) {
  graph_config_expect_error(with_graph("    - {type: compute, gpus: [0], duration: 1us}\n"),
                            {"exp.yaml:8: workload.graph: node 0 has no name"});
  graph_config_expect_error(with_graph("    - just_a_name\n"), {"exp.yaml:8: workload.graph: node 0 must be a map"});
  graph_config_expect_error(with_graph("    - {name: a, type: compute, gpus: [0], duration: 1us}\n"
                                       "    - {name: a, type: compute, gpus: [1], duration: 1us}\n"),
                            {"exp.yaml:9: workload.graph: node 'a': the name is used by another node (exp.yaml:8)"});
  graph_config_expect_error(with_graph("    - {name: a, type: compute, gpus: [0], duration: 1us, gpus: [1]}\n"),
                            {"exp.yaml:8: workload.graph: node 'a': duplicate key 'gpus'"});
  graph_config_expect_error(with_graph("    []\n"), {"exp.yaml:7: workload.graph has no nodes"});
  graph_config_expect_error(
      with_graph("    {a: 1}\n"),
      {"exp.yaml:7: workload.graph must be a list of nodes, the name of a YAML file holding one, or {chakra: PREFIX}"});
}

TEST(GraphConfigErrors, GraphExcludesTheSingleCollectiveKeys) {
  const std::string node = "    - {name: a, type: compute, gpus: [0], duration: 1us}\n";
  EXPECT_EQ(graph_config_error_of(with_graph(node, "  message: 1MB\n")),
            "exp.yaml:9: workload.message is not used with workload.graph (each node names its own collective, "
            "message and root)");
  graph_config_expect_error(with_graph(node, "  collective: allreduce\n"),
                            {"exp.yaml:9: workload.collective is not used"});
  graph_config_expect_error(with_graph(node), {"--set workload.root=0: workload.root is not used"},
                            {"workload.root=0"});
  graph_config_expect_error(with_graph(node), {"workload.distribution is not used"}, {"workload.distribution=zipf"});
}

// The configs under configs/training/ load, and their graphs have the node
// counts the generator wrote in the graph file's header.
TEST(GraphConfig, ShippedTrainingConfigsLoad) {
  const std::vector<fs::path> configs = testing_support::shipped_task_graph_configs();
  EXPECT_GE(configs.size(), 1u);
  for (const fs::path& path : configs) {
    SCOPED_TRACE(path.string());
    const ExperimentConfig config = load_config(path.string());
    ASSERT_TRUE(config.graph.has_value());
    const std::string location = config.node_locations.begin()->second;
    if (location.find(".et: node ") != std::string::npos)
      continue;  // a Chakra trace: tests/config/chakra_import_test.cpp
    const std::string graph_file = location.substr(0, location.rfind(':'));
    std::ifstream in(graph_file);
    std::stringstream text;
    text << in.rdbuf();
    const std::string header = text.str();
    // "# nodes: N (compute C, collective K, p2p P)" and "--gpus G", read
    // without std::regex (GCC 12's sanitizer build warns inside it).
    const auto number_after = [&](const std::string& label) -> unsigned long {
      const size_t at = header.find(label);
      if (at == std::string::npos) {
        ADD_FAILURE() << graph_file << ": no '" << label << "' in its header";
        return 0;
      }
      return std::stoul(header.substr(at + label.size()));
    };
    std::map<TaskKind, size_t> count;
    for (const TaskNode& node : config.graph->nodes()) ++count[node.kind];
    EXPECT_EQ(config.graph->nodes().size(), number_after("# nodes: "));
    EXPECT_EQ(count[TaskKind::compute], number_after("(compute "));
    EXPECT_EQ(count[TaskKind::collective], number_after(", collective "));
    EXPECT_EQ(count[TaskKind::p2p], number_after(", p2p "));
    EXPECT_EQ(static_cast<unsigned long>(config.fabric.gpus), number_after("--gpus "));
  }
}

// scripts/tools/transformer_graph.py writes graphs TaskGraph accepts for other shapes
// too: no tensor or no data parallelism, several microbatches, DP buckets.
TEST(GraphConfig, TransformerScriptGraphsValidate) {
  if (std::system("command -v python3 >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  const fs::path dir = fs::path(testing::TempDir()) / "graph_config_script";
  fs::create_directories(dir);
  const std::string script = std::string(PHOTONSIM_SOURCE_DIR) + "/scripts/tools/transformer_graph.py";
  struct Shape {
    int gpus;
    const char* args;
  };
  for (const Shape& shape :
       {Shape{16, "--tp 4 --pp 2 --layers 4 --microbatches 3"}, Shape{8, "--tp 1 --pp 4 --layers 8 --microbatches 2"},
        Shape{8, "--tp 8 --pp 1 --layers 2"}, Shape{12, "--tp 2 --pp 3 --layers 3 --dp-bytes 100MB --dp-bucket 32MB"},
        Shape{4, "--tp 2 --pp 2 --layers 2"}, Shape{8, "--tp 1 --pp 2 --layers 4 --dp-per-layer 16MiB,64MiB"},
        Shape{4, "--tp 1 --pp 1 --layers 2 --microbatches 2 --dp-per-layer 1MB"}}) {
    SCOPED_TRACE(shape.args);
    const fs::path graph = dir / "g.yaml";
    const std::string command =
        "python3 " + script + " --gpus " + std::to_string(shape.gpus) + " " + shape.args + " --out " + graph.string();
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    graph_config_write(dir / "exp.yaml", "fabric: {gpus: " + std::to_string(shape.gpus) +
                                             ", bandwidth: 450GB/s, latency: 3us}\n"
                                             "workload: {graph: g.yaml}\nsynthesis: {algorithm: rhd}\n");
    const ExperimentConfig config = load_config((dir / "exp.yaml").string());
    EXPECT_GT(config.graph->nodes().size(), 0u);
  }
  fs::remove_all(dir);
}

// --dp-per-layer: each layer's gradient AllReduces wait for that layer's backward in every replica
// (and the previous AllReduce), not for the whole backward, so they overlap the earlier layers'
// backward; with TP the script refuses (two collectives at once on one GPU), and with
// --dp-bytes too (which it would ignore).
TEST(GraphConfig, TransformerScriptReducesGradientsLayerByLayer) {
  if (std::system("command -v python3 >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  const fs::path dir = fs::path(testing::TempDir()) / "graph_config_per_layer";
  fs::create_directories(dir);
  const std::string script = std::string(PHOTONSIM_SOURCE_DIR) + "/scripts/tools/transformer_graph.py";
  const std::string base = "python3 " + script + " --gpus 2 --pp 1 --layers 2 --dp-per-layer 16MiB,64MiB --out ";
  ASSERT_EQ(std::system((base + (dir / "g.yaml").string() + " --tp 1").c_str()), 0);
  graph_config_write(
      dir / "exp.yaml",
      "fabric: {gpus: 2, bandwidth: 450GB/s, latency: 3us}\nworkload: {graph: g.yaml}\nsynthesis: {algorithm: rhd}\n");
  const ExperimentConfig config = load_config((dir / "exp.yaml").string());
  std::map<std::string, std::vector<std::string>> after;
  std::map<std::string, int64_t> bytes;
  for (const TaskNode& node : config.graph->nodes()) {
    if (node.name.find(".dp.") == std::string::npos) continue;
    after[node.name] = node.after;
    bytes[node.name] = node.message.count();
  }
  using Names = std::vector<std::string>;
  EXPECT_EQ(after.size(), 4u);
  EXPECT_EQ(after["s0.dp.l1.ar0"], (Names{"r0.s0.l1.bwd.attn", "r1.s0.l1.bwd.attn"}));
  EXPECT_EQ(after["s0.dp.l1.ar1"], (Names{"s0.dp.l1.ar0"}));
  EXPECT_EQ(after["s0.dp.l0.ar0"], (Names{"s0.dp.l1.ar1", "r0.s0.l0.bwd.attn", "r1.s0.l0.bwd.attn"}));
  EXPECT_EQ(bytes["s0.dp.l0.ar1"], int64_t{64} << 20);
  EXPECT_NE(std::system((base + (dir / "h.yaml").string() + " --tp 2 --gpus 4 2>/dev/null").c_str()), 0);
  EXPECT_NE(std::system((base + (dir / "h.yaml").string() + " --tp 1 --dp-bytes 2MB 2>/dev/null").c_str()), 0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace photonsim
