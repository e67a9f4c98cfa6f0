// photonsim run on task graphs whose quantities pass what photonsim
// represents: every refusal is exit 1 and one line naming the file, the line
// (or the Chakra node id) and the node; a graph estimated past --max-memory
// is refused before it is read, naming the file, the estimate and the limit;
// totals over all nodes past the range are printed, not refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/hostile_run.h"
#include "tests/support/chakra_bytes.h"

namespace photonsim_test {
namespace {

namespace ts = photonsim::testing_support;

class TaskGraphRefusals : public Hostile {
 protected:
  // A config on 4 GPUs whose workload.graph is g.yaml, holding `graph`.
  std::string config_with(const std::string& graph) {
    write("g.yaml", graph);
    return write("exp.yaml",
                 "fabric: {gpus: 4, ports: 1, bandwidth: 800Gbps, latency: 500ns}\n"
                 "workload: {graph: g.yaml}\n"
                 "synthesis: {algorithm: ring, planner: static, topology: ring}\n");
  }
  std::string graph_file() const { return (dir_ / "g.yaml").string(); }
};

TEST_F(TaskGraphRefusals, SendTooLongToSerialiseNamesTheNode) {
  // 9 * 10^18 bytes at 800 Gbps: 9 * 10^19 ps, past the time range.
  const std::string config = config_with(
      "- {name: warm, type: compute, gpus: [0], duration: 1us}\n"
      "- {name: big, type: p2p, src: 0, dst: 1, bytes: 9000000000000000000B, after: warm}\n");
  refuse({"run", config},
         {graph_file() + ":2: workload.graph: node 'big' (p2p 0->1)", "9000000000000000000 bytes", "time range"});
}

TEST_F(TaskGraphRefusals, CollectiveTooLargeNamesTheNode) {
  const auto graph = [](const std::string& message) {
    return "- {name: warm, type: compute, gpus: [0], duration: 1us}\n"
           "- {name: huge.ar, type: collective, collective: allreduce, gpus: [\"0-3\"], message: " +
           message + ", after: warm}\n";
  };
  const std::string node = graph_file() + ":2: workload.graph: node 'huge.ar' (allreduce over 4 GPUs): ";
  // A ring AllReduce's six steps of 5 * 10^17 bytes each fit the time range; their sum does not.
  refuse({"run", config_with(graph("2000000000000000000B"))}, {node + "time overflow", "9223372036854775807 ps"});
  // 2.25 * 10^16 bytes per step in one packet: past the engine's 4 GiB packets.
  // The engine finds it when the node takes its ports.
  refuse({"run", config_with(graph("90000000000000000B"))},
         {graph_file() + ":2: workload.graph: node 'huge.ar': step 0: transfer 0->1 would send a packet over 4 GiB"});
}

TEST_F(TaskGraphRefusals, ComputePastTheTimeRangeWhenSummedNamesTheNode) {
  // 5,000,000 s each fits in int64 picoseconds; one after the other they do not.
  const std::string config = config_with(
      "- {name: a, type: compute, gpus: [0], duration: 5000000s}\n"
      "- {name: b, type: compute, gpus: [1], duration: 5000000s, after: a}\n");
  refuse({"run", config}, {graph_file() + ":2: workload.graph: node 'b': its duration", "after 5000000000000000000 ps",
                           "9223372036854775807 ps"});
}

TEST_F(TaskGraphRefusals, ChakraSendTooLongToSerialiseNamesTheTraceNode) {
  // Rank 0 sends 9 * 10^18 bytes to rank 1 after its compute.
  ts::ChakraNode fwd;
  fwd.id = 0;
  fwd.name = "fwd";
  fwd.duration_micros = 10;
  ts::ChakraNode send;
  send.id = 1;
  send.name = "send";
  send.type = 5;
  send.data_deps = {0};
  send.attrs = {ts::chakra_int("comm_dst", 1), ts::chakra_int("comm_size", 9'000'000'000'000'000'000)};
  ts::ChakraNode recv;
  recv.id = 0;
  recv.name = "recv";
  recv.type = 6;
  recv.attrs = {ts::chakra_int("comm_src", 0)};
  write("t.0.et", ts::chakra_trace({fwd, send}));
  write("t.1.et", ts::chakra_trace({recv}));
  const std::string config = write("exp.yaml",
                                   "fabric: {gpus: 2, ports: 1, bandwidth: 800Gbps, latency: 500ns}\n"
                                   "workload: {graph: {chakra: t}}\n"
                                   "synthesis: {algorithm: ring, planner: static}\n");
  refuse({"run", config}, {(dir_ / "t").string() + ".0.et: node 1 (send): workload.graph: node 'p2p.0->1.tag0.0'",
                           "9000000000000000000 bytes"});
}

TEST_F(TaskGraphRefusals, GraphPastTheMemoryLimitIsRefusedBeforeItIsRead) {
  // 200,000 nodes (13.4 MB of YAML): estimated past a 64 MiB limit.
  std::string graph;
  for (int i = 0; i < 200'000; ++i) {
    graph += "- {name: n" + std::to_string(i) + ", type: compute, gpus: [0], duration: 1us" +
             (i > 0 ? ", after: n" + std::to_string(i - 1) : std::string()) + "}\n";
  }
  const std::string config = config_with(graph);
  refuse({"run", config, "--max-memory", "64MiB"},
         {graph_file() + ": workload.graph: a graph file of", "needs an estimated", "64 MiB (--max-memory)"});
}

// Not refused: two sends side by side, each dark for 60 days of setup, end
// within the range; their exposed reconfiguration adds up past int64
// picoseconds and is printed exactly (it once ended the run in an overflow).
TEST_F(TaskGraphRefusals, TotalsPastTheTimeRangeArePrintedExactly) {
  const std::string config = config_with(
      "- {name: a, type: p2p, src: 0, dst: 1, bytes: 1KB}\n"
      "- {name: b, type: p2p, src: 2, dst: 3, bytes: 1KB}\n");
  const HostileOutcome o = run({"run", config, "--set", "fabric.reconfig_delay=5184000s"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("reconfigurations   2 over all nodes: 10368000.000s exposed"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace photonsim_test
