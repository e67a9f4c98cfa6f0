// run_task_graph: collectives synthesized per group and run as graph nodes
// agree with the single-collective path; groups share the fabric.
#include "sim/app/task_graph_experiment.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "sim/app/experiment_runner.h"
#include "tests/support/task_nodes.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

using namespace testing_support;

ExperimentConfig base_config(int gpus, const std::string& algorithm, const std::string& planner, Time alpha_r) {
  ExperimentConfig c;
  c.source = "test.yaml";
  c.fabric = test_fabric(gpus);
  c.fabric.reconfig_delay = alpha_r;
  c.workload = with_chunk(test_workload(Collective::allreduce, 1'048'576), 262'144);
  c.synthesis.algorithm = algorithm;
  c.synthesis.planner = planner;
  // A graph plans each collective from no circuits: so does the single run here.
  if (planner == "static") c.synthesis.static_topology = TopologySpec{"ring", {}};
  return c;
}

TaskNode collective(std::string name, std::vector<int> gpus, int64_t bytes, std::vector<std::string> after = {}) {
  return collective_node(std::move(name), Collective::allreduce, std::move(gpus), Bytes(bytes), std::move(after));
}

// One AllReduce over every GPU as the whole graph is the single run planned
// from no circuits, to the picosecond,
// under the barrier and under dataflow with partial reconfiguration.
TEST(TaskGraphExperiment, OneCollectiveIsTheSingleRunPlusItsSetup) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (const auto& [algorithm, planner] :
       std::vector<std::pair<std::string, std::string>>{{"ring", "static"},
                                                        {"rhd", "every_step"},
                                                        {"rhd", "pccl"},
                                                        {"recursive_doubling", "harvest"},
                                                        {"swing", "static"}}) {
    for (Time alpha_r : {Time::us(5), Time::us(500)}) {
      ExperimentConfig single = base_config(8, algorithm, planner, alpha_r);
      const bool dataflow = alpha_r == Time::us(5);  // and partial reconfiguration: the other engine path
      if (dataflow) {
        single.fabric.sync = SyncMode::dataflow;
        single.fabric.reconfiguration = ReconfigurationScope::changed;
      }
      const RunReport alone = run_experiment(single, registry);
      ExperimentConfig graph = single;
      graph.graph = TaskGraph::build({collective("ar", {0, 1, 2, 3, 4, 5, 6, 7}, 1'048'576)}, 8);
      const GraphReport report = run_task_graph(graph, registry);
      // Both start from no circuits: the graph's setup is the single run's step 0 reconfiguration.
      ASSERT_TRUE(alone.schedule.reconfigures_before(0));
      EXPECT_EQ(report.result.iteration, alone.result.completion) << algorithm << "/" << planner;
      // Predicted once its circuits are lit: step 0's reconfiguration is the setup.
      const Prediction& p = alone.schedule.prediction();
      EXPECT_EQ(report.info[0].predicted, p.total() - p.steps.front().reconfiguration);
      EXPECT_EQ(report.predicted_iteration, alpha_r + report.info[0].predicted);
    }
  }
}

// Two disjoint groups at once take as long as one; a reversed group list is
// the same collective under other names.
TEST(TaskGraphExperiment, DisjointGroupsRunAtOnce) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  ExperimentConfig one = base_config(8, "rhd", "every_step", Time::us(5));
  one.graph = TaskGraph::build({collective("a", {0, 1, 2, 3}, 1'048'576)}, 8);
  const Time alone = run_task_graph(one, registry).result.iteration;
  ExperimentConfig two = one;
  two.graph = TaskGraph::build({collective("a", {0, 1, 2, 3}, 1'048'576), collective("b", {7, 6, 5, 4}, 1'048'576)}, 8);
  const GraphReport both = run_task_graph(two, registry);
  EXPECT_EQ(both.result.nodes[0].end, alone);
  EXPECT_EQ(both.result.nodes[1].end, alone);
  EXPECT_EQ(both.result.iteration, alone);
}

// A synthesizer's error names the graph node and where it was defined.
TEST(TaskGraphExperiment, SynthesisErrorsNameTheNode) {
  ExperimentConfig c = base_config(8, "swing", "static", Time::us(5));
  c.graph = TaskGraph::build({collective("tp", {0, 1, 2}, 1'048'576)}, 8);
  c.node_locations["tp"] = "graph.yaml:7";
  try {
    run_task_graph(c, SynthesizerRegistry::with_builtins());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("graph.yaml:7: workload.graph: node 'tp'"), std::string::npos) << m;
    EXPECT_NE(m.find("power of two"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// A node may name its own algorithm and planner (an MoE layer's all-to-all
// beside the AllReduces); the config's algorithm parameters stay with it.
TEST(TaskGraphExperiment, ANodeMayNameItsOwnAlgorithmAndPlanner) {
  ExperimentConfig c = base_config(8, "rhd", "every_step", Time::us(5));
  TaskNode a2a = collective("moe", {0, 1, 2, 3}, 4096, {"ar"});
  a2a.collective = Collective::alltoall;
  a2a.algorithm = "dex";
  a2a.planner = "pccl";
  c.graph = TaskGraph::build({collective("ar", {0, 1, 2, 3}, 1'048'576), a2a}, 8);
  const GraphReport r = run_task_graph(c, SynthesizerRegistry::with_builtins());
  EXPECT_EQ(r.info[0].algorithm, "rhd");
  EXPECT_EQ(r.info[0].planner, "every_step");
  EXPECT_EQ(r.info[1].algorithm, "dex");
  EXPECT_EQ(r.info[1].planner, "pccl");
  EXPECT_GT(r.result.nodes[1].end, r.result.nodes[0].end);
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// The analytical graph gives each node its predicted time under the packet
// run's rules: one AllReduce is its setup plus its prediction without step
// 0's reconfiguration; where the model is exact (ring on a ring), so is the graph.
TEST(TaskGraphExperiment, AnalyticalTimingIsSetupPlusThePrediction) {
  ExperimentConfig c = base_config(8, "ring", "static", Time::us(5));
  c.graph = TaskGraph::build({collective("ar", {0, 1, 2, 3, 4, 5, 6, 7}, 1'048'576)}, 8);
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  const GraphReport packet = run_task_graph(c, registry);
  const GraphReport analytical = run_task_graph(c, registry, Fidelity::analytical);
  EXPECT_EQ(analytical.result.iteration, Time::us(5) + packet.info[0].predicted);
  EXPECT_EQ(analytical.predicted_iteration, analytical.result.iteration);
  EXPECT_EQ(packet.predicted_iteration, analytical.result.iteration);
  EXPECT_EQ(packet.result.iteration, packet.predicted_iteration);  // the ring's model is exact here
}

}  // namespace
}  // namespace photonsim

namespace photonsim {
namespace {

// The project's Chakra trace of a send ring (configs/chakra/p2p_4) on the
// packet engine: every send after its 50 us forward and a 5 us setup, then
// 64 KiB at 100 B/ns plus 500 ns; the DP AllReduce as its model predicts.
TEST(TaskGraphExperiment, ChakraSendRingRunsWithExactTimings) {
  const std::string config =
      "fabric: {gpus: 4, ports: 2, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 5us}\n"
      "workload:\n  chunk: 256KB\n  graph: {chakra: " +
      std::string(PHOTONSIM_SOURCE_DIR) + "/configs/chakra/p2p_4/trace}\nsynthesis: {algorithm: rhd, planner: pccl}\n";
  const ExperimentConfig c = load_config_from_string(config, "/tmp/chakra.yaml");
  const GraphReport r = run_task_graph(c, SynthesizerRegistry::with_builtins());
  const auto& nodes = c.graph->nodes();
  size_t sends = 0;
  for (size_t v = 0; v < nodes.size(); ++v) {
    if (nodes[v].kind != TaskKind::p2p) continue;
    ++sends;
    EXPECT_EQ(r.result.nodes[v].start, Time::us(55)) << nodes[v].name;
    EXPECT_EQ(r.result.nodes[v].end, Time::us(55) + Time::ps(655'360) + Time::ns(500)) << nodes[v].name;
  }
  EXPECT_EQ(sends, 4u);
  EXPECT_EQ(r.result.iteration, r.predicted_iteration);
}

// A long graph tells its progress: every node synthesized (before each, how
// many are done), then every node ended in the prediction and in the run.
TEST(TaskGraphExperiment, ReportsNodesSynthesizedThenNodesEnded) {
  struct Recorder : WorkProgress {
    std::vector<std::pair<std::string, double>> reports;
    void progressed(const WorkDone& work) override {
      EXPECT_EQ(work.total, 3);
      EXPECT_EQ(work.kind, WorkTotal::exact);
      reports.emplace_back(std::string(work.stage), work.done);
    }
  } recorder;
  ExperimentConfig c = base_config(4, "ring", "static", Time::us(5));
  c.graph = TaskGraph::build({collective("a", {0, 1}, 65'536), collective("b", {2, 3}, 65'536),
                              compute_node("c", {0, 1, 2, 3}, Time::us(1), {"a", "b"})},
                             4);
  run_task_graph(c, SynthesizerRegistry::with_builtins(), Fidelity::packet, nullptr, &recorder);
  const std::string synthesizing = "synthesizing the graph's collectives (nodes)";
  const std::string predicting = "predicting the iteration (nodes ended)";
  const std::string simulating = "simulating the iteration (nodes ended)";
  EXPECT_EQ(recorder.reports, (std::vector<std::pair<std::string, double>>{{synthesizing, 0},
                                                                           {synthesizing, 1},
                                                                           {synthesizing, 2},
                                                                           {predicting, 1},
                                                                           {predicting, 2},
                                                                           {predicting, 3},
                                                                           {simulating, 1},
                                                                           {simulating, 2},
                                                                           {simulating, 3}}));
}

}  // namespace
}  // namespace photonsim
