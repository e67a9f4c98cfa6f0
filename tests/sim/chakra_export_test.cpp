// Chakra traces the other way: a synthesized schedule written per rank
// (sim/interop/chakra_writer.h) reads back as that schedule and runs in its
// time; edited, as its transfers, each reconfiguration charged once; files
// the other tools wrote run and take the time a closed form gives on
// photonsim's fabric.
#include "sim/interop/chakra_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <tuple>

#include "core/error.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/app/task_graph_experiment.h"
#include "sim/config/config_loader.h"
#include "tests/support/chakra_bytes.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

const char* kFabric =
    "fabric: {gpus: 8, ports: 1, bandwidth: 800Gbps, latency: 500ns, router: store_and_forward, "
    "reconfig_delay: ";

std::string external(const std::string& relative) {
  return std::string(PHOTONSIM_SOURCE_DIR) + "/tests/data/external/" + relative;
}

ExperimentConfig graph_config(const std::string& prefix, const std::string& alpha_r,
                              const std::string& synthesis = "{algorithm: ring, planner: static}") {
  return load_config_from_string(std::string(kFabric) + alpha_r + "}\nworkload:\n  graph: {chakra: " + prefix +
                                     "}\nsynthesis: " + synthesis + "\n",
                                 "/tmp/chakra_export.yaml");
}

const char* kRhd =
    "1500ns}\nworkload: {collective: allreduce, message: 1MB}\nsynthesis: {algorithm: rhd, planner: every_step}\n";

// The traces of RHD AllReduce on 8 GPUs under the every-step planner (it
// reconfigures before every step), written under a fresh DIR/NAME.
std::string export_rhd(const std::string& name, const Schedule& schedule,
                       const std::function<void(std::vector<std::string>&)>& edit = {}) {
  std::vector<std::string> traces = chakra_traces_of(schedule);
  if (edit) edit(traces);
  const fs::path dir = fs::path(testing::TempDir()) / ("chakra_export_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (size_t r = 0; r < traces.size(); ++r) {
    std::ofstream(dir / ("rhd." + std::to_string(r) + ".et"), std::ios::binary) << traces[r];
  }
  return (dir / "rhd").string();
}

// Rank 0's file with a GlobalMetadata of its version alone: the schedule
// left out, the nodes as written.
std::string without_schedule(const std::string& rank0) {
  size_t at = 0;
  uint64_t size = 0;
  for (int shift = 0;; shift += 7) {
    const auto byte = static_cast<uint8_t>(rank0[at++]);
    size |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) break;
  }
  const std::string metadata = testing_support::chakra_wire::bytes(1, "0.0.4");
  return testing_support::chakra_wire::varint(metadata.size()) + metadata + rank0.substr(at + size);
}

// The writer marks what photonsim reads back: rank 0's metadata holds the
// schedule, and each reconfiguration is a compute node of its delay (2 us in
// duration_micros for ASTRA-sim, exact in duration_ps) marked
// photonsim_reconfiguration.
TEST(ChakraExport, TheTracesCarryTheScheduleAndMarkTheReconfigurations) {
  const Schedule schedule =
      ExperimentPipeline(nullptr).synthesize(load_config_from_string(std::string(kFabric) + kRhd, "/tmp/rhd.yaml"));
  const std::vector<std::string> traces = chakra_traces_of(schedule);
  ASSERT_EQ(traces.size(), 8u);
  EXPECT_NE(traces[0].find(kChakraScheduleAttr), std::string::npos);
  EXPECT_EQ(traces[1].find(kChakraScheduleAttr), std::string::npos);  // rank 0's only
  for (const std::string& t : traces) EXPECT_NE(t.find(kChakraReconfigurationAttr), std::string::npos);
  // Deterministic: the same bytes again.
  EXPECT_EQ(chakra_traces_of(schedule), traces);
}

// Read back, photonsim's own export is the schedule it was written from (no
// task graph), and runs in the time the schedule takes at the same config.
// (Before, it ran as a task graph of sends that charged each reconfiguration
// twice: as the exported compute node, and as the sends' circuit set-ups.)
TEST(ChakraExport, AnExportReadsBackAsItsScheduleAndRunsInItsOwnTime) {
  const ExperimentConfig config = load_config_from_string(std::string(kFabric) + kRhd, "/tmp/rhd.yaml");
  const ExperimentPipeline pipeline(nullptr);
  const RunReport original = pipeline.run(config);
  const ExperimentConfig back = graph_config(export_rhd("schedule", original.schedule), "1500ns");
  EXPECT_FALSE(back.graph);
  ASSERT_TRUE(back.imported_schedule);
  const Schedule& s = *back.imported_schedule;
  ASSERT_EQ(s.steps().size(), original.schedule.steps().size());
  for (size_t k = 0; k < s.steps().size(); ++k) {
    EXPECT_EQ(s.steps()[k].topology, original.schedule.steps()[k].topology) << k;
    ASSERT_EQ(s.steps()[k].transfers.size(), original.schedule.steps()[k].transfers.size()) << k;
  }
  EXPECT_EQ(s.topologies().size(), original.schedule.topologies().size());
  EXPECT_EQ(s.initial_topology(), original.schedule.initial_topology());
  // 6 steps: 1 MB halving to 125 KB and back, each on its own circuits.
  const RunReport run = pipeline.run(back);
  EXPECT_EQ(original.result.completion, Time::us(28));
  EXPECT_EQ(run.result.completion, original.result.completion);
  EXPECT_EQ(run.schedule.prediction().total(), Time::us(28));
  ASSERT_TRUE(run.stored_prediction.has_value());  // as photonsim replay reports it
  // At another alpha_r the schedule is predicted and run for that fabric.
  EXPECT_EQ(pipeline.run(graph_config(export_rhd("schedule", original.schedule), "0us")).result.completion,
            Time::us(28) - Time::ns(1500) * original.schedule.reconfigurations());
}

// Traces that are no longer photonsim's export as written (the schedule left
// out, or a node changed) are read as a task graph of their nodes: every
// transfer one send of its bytes, and the reconfiguration nodes passed
// through, since each send sets up its own circuit: charged once, at the
// config's alpha_r. For this schedule (every step on its own circuits, each
// rank's steps in order) that is the schedule's time too.
TEST(ChakraExport, EditedTracesReadAsATaskGraphThatChargesEachReconfigurationOnce) {
  const ExperimentConfig config = load_config_from_string(std::string(kFabric) + kRhd, "/tmp/rhd.yaml");
  const Schedule schedule = ExperimentPipeline(nullptr).synthesize(config);
  std::map<std::tuple<int, int, int64_t>, int> sent, written;
  for (const Step& step : schedule.steps()) {
    for (const Transfer& t : step.transfers)
      ++written[{static_cast<int>(t.src), static_cast<int>(t.dst), t.bytes.count()}];
  }
  const auto strip = [](std::vector<std::string>& traces) { traces[0] = without_schedule(traces[0]); };
  const ExperimentConfig back = graph_config(export_rhd("stripped", schedule, strip), "1500ns");
  ASSERT_TRUE(back.graph);
  EXPECT_FALSE(back.imported_schedule);
  for (const TaskNode& n : back.graph->nodes()) {
    EXPECT_NE(n.kind, TaskKind::compute) << n.name;
    if (n.kind == TaskKind::p2p) ++sent[{n.src, n.dst, n.bytes.count()}];
  }
  EXPECT_EQ(sent, written);
  ASSERT_EQ(back.warnings.size(), 1u);
  EXPECT_NE(back.warnings[0].find(std::to_string(8 * schedule.reconfigurations()) + " reconfiguration nodes (" +
                                  kChakraReconfigurationAttr),
            std::string::npos)
      << back.warnings[0];
  EXPECT_EQ(run_task_graph(back, SynthesizerRegistry::with_builtins()).result.iteration, Time::us(28));

  // A node renamed on rank 5, the schedule kept: a warning says why the
  // traces are not read as the schedule.
  const auto rename = [](std::vector<std::string>& traces) { traces[5][traces[5].find("step0.send")] = 'S'; };
  const ExperimentConfig edited = graph_config(export_rhd("edited", schedule, rename), "1500ns");
  ASSERT_TRUE(edited.graph);
  ASSERT_EQ(edited.warnings.size(), 2u);
  EXPECT_NE(edited.warnings[0].find("photonsim's export of a schedule (photonsim_schedule in "), std::string::npos);
  EXPECT_NE(edited.warnings[0].find("rhd.5.et holds other nodes than photonsim writes for it: read as a task graph"),
            std::string::npos)
      << edited.warnings[0];
}

// Bad input is refused in one line naming the file: a schedule in the
// metadata that does not parse, an export read on another number of GPUs.
TEST(ChakraExport, ABrokenOrMisplacedExportIsRefusedNamingTheFile) {
  const Schedule schedule =
      ExperimentPipeline(nullptr).synthesize(load_config_from_string(std::string(kFabric) + kRhd, "/tmp/rhd.yaml"));
  const auto corrupt = [](std::vector<std::string>& traces) {
    const size_t at = traces[0].find(kChakraScheduleAttr) + std::string(kChakraScheduleAttr).size() + 8;
    for (size_t k = at; k < at + 16; ++k) traces[0][k] = static_cast<char>(0xFF);
  };
  try {
    graph_config(export_rhd("corrupt", schedule, corrupt), "1500ns");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rhd.0.et: the global metadata's photonsim_schedule (photonsim's export of "
                                         "a schedule) does not read back"),
              std::string::npos)
        << e.what();
  }
  const std::string prefix = export_rhd("gpus", schedule);
  try {
    load_config_from_string(
        "fabric: {gpus: 16, ports: 1, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: "
        "1500ns}\nworkload:\n  graph: {chakra: " +
            prefix + "}\nsynthesis: {algorithm: ring, planner: static}\n",
        "/tmp/chakra_export.yaml");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the traces are photonsim's export of a schedule on 8 GPUs but "
                                         "fabric.gpus is 16"),
              std::string::npos)
        << e.what();
  }
}

// ASTRA-sim's own microbenchmarks (8 ranks, comm_size 1 MiB) on a directed
// ring, 800 Gbps (10 ps a byte), 500 ns a hop, store-and-forward, whole
// transfers as one packet, 5 us to set up the first circuits: the closed
// forms of the ring algorithm and of direct all-to-all.
constexpr int64_t kHop = 500'000;         // ps
constexpr int64_t kBlock = 131'072 * 10;  // 1 MiB / 8 at 10 ps a byte
constexpr int64_t kSetup = 5'000'000;     // ps

Time run_microbenchmark(const std::string& name, const std::string& synthesis, int ports = 1) {
  std::string yaml = std::string(kFabric) + "5us}\nworkload:\n  graph: {chakra: " +
                     external("astra-sim/microbenchmarks/" + name + "/8npus_1MB/" + name) +
                     "}\nsynthesis: " + synthesis + "\n";
  yaml.replace(yaml.find("ports: 1"), 8, "ports: " + std::to_string(ports));
  const ExperimentConfig c = load_config_from_string(yaml, "/tmp/micro.yaml");
  return run_task_graph(c, SynthesizerRegistry::with_builtins()).result.iteration;
}

TEST(ChakraExport, AstraSimMicrobenchmarksTakeTheirClosedForms) {
  const std::string ring = "{algorithm: ring, planner: static, topology: ring}";
  // AllReduce: 2 (n - 1) steps of one 128 KiB block a hop.
  EXPECT_EQ(run_microbenchmark("all_reduce", ring), Time::ps(kSetup + 14 * (kHop + kBlock)));
  // Reduce-scatter of the 1 MiB buffer: n - 1 such steps.
  EXPECT_EQ(run_microbenchmark("reduce_scatter", ring), Time::ps(kSetup + 7 * (kHop + kBlock)));
  // All-gather of 1 MiB a rank (ASTRA-sim's comm_size is the rank's input):
  // n - 1 steps of a whole 1 MiB block.
  EXPECT_EQ(run_microbenchmark("all_gather", ring), Time::ps(kSetup + 7 * (kHop + 8 * kBlock)));
  // All-to-all of a 1 MiB buffer a rank, 128 KiB to each peer, direct on the
  // complete graph (7 ports): one step.
  EXPECT_EQ(run_microbenchmark("all_to_all", "{algorithm: direct, planner: static, topology: complete}", 7),
            Time::ps(kSetup + kHop + kBlock));
}

// ASTRA-sim's MSCCL-converted ring AllReduce: per rank 14 sends of 128 KiB
// to the next rank, each receive after the rank's own send (a cycle when a
// pair was one node), 7 us of reduction after each of the first 7 receives.
// Each round is one hop; the first sets up the ring.
TEST(ChakraExport, AstraSimMscclConvertedTraceTakesItsClosedForm) {
  const ExperimentConfig c =
      graph_config(external("astra-sim/custom_collectives/custom_ring_allreduce_8npus_1MB/custom_allreduce"), "5us",
                   "{algorithm: ring, planner: static, topology: ring}");
  const GraphReport report = run_task_graph(c, SynthesizerRegistry::with_builtins());
  EXPECT_EQ(report.result.iteration, Time::ps(kSetup + 14 * (kHop + kBlock) + 7 * 7'000'000));
}

// One rank's trace collected from PyTorch and converted by Chakra (Chakra's
// own feeder test data), on 2 ranks; a rank: 2,434 CPU operators and 14 c10d
// CPU-side collectives as host delays, 1,209 GPU kernels (157 of 0 us), 5
// AllReduces (the ring) and 2 broadcasts (binomial, as `algorithms` picks). The GPU's
// kernels alone sum to 292,828 us, one after another; the iteration is
// bound by compute (the collectives are a few KB to 200 KB, hidden), and
// the model's prediction agrees with the simulation.
TEST(ChakraExport, APyTorchTraceRunsReplicated) {
  const ExperimentConfig c = load_config_from_string(
      "fabric: {gpus: 2, ports: 1, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 5us, circuits: bidirectional}\n"
      "workload:\n  graph: {chakra: " +
          std::string(PHOTONSIM_EXTERNAL_DIR) +
          "/chakra_feeder/tests/data/chakra, replicate: 2, algorithms: {broadcast: binomial}}\n"
          "synthesis: {algorithm: ring, planner: static, topology: ring}\n",
      "/tmp/pytorch.yaml");
  const GraphReport report = run_task_graph(c, SynthesizerRegistry::with_builtins());
  EXPECT_GE(report.result.iteration, Time::us(292'828));
  EXPECT_EQ(report.result.iteration, Time::us(297'046));
  EXPECT_EQ(report.predicted_iteration, report.result.iteration);
  int collectives = 0;
  for (const TaskNode& n : c.graph->nodes()) {
    if (n.kind != TaskKind::collective) continue;
    ++collectives;
    EXPECT_EQ(n.algorithm, n.collective == Collective::broadcast ? "binomial" : "") << n.name;
  }
  EXPECT_EQ(collectives, 7);
}

}  // namespace
}  // namespace photonsim
