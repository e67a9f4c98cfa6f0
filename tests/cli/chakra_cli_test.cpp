// Chakra through the binary: synth --out PREFIX --format chakra writes one
// trace per rank that runs back in the schedule's own time; the trace
// options are checked with the key and the values allowed.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli/hostile_run.h"
#include "tests/support/json_value.h"

namespace photonsim_test {
namespace {

using photonsim::testing_support::parse_json;

class ChakraCli : public Hostile {
 protected:
  std::string write_config(const std::string& name, const std::string& text) { return write(name, text); }
};

const char* kFabric =
    "fabric: {gpus: 8, ports: 1, bandwidth: 800Gbps, latency: 500ns, router: store_and_forward, reconfig_delay: ";

TEST_F(ChakraCli, SynthesizedScheduleWrittenAsChakraRunsInItsOwnTime) {
  const std::string config = write_config("rhd.yaml", std::string(kFabric) +
                                                          "1500ns}\nworkload: {collective: allreduce, message: 1MB}\n"
                                                          "synthesis: {algorithm: rhd, planner: every_step}\n");
  const std::string prefix = (dir_ / "rhd").string();
  const HostileOutcome synth = run({"synth", config, "--out", prefix, "--format", "chakra"});
  ASSERT_EQ(synth.code, 0) << synth.err;
  EXPECT_NE(synth.out.find("wrote " + prefix + ".0.et .. " + prefix + ".7.et"), std::string::npos) << synth.out;
  for (int r = 0; r < 8; ++r) EXPECT_TRUE(fs::exists(prefix + "." + std::to_string(r) + ".et")) << r;
  EXPECT_FALSE(fs::exists(prefix + ".8.et"));
  const HostileOutcome original = run({"run", config, "--format", "json"});
  ASSERT_EQ(original.code, 0) << original.err;
  const std::string back =
      write_config("back.yaml", std::string(kFabric) +
                                    "0us}\nworkload:\n  graph: {chakra: rhd}\n"
                                    "synthesis: {algorithm: ring, planner: static, topology: ring}\n");
  const HostileOutcome replayed = run({"run", back, "--format", "json"});
  ASSERT_EQ(replayed.code, 0) << replayed.err;
  EXPECT_EQ(parse_json(replayed.out).at("iteration_ps").integer(),
            parse_json(original.out).at("measured_ps").integer());
  // Deterministic: the same traces byte for byte.
  const std::string again = (dir_ / "again").string();
  ASSERT_EQ(run({"synth", config, "--out", again, "--format", "chakra"}).code, 0);
  for (int r = 0; r < 8; ++r) {
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
