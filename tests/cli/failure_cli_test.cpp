// fabric.failures through the binary (issue 55, item 1): a bad entry is exit 1
// naming its index, key and line; a good one is read and checked, accepted by
// verify, and - where no engine simulates it (a degraded link under
// cut-through here) - refused with exit 1 at the entry by every verb that
// simulates (run, replay, sweep). A port failure runs under on_failure: wait and reports its
// losses; one that leaves a GPU no working port is exit 1, "cannot complete".
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/hostile_run.h"

namespace photonsim_test {
namespace {

class FailureCli : public Hostile {
 protected:
  // An all-to-all on 8 GPUs and 2 ports, with `failures` (entries from line 9).
  std::string failing_config(const std::string& failures) {
    return write("exp.yaml",
                 "workload: {collective: alltoall, message: 1MB}\n"  // 1
                 "synthesis: {algorithm: direct, topology: ring}\n"  // 2
                 "fabric:\n"                                         // 3
                 "  gpus: 8\n"                                       // 4
                 "  ports: 2\n"                                      // 5
                 "  bandwidth: 800Gbps\n"                            // 6
                 "  latency: 500ns\n"                                // 7
                 "  failures:\n" +                                   // 8
                     failures);                                      // 9, ...
  }
};

constexpr const char* kNoEngineYet =
    "fabric.failures[0] (link): cut-through forwarding assumes every circuit runs at one rate";

TEST_F(FailureCli, EveryVerbThatSimulatesRefusesAFailingFabric) {
  const std::string config = failing_config(
      "    - {kind: link, gpu: 3, port: 0, bandwidth: 200Gbps}\n"
      "    - {kind: straggler, gpu: 6, slowdown: 1.3}\n"
      "  router: cut_through\n");
  refuse({"run", config}, {config + ":9: " + kNoEngineYet});
  refuse({"run", config, "--fidelity", "analytical"}, {config + ":9: " + kNoEngineYet});
  const HostileOutcome verified = run({"verify", config});
  EXPECT_EQ(verified.code, 0) << verified.err;
  const std::string schedule = (dir_ / "s.pb").string();
  const HostileOutcome synthesized = run({"synth", config, "--out", schedule});
  ASSERT_EQ(synthesized.code, 0) << synthesized.err;
  refuse({"replay", schedule, config}, {config + ":9: " + kNoEngineYet});
  const std::string sweep = write("sweep.yaml", "base: exp.yaml\ngrid:\n  fabric.failure_detection: [1us, 10us]\n");
  const HostileOutcome swept = run({"sweep", sweep, "--out", (dir_ / "sw").string(), "--jobs", "1"});
  EXPECT_EQ(swept.code, 1) << swept.err;
  EXPECT_NE(swept.err.find("point 0 (fabric.failure_detection=1us): " + config + ":9: " + kNoEngineYet),
            std::string::npos)
      << swept.err;
  // Without the failures it runs.
  EXPECT_EQ(run({"run", config, "--set", "fabric.failures=[]"}).code, 0);
}

TEST_F(FailureCli, APortFailureRunsUnderWaitAndAGpuWithNoWorkingPortCannotComplete) {
  const std::string config = failing_config(
      "    - {kind: port, gpu: 3, port: 0, at: 1us, for: 20us}\n"
      "  failure_detection: 2us\n"
      "  on_failure: wait\n");
  const HostileOutcome ran = run({"run", config, "--format", "json"});
  ASSERT_EQ(ran.code, 0) << ran.err;
  EXPECT_NE(ran.out.find("\"failures\": [\n    {\"kind\": \"port\", \"entry\": 0, \"gpu\": 3, \"port\": 0, \"at_ps\": "
                         "1000000, \"for_ps\": 20000000, \"lost_packets\": "),
            std::string::npos)
      << ran.out;
  EXPECT_NE(ran.out.find("\"loss\": {\"lost_packets\": "), std::string::npos) << ran.out;
  EXPECT_EQ(ran.out.find("\"lost_packets\": 0,"), std::string::npos) << "the failure strikes mid-transfer\n" << ran.out;
  // Both of GPU 3's ports, for good: it keeps none.
  const std::string dead = failing_config(
      "    - {kind: port, gpu: 3, port: 0, at: 1us}\n"
      "    - {kind: port, gpu: 3, port: 1, at: 1us}\n"
      "  on_failure: wait\n");
  refuse({"run", dead}, {"photonsim: error: cannot complete: GPU 3 has no working port"});
}

TEST_F(FailureCli, ABadEntryNamesItsIndexKeyAndLine) {
  const std::string config = failing_config(
      "    - {kind: port, gpu: 3, port: 0, at: 50us, for: 1ms}\n"
      "    - {kind: switch, switch: 2}\n");
  refuse({"verify", config},
         {config + ":10: fabric.failures[1].switch must be an optical switch in 0..1 (fabric.ports is 2: port p of "
                   "every GPU is on switch p; got '2')"});
  refuse({"run", config}, {config + ":10: fabric.failures[1].switch"});
}

}  // namespace
}  // namespace photonsim_test
