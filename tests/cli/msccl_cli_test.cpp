// MSCCL XML through the binary: synth --out FILE.xml writes an algorithm that,
// read back as synthesis.algorithm: {type: msccl, file}, runs in the same
// simulated time; the shipped hand-written algorithms run; malformed files
// and schedules MSCCL cannot express are refused in one line.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/cli/hostile_run.h"
#include "tests/support/json_value.h"
#include "tests/support/test_paths.h"

namespace photonsim_test {
namespace {

using photonsim::testing_support::parse_json;

const std::string kSource = PHOTONSIM_SOURCE_DIR;

class MscclCli : public Hostile {};

int64_t measured(const HostileOutcome& o) { return parse_json(o.out).at("measured_ps").integer(); }

TEST_F(MscclCli, SynthesizedAlgorithmExportedAndReadBackRunsInTheSameTime) {
  const std::string config = kSource + "/configs/quickstart.yaml";
  const std::string xml = (dir_ / "direct.xml").string();
  const HostileOutcome synth = run({"synth", config, "--out", xml});
  ASSERT_EQ(synth.code, 0) << synth.err;
  EXPECT_EQ(slurp(xml).rfind("<algo name=\"photonsim direct / static\"", 0), 0u);
  const HostileOutcome original = run({"run", config, "--format", "json"});
  ASSERT_EQ(original.code, 0) << original.err;
  const HostileOutcome imported =
      run({"run", config, "--format", "json", "--set", "synthesis.algorithm={type: msccl, file: " + xml + "}"});
  ASSERT_EQ(imported.code, 0) << imported.err;
  EXPECT_EQ(parse_json(imported.out).at("algorithm").text, "msccl");
  EXPECT_EQ(measured(imported), measured(original));
  // Deterministic: the same export byte for byte.
  const std::string again = (dir_ / "again.xml").string();
  ASSERT_EQ(run({"synth", config, "--out", again}).code, 0);
  EXPECT_EQ(slurp(again), slurp(xml));
}

TEST_F(MscclCli, ShippedHandWrittenAlgorithmsRunInTheirHandComputedTimes) {
  const HostileOutcome ring = run({"run", kSource + "/configs/msccl/ring_allreduce_4.yaml", "--format", "json"});
  ASSERT_EQ(ring.code, 0) << ring.err;
  EXPECT_EQ(measured(ring), 6 * 510'000);
  const HostileOutcome pairs = run({"run", kSource + "/configs/msccl/allpairs_alltoall_4.yaml", "--format", "json"});
  ASSERT_EQ(pairs.code, 0) << pairs.err;
  EXPECT_EQ(measured(pairs), 510'000);
}

// Issue 32, finding 3: the ring AllReduce with nchunksperloop raised from 4
// to 8 (or 1,000,000) moves half (a millionth) of the buffer. Before: run
// reported a time for it with exit 0. Every command that synthesizes from the
// file now proves it first.
TEST_F(MscclCli, AnAlgorithmThatLeavesPartOfTheBufferUnreducedIsRefusedByEveryVerb) {
  std::string xml = slurp(kSource + "/configs/msccl/ring_allreduce_4.xml");
  const std::string four = "nchunksperloop=\"4\"";
  ASSERT_NE(xml.find(four), std::string::npos);
  const std::string config = write("c.yaml", slurp(kSource + "/configs/msccl/ring_allreduce_4.yaml"));
  for (const char* chunks : {"8", "1000000"}) {
    std::string changed = xml;
    changed.replace(changed.find(four), four.size(), std::string("nchunksperloop=\"") + chunks + "\"");
    write("ring_allreduce_4.xml", changed);
    for (const std::vector<std::string>& args : {std::vector<std::string>{"run", config},
                                                 {"run", config, "--fidelity", "analytical"},
                                                 {"synth", config, "--out", (dir_ / "s.pb").string()},
                                                 {"verify", config}}) {
      const HostileOutcome o = run(args);
      EXPECT_EQ(o.code, 1) << args[0] << " nchunksperloop=" << chunks << ": " << o.out << o.err;
      EXPECT_NE(o.err.find("block 4: node 0 ends with block 4 missing the input of node 1"), std::string::npos)
          << args[0] << ": " << o.err;
    }
    EXPECT_FALSE(fs::exists(dir_ / "s.pb"));
    // plan ranks what each planner would do: none can place it, each says why.
    // Each planner plans and verifies every block: a million of them take
    // ~13 s under AddressSanitizer (scripts/test). Speed is not what this checks.
    const HostileOutcome plan = run({"plan", config}, HostileLimits{120});
    ASSERT_EQ(plan.code, 0) << plan.err;
    std::istringstream rows(plan.out);
    std::string row;
    std::getline(rows, row);  // the header
    int refused = 0;
    while (std::getline(rows, row)) {
      if (row.empty()) continue;
      EXPECT_NE(row.find("cannot: "), std::string::npos) << row;
      if (row.find("missing the input of node 1") != std::string::npos) ++refused;
    }
    EXPECT_GE(refused, 3) << plan.out;
  }
}

TEST_F(MscclCli, ShippedExportIsWhatTheReadmeCommandWrites) {
  const std::string xml = (dir_ / "swing.xml").string();
  const HostileOutcome synth = run(
      {"synth", kSource + "/configs/harvest_paper/swing_allreduce_32.yaml", "--set", "fabric.gpus=16", "--out", xml});
  ASSERT_EQ(synth.code, 0) << synth.err;
  EXPECT_EQ(slurp(xml), slurp(kSource + "/configs/msccl/swing_allreduce_16.xml"));
  // Read back, it runs in the built-in swing's time.
  const HostileOutcome imported = run({"run", kSource + "/configs/msccl/swing_allreduce_16.yaml", "--format", "json"});
  const HostileOutcome builtin = run({"run", kSource + "/configs/harvest_paper/swing_allreduce_32.yaml", "--set",
                                      "fabric.gpus=16", "--format", "json"});
  ASSERT_EQ(imported.code, 0) << imported.err;
  ASSERT_EQ(builtin.code, 0) << builtin.err;
  EXPECT_EQ(measured(imported), measured(builtin));
}

TEST_F(MscclCli, MalformedAlgorithmsAreRefusedNamingFileLineAndElement) {
  std::string text = slurp(kSource + "/configs/msccl/ring_allreduce_4.xml");
  const std::string cut = " depid=\"-1\"";
  text.erase(text.find(cut), cut.size());
  const std::string bad = write("bad.xml", text);
  refuse({"run", kSource + "/configs/msccl/ring_allreduce_4.yaml", "--set", "synthesis.algorithm.file=" + bad},
         {"bad.xml:8:", "<gpu id=0> <tb id=0> <step s=0>", "attribute 'depid' is missing"});
  refuse({"run", kSource + "/configs/msccl/ring_allreduce_4.yaml", "--set", "fabric.gpus=8"},
         {"ring_allreduce_4.xml", "ngpus = 4", "fabric.gpus is 8"});
  refuse({"run", kSource + "/configs/msccl/ring_allreduce_4.yaml", "--set", "synthesis.algorithm.file=missing.xml"},
         {"missing.xml", "cannot read"});
}

TEST_F(MscclCli, SchedulesMscclCannotExpressAreNotWritten) {
  // Flows of their own sizes: MSCCL chunks are all one size.
  const std::string xml = (dir_ / "sized.xml").string();
  refuse({"synth", kSource + "/configs/quickstart.yaml", "--out", xml, "--set", "workload.distribution=random", "--set",
          "synthesis.algorithm=pairwise", "--set", "synthesis.planner=joint"},
         {"sized.xml", "MSCCL", "one size"});
  EXPECT_FALSE(fs::exists(xml));
}

}  // namespace
}  // namespace photonsim_test
