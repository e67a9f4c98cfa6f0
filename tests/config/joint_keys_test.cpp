// The keys of joint all-to-all synthesis: workload.distribution,
// workload.zipf_factor and synthesis.reconfigurations.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "sim/config/config_loader.h"

namespace photonsim {
namespace {

constexpr const char* kJoint =
    "fabric:\n"                 // 1
    "  gpus: 8\n"               // 2
    "  bandwidth: 800Gbps\n"    // 3
    "  latency: 500ns\n"        // 4
    "workload:\n"               // 5
    "  collective: alltoall\n"  // 6
    "  message: 32MB\n"         // 7
    "synthesis:\n"              // 8
    "  algorithm: rdc\n";       // 9

std::string joint_keys_error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    load_config_from_string(yaml, "exp.yaml", overrides);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(JointKeys, DefaultsAreUniformAndAuto) {
  const ExperimentConfig c = load_config_from_string(kJoint, "exp.yaml", {});
  EXPECT_EQ(c.workload.distribution, FlowDistribution::uniform);
  EXPECT_DOUBLE_EQ(c.workload.zipf_factor, 0.4);
  EXPECT_FALSE(c.synthesis.reconfigurations.has_value());
}

TEST(JointKeys, ParsesDistributionFactorAndReconfigurations) {
  const ExperimentConfig c = load_config_from_string(
      kJoint, "exp.yaml", {"workload.distribution=zipf", "workload.zipf_factor=0.8", "synthesis.reconfigurations=3"});
  EXPECT_EQ(c.workload.distribution, FlowDistribution::zipf);
  EXPECT_DOUBLE_EQ(c.workload.zipf_factor, 0.8);
  EXPECT_EQ(c.synthesis.reconfigurations, 3);
  const ExperimentConfig a =
      load_config_from_string(kJoint, "exp.yaml", {"synthesis.reconfigurations=auto", "workload.distribution=random"});
  EXPECT_FALSE(a.synthesis.reconfigurations.has_value());
  EXPECT_EQ(a.workload.distribution, FlowDistribution::random);
}

TEST(JointKeys, MessageScopeGpuSplitsTheBufferOverTheFlows) {
  const ExperimentConfig c = load_config_from_string(kJoint, "exp.yaml", {"workload.message_scope=gpu"});
  EXPECT_EQ(c.workload.message, Bytes(32'000'000 / 8));
  EXPECT_EQ(load_config_from_string(kJoint, "exp.yaml", {"workload.message_scope=flow"}).workload.message,
            Bytes(32'000'000));
  std::string e = joint_keys_error_of(kJoint, {"workload.message_scope=gpu", "workload.message=7B"});
  EXPECT_NE(e.find("less than one byte each"), std::string::npos) << e;
  e = joint_keys_error_of(kJoint, {"workload.message_scope=gpu", "workload.collective=allreduce"});
  EXPECT_NE(e.find("gpu applies to workload.collective: alltoall"), std::string::npos) << e;
  e = joint_keys_error_of(kJoint, {"workload.message_scope=node"});
  EXPECT_NE(e.find("workload.message_scope must be one of: flow, gpu (got 'node')"), std::string::npos) << e;
}

TEST(JointKeys, BadValuesNameTheKeyAndTheValidValues) {
  std::string e = joint_keys_error_of(std::string(kJoint) + "  reconfigurations: two\n");
  EXPECT_NE(e.find("exp.yaml:10:"), std::string::npos) << e;
  EXPECT_NE(e.find("synthesis.reconfigurations must be auto or an integer >= 1 (got 'two')"), std::string::npos) << e;
  e = joint_keys_error_of(kJoint, {"synthesis.reconfigurations=0"});
  EXPECT_NE(e.find("synthesis.reconfigurations must be an integer >= 1"), std::string::npos) << e;
  e = joint_keys_error_of(kJoint, {"synthesis.reconfigurations=-2"});
  EXPECT_NE(e.find("synthesis.reconfigurations must be auto or an integer >= 1"), std::string::npos) << e;
  e = joint_keys_error_of(kJoint, {"workload.distribution=pareto"});
  EXPECT_NE(e.find("workload.distribution must be one of: uniform, random, zipf (got 'pareto')"), std::string::npos)
      << e;
  e = joint_keys_error_of(kJoint, {"workload.zipf_factor=0.5"});
  EXPECT_NE(e.find("workload.zipf_factor applies only to workload.distribution: zipf"), std::string::npos) << e;
  e = joint_keys_error_of(kJoint, {"workload.distribution=zipf", "workload.zipf_factor=-1"});
  EXPECT_NE(e.find("workload.zipf_factor must be a number in 0..100 (got '-1')"), std::string::npos) << e;
  e = joint_keys_error_of(kJoint, {"workload.distribution=random", "workload.collective=allreduce"});
  EXPECT_NE(e.find("needs workload.collective: alltoall"), std::string::npos) << e;
}

}  // namespace
}  // namespace photonsim
