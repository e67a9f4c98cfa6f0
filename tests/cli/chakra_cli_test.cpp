// Chakra through the binary: synth --out PREFIX --format chakra writes one
// trace per rank that runs back as the schedule, in its own time; the trace
// options are checked with the key and the values allowed.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli/hostile_run.h"
#include "tests/support/json_value.h"
#include "tests/support/test_paths.h"

namespace photonsim_test {
namespace {

using photonsim::testing_support::parse_json;

class ChakraCli : public Hostile {
 protected:
  std::string write_config(const std::string& name, const std::string& text) { return write(name, text); }
};

const char* kFabric =
    "fabric: {gpus: 8, ports: 1, bandwidth: 800Gbps, latency: 500ns, router: store_and_forward, reconfig_delay: ";

// The README tutorial's fabric (issue 51): RHD AllReduce of 16 MB on 16
// GPUs, every step on its own circuits, alpha_r = 10 us, 374 us. Its traces,
// run back at the same config, took 444 us: each of the 7 reconfigurations
// was charged as an exported compute node and again as the sends' circuit
// set-ups. Now they are read back as the schedule, in 374 us to the
// picosecond, and the schedule they hold converts back to a .pb file.
TEST_F(ChakraCli, SynthesizedScheduleWrittenAsChakraRunsInItsOwnTime) {
  const std::string fabric =
      "fabric: {gpus: 16, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 10us}\n"
      "synthesis: {algorithm: rhd, planner: auto, topology: ring}\n";
  const std::string config = write_config("rhd.yaml", fabric + "workload: {collective: allreduce, message: 16MB}\n");
  const std::string prefix = (dir_ / "rhd").string();
  const HostileOutcome synth = run({"synth", config, "--out", prefix, "--format", "chakra"});
  ASSERT_EQ(synth.code, 0) << synth.err;
  EXPECT_NE(synth.out.find("wrote " + prefix + ".0.et .. " + prefix + ".15.et"), std::string::npos) << synth.out;
  for (int r = 0; r < 16; ++r) EXPECT_TRUE(fs::exists(prefix + "." + std::to_string(r) + ".et")) << r;
  EXPECT_FALSE(fs::exists(prefix + ".16.et"));
  const HostileOutcome original = run({"run", config, "--format", "json"});
  ASSERT_EQ(original.code, 0) << original.err;
  EXPECT_EQ(parse_json(original.out).at("measured_ps").integer(), 374'000'000);
  const std::string back = write_config("back.yaml", fabric + "workload:\n  graph: {chakra: rhd}\n");
  const HostileOutcome replayed = run({"run", back, "--format", "json"});
  ASSERT_EQ(replayed.code, 0) << replayed.err;
  EXPECT_EQ(replayed.err, "");
  EXPECT_EQ(parse_json(replayed.out).at("measured_ps").integer(), 374'000'000);
  EXPECT_EQ(parse_json(replayed.out).at("reconfigurations").integer(), 7);
  // The schedule the traces hold, written as a schedule file, replays the same.
  const std::string pb = (dir_ / "back.pb").string();
  ASSERT_EQ(run({"synth", back, "--out", pb}).code, 0);
  const HostileOutcome from_pb = run({"replay", pb, config, "--format", "json"});
  ASSERT_EQ(from_pb.code, 0) << from_pb.err;
  EXPECT_EQ(parse_json(from_pb.out).at("measured_ps").integer(), 374'000'000);
  // plan has no planners to rank for a fixed schedule, and replay takes one
  // schedule, not a config of traces: each says so in one line.
  const HostileOutcome plan = run({"plan", back});
  EXPECT_EQ(plan.code, 1);
  EXPECT_NE(plan.err.find("the Chakra traces are photonsim's export of a schedule"), std::string::npos) << plan.err;
  EXPECT_EQ(run({"replay", pb, back}).code, 1);
  // Deterministic: the same traces byte for byte.
  const std::string again = (dir_ / "again").string();
  ASSERT_EQ(run({"synth", config, "--out", again, "--format", "chakra"}).code, 0);
  for (int r = 0; r < 16; ++r) {
    EXPECT_EQ(slurp(again + "." + std::to_string(r) + ".et"), slurp(prefix + "." + std::to_string(r) + ".et"));
  }
}

TEST_F(ChakraCli, AnUnknownSynthFormatListsTheValidOnes) {
  const HostileOutcome o = run({"synth", std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml", "--out",
                                (dir_ / "x").string(), "--format", "astra"});
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("--format: unknown format 'astra' (valid: chakra)"), std::string::npos) << o.err;
}

TEST_F(ChakraCli, TraceOptionsAreCheckedWithTheirKey) {
  const std::string trace = std::string(PHOTONSIM_SOURCE_DIR) + "/configs/chakra/dp_tp_8/trace";
  const auto error_of = [&](const std::string& options) {
    const std::string config =
        write_config("bad.yaml", std::string(kFabric) + "5us}\nworkload:\n  graph: {chakra: " + trace + options +
                                     "}\nsynthesis: {algorithm: ring, planner: static, topology: ring}\n");
    const HostileOutcome o = run({"run", config});
    EXPECT_EQ(o.code, 1) << options << ": " << o.err;
    return o.err;
  };
  EXPECT_NE(error_of(", algorithms: {allreduce: nosuch}").find("nosuch"), std::string::npos);
  EXPECT_NE(error_of(", algorithms: {gather: ring}").find("workload.graph.algorithms"), std::string::npos);
  EXPECT_NE(error_of(", algorithms: [ring]").find("must be a map from a collective"), std::string::npos);
  EXPECT_NE(error_of(", replicate: 1").find("workload.graph.replicate"), std::string::npos);
  EXPECT_NE(error_of(", repeat: 2").find("valid keys: chakra, replicate, algorithms"), std::string::npos);
}

}  // namespace
}  // namespace photonsim_test
