// Production MSCCL algorithms (tests/data/external/README.md): Azure's NDv4
// all-gathers (2-32 chunks per GPU, 4-32 channels, one file per size range)
// and NCv4's hierarchical all-gather, and msccl-tools' own output with
// several instances and channels, read, verified and run in their closed
// forms; a list of files runs the one MSCCL would pick for the size.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/msccl_file_runs.h"
#include "tests/support/test_paths.h"

namespace photonsim_test {
namespace {

using photonsim::testing_support::parse_json;

const std::string kExternal = std::string(PHOTONSIM_SOURCE_DIR) + "/tests/data/external/";
const char* kNdv4[] = {"ag-1k-512k", "ag-1m", "ag-2m", "ag-4m", "ag-8m", "ag-16m", "ag-32m-1g"};

class MscclProduction : public MscclFileRuns {
 protected:
  std::string config(int gpus, const std::string& file, const std::string& message) {
    return MscclFileRuns::config(gpus, "allgather", file, message);
  }
};

TEST_F(MscclProduction, EveryNdv4AllGatherVerifiesAtItsSmallestSize) {
  for (const char* name : kNdv4) {
    const std::string file = kExternal + "msccl-scheduler/ndv4/" + name + ".xml";
    const std::string head = slurp(file).substr(0, 400);
    const size_t at = head.find("minBytes=\"") + 10;
    const std::string min_bytes = head.substr(at, head.find('"', at) - at);
    EXPECT_NE(verified(config(8, file, min_bytes + "B")).find("verified: allgather / msccl on 8 GPUs"),
              std::string::npos)
        << name;
  }
}

// ag-1m: 32 chunks (4 per GPU) on 32 channels, one level: every GPU sends
// its 4 chunks of 32 KiB to each of its 7 peers, each peer on its own port.
TEST_F(MscclProduction, Ndv4AllGatherTakesItsClosedForm) {
  const std::string file = kExternal + "msccl-scheduler/ndv4/ag-1m.xml";
  EXPECT_EQ(measured(config(8, file, "1MiB")), 500'000 + 4 * 32'768 * 10);
}

// NCv4's hierarchical all-gather, out of place, 4 chunks a GPU on 4
// channels: two levels, each moving 4 chunks of 64 KiB a port.
TEST_F(MscclProduction, Ncv4HierarchicalAllGatherTakesItsClosedForm) {
  const std::string file = kExternal + "msccl-scheduler/ncv4/ag_hier_4_Simple.xml";
  EXPECT_NE(verified(config(4, file, "1MiB")).find("(2 steps, 48 transfers, 16 blocks)"), std::string::npos);
  EXPECT_EQ(measured(config(4, file, "1MiB")), 2 * (500'000 + 4 * 65'536 * 10));
  // Below its minBytes MSCCL would not run it: refused, saying why.
  const HostileOutcome small = run({"verify", config(4, file, "4KiB")});
  EXPECT_EQ(small.code, 1);
  EXPECT_NE(small.err.find("MSCCL runs this algorithm for buffers of 792576..1073741824 bytes (minBytes..maxBytes), "
                           "not 4096"),
            std::string::npos)
      << small.err;
}

// Given the seven NDv4 files, the one whose minBytes..maxBytes holds the
// whole buffer runs (MSCCL's choice); none: refused, listing each file's range.
TEST_F(MscclProduction, AListOfFilesRunsTheOneWhoseRangeHoldsTheMessage) {
  std::string list = "[";
  for (const char* name : kNdv4) {
    list += std::string(list.size() > 1 ? ", " : "") + kExternal + "msccl-scheduler/ndv4/" + name + ".xml";
  }
  list += "]";
  const std::string path = config(8, list, "4MiB");
  EXPECT_NE(verified(path, "1KiB").find("16 blocks"), std::string::npos);    // ag-1k-512k
  EXPECT_NE(verified(path, "4MiB").find("32 blocks"), std::string::npos);    // ag-4m
  EXPECT_NE(verified(path, "64MiB").find("256 blocks"), std::string::npos);  // ag-32m-1g
  const HostileOutcome none = run({"verify", path, "--set", "workload.message=2GiB"});
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.err.find("no MSCCL file of the list runs a allgather of 2147483648 bytes"), std::string::npos)
      << none.err;
  EXPECT_NE(none.err.find("ag-32m-1g.xml: allgather on 8 GPUs, 33554432..1073741824 bytes"), std::string::npos);
}

// msccl-tools' own allgather_ring.py 4 2 2 (2 instances: 2 chunks a GPU, 2
// channels a ring) and allgather_a100_pcie.py 4 4 (4 instances): channels
// stay separate transfers, so a level's sends from u to v are one per channel.
TEST_F(MscclProduction, MscclToolsOutputWithInstancesAndChannelsVerifies) {
  EXPECT_NE(verified(config(4, kExternal + "msccl-tools/allgather_ring_4_2_2.xml", "16000B"))
                .find("(3 steps, 24 transfers, 8 blocks)"),
            std::string::npos);
  EXPECT_NE(verified(config(4, kExternal + "msccl-tools/allgather_a100_pcie_4_4.xml", "16000B"))
                .find("(2 steps, 48 transfers, 16 blocks)"),
            std::string::npos);
  // 3 levels of a ring: 2 chunks of 2000 B a GPU each, 540 ns.
  EXPECT_EQ(measured(config(4, kExternal + "msccl-tools/allgather_ring_4_2_2.xml", "16000B")),
            3 * (500'000 + 4'000 * 10));
  // allreduce_a100_ring.py 8 2 2 on a directed ring: 14 levels, each GPU
  // sending 2 chunks of 1000 B (one a channel) to the next.
  const std::string ring =
      write("ring.yaml",
            "fabric: {gpus: 8, ports: 1, circuits: directed, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 5us, "
            "router: store_and_forward}\nworkload: {collective: allreduce, message: 16000B}\nsynthesis:\n  algorithm: "
            "{type: msccl, file: " +
                kExternal + "msccl-tools/allreduce_a100_ring_8_2_2.xml}\n  planner: static\n  topology: ring\n");
  EXPECT_NE(verified(ring).find("(14 steps, 224 transfers, 16 blocks)"), std::string::npos);
  EXPECT_EQ(measured(ring), 14 * (500'000 + 2'000 * 10));
}

// Several chunks a GPU go back out as MSCCL XML (nchunksperloop 16 for 4
// GPUs) and run again in the same time.
TEST_F(MscclProduction, AnAllGatherOfSeveralChunksAGpuIsWrittenBackAsMscclXml) {
  const std::string path = config(4, kExternal + "msccl-tools/allgather_a100_pcie_4_4.xml", "16000B");
  const std::string xml = (dir_ / "back.xml").string();
  ASSERT_EQ(run({"synth", path, "--out", xml}).code, 0);
  EXPECT_NE(slurp(xml).find("nchunksperloop=\"16\" ngpus=\"4\" coll=\"allgather\""), std::string::npos);
  const HostileOutcome back =
      run({"run", path, "--format", "json", "--set", "synthesis.algorithm={type: msccl, file: " + xml + "}"});
  ASSERT_EQ(back.code, 0) << back.err;
  EXPECT_EQ(parse_json(back.out).at("measured_ps").integer(), measured(path));
}

// msccl-tools' own coll="custom" output (alltonext_forward.py 2 1: 16
// GPUs, each GPU's 8 chunks to the next GPU through the nodes' gateways):
// it runs under the workload's collective, and every verb says that nothing
// proves it (a custom collective has no post-condition); it is not written
// back as MSCCL XML, and a saved schedule keeps the mark.
TEST_F(MscclProduction, ACustomCollectiveRunsUnprovenAndSaysSo) {
  const std::string path = write(
      "custom.yaml",
      "fabric: {gpus: 16, ports: 15, circuits: directed, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 5us, "
      "router: store_and_forward}\nworkload: {collective: allreduce, message: 128000B}\nsynthesis:\n  algorithm: "
      "{type: msccl, file: " +
          kExternal + "msccl-tools/alltonext_forward_2_1.xml}\n  planner: static\n  topology: complete\n");
  const HostileOutcome verify = run({"verify", path});
  EXPECT_EQ(verify.code, 0) << verify.err;
  EXPECT_NE(verify.out.find("not verified: allreduce / msccl on 16 GPUs (3 steps, 36 transfers, 128 blocks): a custom "
                            "collective (MSCCL coll=\"custom\") has no post-condition to prove"),
            std::string::npos)
      << verify.out;
  EXPECT_NE(verify.err.find("photonsim: warning:"), std::string::npos);
  const HostileOutcome ran = run({"run", path, "--format", "json"});
  ASSERT_EQ(ran.code, 0) << ran.err;
  EXPECT_NE(ran.err.find("custom collective"), std::string::npos) << ran.err;
  // Level 0: a GPU's 8 chunks of 1000 B (128000 B over 16 x 8 blocks) to
  // the next GPU on one circuit; then two levels of one chunk a port.
  EXPECT_EQ(parse_json(ran.out).at("measured_ps").integer(), (500'000 + 8'000 * 10) + 2 * (500'000 + 1'000 * 10));
  const HostileOutcome xml = run({"synth", path, "--out", (dir_ / "c.xml").string()});
  EXPECT_EQ(xml.code, 1);
  EXPECT_NE(xml.err.find("a custom collective (read from coll=\"custom\") is not written back"), std::string::npos);
  const std::string pb = (dir_ / "c.pb").string();
  ASSERT_EQ(run({"synth", path, "--out", pb}).code, 0);
  EXPECT_NE(run({"verify", pb}).out.find("not verified"), std::string::npos);
}

}  // namespace
}  // namespace photonsim_test
