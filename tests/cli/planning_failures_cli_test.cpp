// Failures known when planning through the binary (docs/model.md, "Failures
// known when planning"; docs/cli.md, `plan`): `photonsim plan` says what each
// took away, in text and JSON, and ranks plans made on the surviving
// switches; every switch failed at 0 is exit 1, "cannot complete", at the
// entry's line, for every verb that plans.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/hostile_run.h"

namespace photonsim_test {
namespace {

class PlanningFailuresCli : public Hostile {
 protected:
  // RHD reduce-scatter on 4 GPUs and 2 switches under PCCL, with `failures` (entries from line 10).
  std::string planning_config(const std::string& failures) {
    return write("exp.yaml",
                 "workload: {collective: reducescatter, message: 4MB, chunk: whole}\n"  // 1
                 "synthesis: {algorithm: rhd, planner: pccl, topology: ring}\n"         // 2
                 "fabric:\n"                                                            // 3
                 "  gpus: 4\n"                                                          // 4
                 "  ports: 2\n"                                                         // 5
                 "  bandwidth: 800Gbps\n"                                               // 6
                 "  latency: 500ns\n"                                                   // 7
                 "  reconfig_delay: 1us\n"                                              // 8
                 "  failures:\n" +                                                      // 9
                     failures);                                                         // 10, ...
  }
};

TEST_F(PlanningFailuresCli, PlanShowsWhatEachFailureTookAway) {
  const std::string config = planning_config(
      "    - {kind: switch, switch: 0, at: 0s}\n"
      "    - {kind: switch, switch: 1, at: 5us}\n");
  const HostileOutcome text = run({"plan", config});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("failures known when planning:\n"
                           "  fabric.failures[0] (switch 0, at 0): switch 0 excluded: 2 of 2 ports -> 1\n"
                           "every topology planned on 1 port (switch 1)\n"
                           "\n"
                           "planner ",
                           0),
            0u)
      << text.out;
  // PCCL on one port: each round's own circuits, 21.5 us + 11.5 us.
  EXPECT_NE(text.out.find("\npccl                       33us         2  0: step0, 1: step1\n"), std::string::npos)
      << text.out;

  const HostileOutcome json = run({"plan", config, "--format", "json"});
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("  ],\n  \"planning_failures\": {\n    \"configured_ports\": 2,\n    \"planned_ports\": 1,\n"
                          "    \"surviving_switches\": [1],\n    \"entries\": [\n      {\"entry\": 0, \"kind\": "
                          "\"switch\", \"switch\": 0, \"at_ps\": 0, \"for_ps\": null, \"took_away\": \"switch 0 "
                          "excluded: 2 of 2 ports -> 1\"}\n    ]\n  }\n}\n"),
            std::string::npos)
      << json.out;
  EXPECT_EQ(json.out.rfind("{\n  \"best\": ", 0), 0u) << json.out;

  // Without failures known when planning, the output is what it was.
  const HostileOutcome later = run({"plan", planning_config("    - {kind: switch, switch: 0, at: 1us}\n")});
  ASSERT_EQ(later.code, 0) << later.err;
  EXPECT_EQ(later.out.rfind("planner ", 0), 0u) << later.out;
}

// The run of the plan made around switch 0 (on_failure: wait, the policy
// lost circuits run under): 33 us, as planned (PlanningFailuresPccl). A
// schedule planned on both switches and replayed with switch 0 failed is
// refused at the entry's line.
TEST_F(PlanningFailuresCli, RunsThePlanMadeAroundTheSwitchAndRefusesOneThatWasNot) {
  const std::string config = planning_config(
      "    - {kind: switch, switch: 0, at: 0s}\n"
      "  on_failure: wait\n");
  const HostileOutcome ran = run({"run", config, "--format", "json"});
  ASSERT_EQ(ran.code, 0) << ran.err;
  EXPECT_NE(ran.out.find("\"measured_ps\": 33000000,"), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("\"predicted_ps\": 33000000,"), std::string::npos) << ran.out;

  const std::string healthy = (dir_ / "healthy.pb").string();
  const HostileOutcome synthesized = run({"synth", config, "--set", "fabric.failures=[]", "--out", healthy});
  ASSERT_EQ(synthesized.code, 0) << synthesized.err;
  refuse({"replay", healthy, config},
         {config + ":10: fabric.failures[0] (switch 0, at 0): the schedule does not fit the switches that survive "
                   "the failures known when planning (it was not planned around them): topology '"});
}

TEST_F(PlanningFailuresCli, EverySwitchFailedAtZeroCannotComplete) {
  const std::string config = planning_config(
      "    - {kind: switch, switch: 0, at: 0s}\n"
      "    - {kind: switch, switch: 1, at: 0s}\n");
  const std::string message = config +
                              ":11: fabric.failures[1] (switch 1, at 0): cannot complete: GPU 0 has no working port: "
                              "fabric.failures[0] and fabric.failures[1] take every one of the fabric's 2 optical "
                              "switches down for good from the run's start";
  for (const char* verb : {"plan", "verify", "run"}) refuse({verb, config}, {message});
  refuse({"synth", config, "--out", (dir_ / "s.pb").string()}, {message});

  // One of them back at 1 ms: the plan keeps it, and the run waits for it.
  const std::string back = planning_config(
      "    - {kind: switch, switch: 0, at: 0s}\n"
      "    - {kind: switch, switch: 1, at: 0s, for: 1ms}\n");
  const HostileOutcome planned = run({"plan", back});
  ASSERT_EQ(planned.code, 0) << planned.err;
  EXPECT_EQ(planned.out.rfind("failures known when planning:\n"
                              "  fabric.failures[0] (switch 0, at 0): switch 0 excluded: 2 of 2 ports -> 1\n"
                              "  fabric.failures[1] (switch 1, at 0): switch 1 kept: every switch is down at 0, so "
                              "the plan keeps those back later (this one at 1ms) and the run waits for them\n"
                              "every topology planned on 1 port (switch 1)\n",
                              0),
            0u)
      << planned.out;
}

}  // namespace
}  // namespace photonsim_test
