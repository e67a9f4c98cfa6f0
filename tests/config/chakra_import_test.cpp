// workload.graph: {chakra: PREFIX}: the project's Chakra traces
// (scripts/tools/chakra_traces.py, configs/chakra/) read into task graphs, and
// malformed traces refused in one line naming the file and the node.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "sim/interop/chakra_trace.h"
#include "tests/support/chakra_bytes.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

std::string source(const std::string& relative) { return std::string(PHOTONSIM_SOURCE_DIR) + "/" + relative; }

std::string config_for(const std::string& prefix, int gpus) {
  return "fabric: {gpus: " + std::to_string(gpus) +
         ", ports: 2, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 5us}\n"
         "workload:\n  chunk: 256KB\n  graph: {chakra: " +
         prefix + "}\nsynthesis: {algorithm: rhd, planner: pccl}\n";
}

ExperimentConfig load(const std::string& prefix, int gpus) {
  return load_config_from_string(config_for(prefix, gpus), "/tmp/chakra.yaml");
}

const TaskNode& named(const TaskGraph& g, const std::string& name) {
  for (const TaskNode& n : g.nodes()) {
    if (n.name == name) return n;
  }
  throw std::runtime_error("no node " + name);
}

TEST(ChakraImport, DataAndTensorParallelTraceBecomesOneGraph) {
  const ExperimentConfig c = load(source("configs/chakra/dp_tp_8/trace"), 8);
  ASSERT_TRUE(c.graph);
  const TaskGraph& g = *c.graph;
  EXPECT_EQ(g.nodes().size(), 50u);  // 8 ranks x 4 compute, 4 TP groups x 4 AllReduces, 2 DP AllReduces
  const TaskNode& fwd = named(g, "r3.0.layer0.fwd");
  EXPECT_EQ(fwd.kind, TaskKind::compute);
  EXPECT_EQ(fwd.gpus, (std::vector<int>{3}));
  EXPECT_EQ(fwd.duration, Time::us(50));
  // The first TP AllReduce of replica 1 (ranks 2, 3), after both ranks' forward compute.
  const TaskNode& tp = named(g, "tp1.c0.allreduce");
  EXPECT_EQ(tp.collective, Collective::allreduce);
  EXPECT_EQ(tp.gpus, (std::vector<int>{2, 3}));
  EXPECT_EQ(tp.message, Bytes(1'048'576));
  EXPECT_EQ(tp.after, (std::vector<std::string>{"r2.0.layer0.fwd", "r3.0.layer0.fwd"}));
  // DP over TP rank 1 of every replica, 8 MiB, after each rank's last TP AllReduce.
  const TaskNode& dp = named(g, "dp1.c0.allreduce");
  EXPECT_EQ(dp.gpus, (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(dp.message, Bytes(8'388'608));
  EXPECT_EQ(dp.after,
            (std::vector<std::string>{"tp0.c3.allreduce", "tp1.c3.allreduce", "tp2.c3.allreduce", "tp3.c3.allreduce"}));
  EXPECT_EQ(c.node_locations.at("dp1.c0.allreduce"),
            source("configs/chakra/dp_tp_8/trace") + ".1.et: node 8 (dp_all_reduce)");
  EXPECT_TRUE(c.warnings.empty());
}

TEST(ChakraImport, SendsAndReceivesPairIntoPeerToPeerNodes) {
  const ExperimentConfig c = load(source("configs/chakra/p2p_4/trace"), 4);
  const TaskGraph& g = *c.graph;
  EXPECT_EQ(g.nodes().size(), 13u);
  const TaskNode& p = named(g, "p2p.3->0.tag3.0");
  EXPECT_EQ(p.kind, TaskKind::p2p);
  EXPECT_EQ(p.src, 3);
  EXPECT_EQ(p.dst, 0);
  EXPECT_EQ(p.bytes, Bytes(65536));
  // The send waits for its sender's forward only (as ASTRA-sim); the
  // receiver's backward waits for its own forward, its own send and this one.
  EXPECT_EQ(p.after, (std::vector<std::string>{"r3.0.layer0.fwd"}));
  EXPECT_EQ(named(g, "r0.3.layer0.bwd").after,
            (std::vector<std::string>{"r0.0.layer0.fwd", "p2p.0->1.tag0.0", "p2p.3->0.tag3.0"}));
}

TEST(ChakraImport, MoreRanksThanGpusIsAnError) {
  try {
    load(source("configs/chakra/dp_tp_8/trace"), 4);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("8 ranks but fabric.gpus is 4"), std::string::npos) << e.what();
  }
}

// Malformed traces from scripts/tools/chakra_traces.py --bad KIND: one line naming
// the file and node, never a crash.
class ChakraBadTrace : public ::testing::Test {
 protected:
  std::string write(const std::string& kind) {
    if (std::system("command -v python3 >/dev/null 2>&1") != 0) return "";
    const fs::path dir = fs::path(testing::TempDir()) / ("chakra_bad_" + kind);
    fs::remove_all(dir);
    const std::string prefix = (dir / "t").string();
    const std::string command = "python3 " + source("scripts/tools/chakra_traces.py") +
                                " --ranks 4 --tp 2 --layers 1 --bad " + kind + " --out " + prefix + " >/dev/null 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return prefix;
  }
  void expect_error(const std::string& kind, const std::vector<std::string>& parts) {
    const std::string prefix = write(kind);
    if (prefix.empty()) GTEST_SKIP() << "no python3";
    try {
      load(prefix, 4);
      ADD_FAILURE() << kind << ": no error";
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      for (const std::string& part : parts) EXPECT_NE(m.find(part), std::string::npos) << kind << ": " << m;
    }
  }
};

TEST_F(ChakraBadTrace, TruncatedMessage) { expect_error("truncated", {"t.0.et: message", "truncated"}); }
TEST_F(ChakraBadTrace, UnknownNodeType) { expect_error("unknown-type", {"t.0.et: node", "unknown node type 99"}); }
TEST_F(ChakraBadTrace, MissingSize) { expect_error("missing-size", {"t.0.et: node 1", "'comm_size'"}); }
TEST_F(ChakraBadTrace, SelfDependency) { expect_error("self-dep", {"t.0.et: node 1", "depends on itself"}); }
TEST_F(ChakraBadTrace, UnmatchedSend) { expect_error("unmatched-send", {"t.0.et: node", "never receives"}); }

TEST_F(ChakraBadTrace, MemoryNodesPassThroughWithAWarning) {
  const std::string prefix = write("mem-load");
  if (prefix.empty()) GTEST_SKIP() << "no python3";
  const ExperimentConfig c = load(prefix, 4);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("1 MEM_LOAD_NODEs passed through"), std::string::npos) << c.warnings[0];
}

// Imported values are taken exactly or refused, never clamped, saturated or
// wrapped: each refusal names the file, the node, the field and the limit.
class ChakraValues : public ::testing::Test {
 protected:
  using Nodes = std::vector<testing_support::ChakraNode>;
  // Writes one file per rank under a fresh folder; returns the prefix.
  std::string write(const std::vector<Nodes>& ranks) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return testing_support::write_chakra_traces(
        fs::path(testing::TempDir()) / ("chakra_values_" + std::string(info->name())), ranks);
  }
  static testing_support::ChakraNode compute(uint64_t id, std::string name, uint64_t us,
                                             std::vector<uint64_t> deps = {}) {
    testing_support::ChakraNode n;
    n.id = id;
    n.name = std::move(name);
    n.type = 4;
    n.duration_micros = us;
    n.data_deps = std::move(deps);
    return n;
  }
  static testing_support::ChakraNode collective(uint64_t id, int64_t comm_type,
                                                std::vector<testing_support::ChakraAttr> attrs) {
    testing_support::ChakraNode n;
    n.id = id;
    n.name = "coll";
    n.type = 7;
    n.attrs = std::move(attrs);
    n.attrs.push_back(testing_support::chakra_int("comm_type", comm_type));
    return n;
  }
  static std::string error_of(const std::string& prefix, int gpus) {
    try {
      load(prefix, gpus);
    } catch (const Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  }
  static void expect_parts(const std::string& message, const std::vector<std::string>& parts) {
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (const std::string& part : parts) EXPECT_NE(message.find(part), std::string::npos) << message;
  }
};

TEST_F(ChakraValues, DurationsAreExact) {
  // 2,000,000 s (23 days) is within the time range: taken as given (it was
  // once capped at 1,000,000 s).
  const std::string prefix = write({{compute(0, "fwd", 2'000'000'000'000)}, {compute(0, "fwd", 1)}});
  const ExperimentConfig c = load(prefix, 2);
  EXPECT_EQ(named(*c.graph, "r0.0.fwd").duration, Time::us(2'000'000'000'000));
}

TEST_F(ChakraValues, DurationPastTheTimeRangeIsRefused) {
  // 10^13 us is past int64 picoseconds (9,223,372,036,854 us).
  const std::string prefix = write({{compute(0, "fwd", 10'000'000'000'000)}, {compute(0, "fwd", 1)}});
  expect_parts(error_of(prefix, 2), {prefix + ".0.et: node 0 (fwd)", "duration_micros 10000000000000 us",
                                     "9223372036854775807 ps", "9223372036854 us"});
}

TEST_F(ChakraValues, ChainedDurationsPastTheTimeRangeAreRefusedAtTheNode) {
  // Two nodes of 6 * 10^12 us each fit; one after the other they pass the
  // range, at the second.
  const uint64_t six = 6'000'000'000'000;
  const std::string prefix = write(
      {{compute(0, "fwd", six), compute(1, "bwd", six, {0})}, {compute(0, "fwd", six), compute(1, "bwd", 1, {0})}});
  expect_parts(error_of(prefix, 2), {prefix + ".0.et: node 1 (bwd)", "node 'r0.1.bwd'", "duration",
                                     "9223372036854775807 ps (about 106.75 days)"});
}

TEST_F(ChakraValues, UnsignedAttributePastInt64IsRefused) {
  // comm_size 2^63 + 5 as a uint64 attribute: it was once saturated to 2^63 - 1.
  const uint64_t huge = (uint64_t{1} << 63) + 5;
  const auto coll = collective(0, 0, {testing_support::chakra_uint("comm_size", huge)});
  const std::string prefix = write({{coll}, {coll}});
  expect_parts(error_of(prefix, 2),
               {prefix + ".0.et: node 0 (coll)", "'comm_size'", "9223372036854775813", "9223372036854775807"});
}

TEST_F(ChakraValues, BroadcastRootPastIntIsRefused) {
  // root 2^32 + 1 once wrapped to rank 1.
  const auto coll = collective(
      0, 5,
      {testing_support::chakra_int("comm_size", 1024), testing_support::chakra_int("root", (int64_t{1} << 32) + 1)});
  const std::string prefix = write({{coll}, {coll}});
  expect_parts(error_of(prefix, 2), {prefix + ".0.et: node 0 (coll)", "root 4294967297 is not a rank (0..1)"});
}

}  // namespace
}  // namespace photonsim
