// photonsim availability end to end on the shipped studies: the same bytes
// twice, the JSON contract (docs/cli.md, "availability"), --set recorded,
// and the command line's refusals (exit 2 for a bad option, 1 for a config
// that cannot be studied; `run` points at this verb).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/hostile_run.h"
#include "tests/support/json_value.h"
#include "tests/support/shipped_configs.h"

namespace photonsim_test {
namespace {

using photonsim::testing_support::JsonValue;
using photonsim::testing_support::parse_json;

class AvailabilityCli : public Hostile {};

TEST_F(AvailabilityCli, ShippedStudiesGiveTheSameBytesTwiceWithEveryContractKey) {
  const std::vector<fs::path> configs = photonsim::testing_support::shipped_availability_configs();
  ASSERT_FALSE(configs.empty());
  for (const fs::path& config : configs) {
    const std::vector<std::string> args{"availability", config.string(), "--days", "30", "--seeds", "3",
                                        "--policies", "all", "--format", "json"};
    const HostileOutcome a = run(args);
    ASSERT_EQ(a.code, 0) << config << ": " << a.err;
    const HostileOutcome b = run(args);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(a.out, b.out) << config;  // no wall time in the JSON
    const JsonValue doc = parse_json(a.out);
    for (const char* key : {"config", "sets", "days", "seeds", "first_seed", "fidelity", "gpus", "ports", "rates",
                            "healthy_iteration_ps", "healthy_per_hour", "outages_per_seed", "states", "policies",
                            "highest_goodput"})
      EXPECT_NE(doc.find(key), nullptr) << config << " lacks " << key;
    EXPECT_EQ(doc.at("seeds").integer(), 3);
    EXPECT_EQ(doc.at("policies").items.size(), 4u);
    EXPECT_TRUE(doc.at("sets").items.empty());
    const int64_t healthy = doc.at("healthy_iteration_ps").integer();
    for (const JsonValue& policy : doc.at("policies").items) {
      // No policy beats the healthy fabric, and no iteration is shorter than the healthy one.
      EXPECT_LE(std::stod(policy.at("goodput_pct").text), 100.0) << policy.at("policy").text;
      EXPECT_GE(policy.at("iteration_ps").at("p50").integer(), healthy);
    }
    // `run` refuses the study's random failures and names the verb that draws them.
    const HostileOutcome single = run({"run", config.string()});
    EXPECT_EQ(single.code, 1) << single.out;
    EXPECT_NE(single.err.find("fabric.random_failures"), std::string::npos) << single.err;
    EXPECT_NE(single.err.find("photonsim availability"), std::string::npos) << single.err;
  }
}

TEST_F(AvailabilityCli, OverridesAreRecordedAndChangeTheStudy) {
  const std::string config = photonsim::testing_support::shipped_availability_configs().front().string();
  const HostileOutcome healthy = run({"availability", config, "--days", "1", "--seeds", "1", "--policies",
                                      "abort_restart", "--format", "json"});
  ASSERT_EQ(healthy.code, 0) << healthy.err;
  const HostileOutcome fixed = run({"availability", config, "--days", "1", "--seeds", "1", "--set",
                                    "synthesis.planner=static", "--set", "fabric.random_failures.seed=5",
                                    "--policies", "abort_restart", "--format", "json"});
  ASSERT_EQ(fixed.code, 0) << fixed.err;
  const JsonValue doc = parse_json(fixed.out);
  ASSERT_EQ(doc.at("sets").items.size(), 2u);
  EXPECT_EQ(doc.at("sets").items[0].text, "synthesis.planner=static");
  EXPECT_EQ(doc.at("sets").items[1].text, "fabric.random_failures.seed=5");
  EXPECT_EQ(doc.at("first_seed").integer(), 5);
  // The static planner's iteration is not the reconfigurable fabric's.
  EXPECT_NE(doc.at("healthy_iteration_ps").integer(), parse_json(healthy.out).at("healthy_iteration_ps").integer());
}

TEST_F(AvailabilityCli, BadOptionsAreUsageErrorsAndAnUnstudiableConfigIsBadInput) {
  const std::string config = photonsim::testing_support::shipped_availability_configs().front().string();
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> usage = {
      {{"--days", "0"}, {"--days", "1..106"}},
      {{"--days", "107"}, {"--days", "1..106"}},
      {{"--seeds", "0"}, {"--seeds"}},
      {{"--policies", "retry"}, {"retry", "replan", "wait", "static_fallback", "abort_restart", "all"}},
      {{"--policies", "wait,wait"}, {"wait", "twice"}},
      {{"--format", "xml"}, {"xml"}}};
  for (const auto& [options, fragments] : usage) {
    std::vector<std::string> args{"availability", config};
    args.insert(args.end(), options.begin(), options.end());
    const HostileOutcome o = run(args);
    expect_refused(o, options[0] + " " + options[1], fragments);
    EXPECT_EQ(o.code, 2) << options[0] << " " << options[1] << ": " << o.err;
  }
  // A config without random_failures cannot be studied: exit 1 naming the key.
  const std::string quickstart = (fs::path(PHOTONSIM_SOURCE_DIR) / "configs" / "quickstart.yaml").string();
  const HostileOutcome none = run({"availability", quickstart});
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.err.find("fabric.random_failures"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace photonsim_test
