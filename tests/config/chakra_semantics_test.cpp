// Chakra traces as ASTRA-sim reads them (sim/interop/chakra_trace.h): a send
// and its receive as two nodes, CPU-side operations as host delays,
// comm_size per collective, one rank's trace replicated; and the files the
// other tools wrote themselves (tests/data/external/README.md) loaded.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "tests/support/chakra_bytes.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;
using testing_support::chakra_bool;
using testing_support::chakra_int;
using testing_support::ChakraNode;
using Nodes = std::vector<ChakraNode>;

std::string external(const std::string& relative) {
  return std::string(PHOTONSIM_SOURCE_DIR) + "/tests/data/external/" + relative;
}

ExperimentConfig chakra_semantics_load(const std::string& prefix, int gpus, const std::string& extra = "") {
  return load_config_from_string("fabric: {gpus: " + std::to_string(gpus) +
                                     ", ports: 2, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 5us}\n"
                                     "workload:\n  graph: {chakra: " +
                                     prefix + extra + "}\nsynthesis: {algorithm: ring, planner: static}\n",
                                 "/tmp/chakra.yaml");
}

std::string error_of(const std::string& prefix, int gpus, const std::string& extra = "") {
  try {
    chakra_semantics_load(prefix, gpus, extra);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

const TaskNode& chakra_semantics_named(const TaskGraph& g, const std::string& name) {
  for (const TaskNode& n : g.nodes()) {
    if (n.name == name) return n;
  }
  throw std::runtime_error("no node " + name);
}

size_t count(const TaskGraph& g, TaskKind kind) {
  size_t k = 0;
  for (const TaskNode& n : g.nodes()) k += n.kind == kind ? 1 : 0;
  return k;
}

// One file per rank under a fresh folder; returns the prefix.
std::string write(const std::vector<Nodes>& ranks) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return testing_support::write_chakra_traces(
      fs::path(testing::TempDir()) / ("chakra_semantics_" + std::string(info->name())), ranks);
}

ChakraNode node(uint64_t id, std::string name, int type, std::vector<uint64_t> deps,
                std::vector<testing_support::ChakraAttr> attrs, uint64_t us = 0) {
  ChakraNode n;
  n.id = id;
  n.name = std::move(name);
  n.type = type;
  n.data_deps = std::move(deps);
  n.attrs = std::move(attrs);
  n.duration_micros = us;
  return n;
}

ChakraNode send(uint64_t id, int dst, int64_t bytes, std::vector<uint64_t> deps = {}) {
  return node(id, "send", 5, std::move(deps), {chakra_int("comm_dst", dst), chakra_int("comm_size", bytes)});
}
ChakraNode recv(uint64_t id, int src, int64_t bytes, std::vector<uint64_t> deps = {}) {
  return node(id, "recv", 6, std::move(deps), {chakra_int("comm_src", src), chakra_int("comm_size", bytes)});
}
ChakraNode compute(uint64_t id, uint64_t us, std::vector<uint64_t> deps = {}) {
  return node(id, "comp", 4, std::move(deps), {}, us);
}

// Each rank posts its send, then a receive that waits for it: the shape of
// ASTRA-sim's MSCCL-converted traces. Merged into one node per pair it was a
// cycle; as ASTRA-sim runs it, a send waits only for its own dependencies.
TEST(ChakraSemantics, SendThenReceiveAroundARingIsNoCycle) {
  std::vector<Nodes> ranks;
  for (int r = 0; r < 3; ++r)
    ranks.push_back({send(0, (r + 1) % 3, 4096), recv(1, (r + 2) % 3, 4096, {0}), compute(2, 10, {1})});
  const ExperimentConfig c = chakra_semantics_load(write(ranks), 3);
  const TaskGraph& g = *c.graph;
  EXPECT_EQ(g.nodes().size(), 6u);  // 3 sends, 3 compute; receives take no node of their own
  const TaskNode& p = chakra_semantics_named(g, "p2p.0->1.tag0.0");
  EXPECT_EQ(p.kind, TaskKind::p2p);
  EXPECT_EQ(p.bytes, Bytes(4096));
  EXPECT_TRUE(p.after.empty());
  // The compute after rank 1's receive waits for rank 1's own send (the
  // receive's dependency) and for rank 0's send (the data it receives).
  EXPECT_EQ(chakra_semantics_named(g, "r1.2.comp").after,
            (std::vector<std::string>{"p2p.0->1.tag0.0", "p2p.1->2.tag0.0"}));
}

TEST(ChakraSemantics, AReceiveOfAnotherSizeThanItsSendIsRefused) {
  const std::string prefix = write({{send(0, 1, 4096)}, {recv(0, 0, 1024)}});
  const std::string m = error_of(prefix, 2);
  EXPECT_NE(m.find(prefix + ".1.et: node 0 (recv): receives 1024 bytes but the matching send, " + prefix +
                   ".0.et: node 0 (send), sends 4096"),
            std::string::npos)
      << m;
}

TEST(ChakraSemantics, ASendNamingAnotherSenderIsRefused) {
  ChakraNode s = send(0, 1, 4096);
  s.attrs.push_back(chakra_int("comm_src", 1));
  const std::string m = error_of(write({{s}, {recv(0, 0, 4096)}}), 2);
  EXPECT_NE(m.find("a send in rank 0's trace gives comm_src 1"), std::string::npos) << m;
}

// PyTorch traces: c10d's CPU-side collectives carry no comm_type and CPU
// operators run on the host; both take their duration there, off the GPU,
// one at a time per rank; the GPU kernels are the collectives.
TEST(ChakraSemantics, CpuSideNodesAreHostDelays) {
  const auto cpu = chakra_bool("is_cpu_op", true);
  const auto gpu = chakra_bool("is_cpu_op", false);
  std::vector<Nodes> ranks;
  for (int r = 0; r < 2; ++r) {
    ranks.push_back({node(0, "c10d::allreduce_", 7, {}, {cpu}, 85), node(1, "aten::copy_", 4, {0}, {cpu}, 10),
                     node(2, "kernel", 4, {}, {gpu}, 5),
                     node(3, "ncclKernel_AllReduce", 7, {0, 2},
                          {gpu, chakra_int("comm_type", 0), chakra_int("comm_size", 1 << 20)}),
                     node(4, "aten::empty", 4, {}, {cpu}, 0)});
  }
  const ExperimentConfig c = chakra_semantics_load(write(ranks), 2);
  const TaskGraph& g = *c.graph;
  const TaskNode& host = chakra_semantics_named(g, "r1.0.c10d::allreduce_");
  EXPECT_EQ(host.kind, TaskKind::delay);
  EXPECT_EQ(host.gpus, (std::vector<int>{1}));
  EXPECT_EQ(host.duration, Time::us(85));
  EXPECT_EQ(chakra_semantics_named(g, "r1.1.aten::copy_").kind, TaskKind::delay);
  EXPECT_EQ(chakra_semantics_named(g, "r1.1.aten::copy_").after, (std::vector<std::string>{"r1.0.c10d::allreduce_"}));
  EXPECT_EQ(chakra_semantics_named(g, "r1.2.kernel").kind, TaskKind::compute);
  const TaskNode& ar = chakra_semantics_named(g, "world.c0.allreduce");
  EXPECT_EQ(ar.gpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(ar.after,
            (std::vector<std::string>{"r0.0.c10d::allreduce_", "r0.2.kernel", "r1.0.c10d::allreduce_", "r1.2.kernel"}));
  ASSERT_EQ(c.warnings.size(), 3u);
  EXPECT_NE(c.warnings[0].find("2 CPU-side COMP_NODEs of 0 us passed through"), std::string::npos) << c.warnings[0];
  EXPECT_NE(c.warnings[1].find("2 CPU-side COMM_COLL_NODEs run as host delays"), std::string::npos) << c.warnings[1];
  EXPECT_NE(c.warnings[2].find("2 CPU-side COMP_NODEs run as host delays"), std::string::npos) << c.warnings[2];
}

// comm_size as ASTRA-sim reads it, on ASTRA-sim's own microbenchmark traces
// (8 ranks, comm_size 1 MiB each): all-gather the rank's input, so
// photonsim's gathered message is 8 MiB; all-to-all the rank's buffer, 1/8
// of it per flow; AllReduce and reduce-scatter the buffer.
TEST(ChakraSemantics, CommSizeIsWhatAstraSimReads) {
  const auto message = [](const std::string& name) {
    const ExperimentConfig c =
        chakra_semantics_load(external("astra-sim/microbenchmarks/" + name + "/8npus_1MB/" + name), 8);
    EXPECT_EQ(c.graph->nodes().size(), 1u) << name;
    EXPECT_EQ(c.graph->nodes()[0].gpus, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7})) << name;
    return c.graph->nodes()[0].message;
  };
  EXPECT_EQ(message("all_gather"), Bytes(8 * 1'048'576));
  EXPECT_EQ(message("all_to_all"), Bytes(1'048'576 / 8));
  EXPECT_EQ(message("all_reduce"), Bytes(1'048'576));
  EXPECT_EQ(message("reduce_scatter"), Bytes(1'048'576));
}

// An all-to-all buffer that does not split evenly: each flow takes the
// floor, as ASTRA-sim's integer division, and a warning says what is dropped.
TEST(ChakraSemantics, AnUnevenAllToAllSaysWhatItDrops) {
  const auto a2a = node(0, "a2a", 7, {}, {chakra_int("comm_type", 6), chakra_int("comm_size", 1000)});
  const ExperimentConfig c = chakra_semantics_load(write({{a2a}, {a2a}, {a2a}}), 3);
  EXPECT_EQ(c.graph->nodes()[0].message, Bytes(333));
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("all-to-all comm_size 1000 is not a multiple of its 3 ranks: each flow is 333 bytes"),
            std::string::npos)
      << c.warnings[0];
}

// Chakra's own generator writes GlobalMetadata version 1.0.0: the same wire
// format, read the same way.
TEST(ChakraSemantics, ChakraGeneratorTracesOfSchemaOneLoad) {
  const ExperimentConfig ar = chakra_semantics_load(external("chakra/generator/ALL_REDUCE"), 4);
  ASSERT_EQ(ar.graph->nodes().size(), 1u);
  EXPECT_EQ(ar.graph->nodes()[0].collective, Collective::allreduce);
  EXPECT_EQ(ar.graph->nodes()[0].message, Bytes(65536));
  EXPECT_EQ(chakra_semantics_load(external("chakra/generator/BROADCAST"), 4).graph->nodes()[0].root, 0);
  const ExperimentConfig comp = chakra_semantics_load(external("chakra/generator/two_comp_nodes_dependent"), 4);
  EXPECT_EQ(comp.graph->nodes().size(), 8u);
  EXPECT_EQ(chakra_semantics_named(*comp.graph, "r2.29.COMP_NODE").after,
            (std::vector<std::string>{"r2.28.COMP_NODE"}));
  EXPECT_EQ(chakra_semantics_named(*comp.graph, "r2.29.COMP_NODE").duration, Time::us(5));
}

// ASTRA-sim's MSCCL-converted ring AllReduce: 8 ranks, 14 sends each.
TEST(ChakraSemantics, AstraSimMscclConvertedTraceLoads) {
  const ExperimentConfig c = chakra_semantics_load(
      external("astra-sim/custom_collectives/custom_ring_allreduce_8npus_1MB/custom_allreduce"), 8);
  EXPECT_EQ(count(*c.graph, TaskKind::p2p), 8u * 14u);
  EXPECT_EQ(count(*c.graph, TaskKind::compute), 8u * 7u);
}

// One rank's PyTorch trace, collected and converted by Chakra: refused
// alone with the way out in the message, run with replicate: N.
TEST(ChakraSemantics, OneRanksPyTorchTraceRunsReplicated) {
  const std::string prefix = std::string(PHOTONSIM_EXTERNAL_DIR) + "/chakra_feeder/tests/data/chakra";
  EXPECT_NE(error_of(prefix, 2).find("give replicate: N to run it on N ranks"), std::string::npos);
  const ExperimentConfig c = chakra_semantics_load(prefix, 2, ", replicate: 2");
  const TaskGraph& g = *c.graph;
  EXPECT_EQ(count(g, TaskKind::collective), 7u);  // 5 AllReduces, 2 broadcasts
  for (const TaskNode& n : g.nodes()) {
    if (n.kind == TaskKind::collective) {
      EXPECT_EQ(n.gpus, (std::vector<int>{0, 1})) << n.name;
    }
  }
  EXPECT_EQ(chakra_semantics_named(g, "world.c0.broadcast").message, Bytes(212480));
  EXPECT_GT(count(g, TaskKind::delay), 2000u);
  EXPECT_GT(count(g, TaskKind::compute), 1000u);
  EXPECT_NE(error_of(prefix, 2, ", replicate: 1").find("replicate"), std::string::npos);
}

TEST(ChakraSemantics, ReplicateRefusesSendsAndSecondFiles) {
  const std::string sends = write({{send(0, 1, 4096)}});
  EXPECT_NE(error_of(sends, 2, ", replicate: 4").find("a send names a fixed peer rank"), std::string::npos);
  const std::string two = write({{compute(0, 1)}, {compute(0, 1)}});
  EXPECT_NE(error_of(two, 2, ", replicate: 2").find(two + ".1.et: replicate runs one rank's trace on every rank"),
            std::string::npos);
}

}  // namespace
}  // namespace photonsim
