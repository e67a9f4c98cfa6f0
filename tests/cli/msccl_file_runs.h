#pragma once
// Contract (tests): runs algorithm files (MSCCL XML, MSCCL++ plans) through
// the CLI on GPUs joined by the complete graph of directed circuits, 800 Gbps
// (10 ps a byte), 500 ns a hop, store-and-forward, whole transfers, as the
// closed forms of tests/cli/msccl_production_test.cpp and
// mscclpp_plan_test.cpp assume.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/hostile_run.h"
#include "tests/support/json_value.h"

namespace photonsim_test {

class MscclFileRuns : public Hostile {
 protected:
  static constexpr int64_t kHop = 500'000;
  static constexpr int64_t kPsPerByte = 10;

  std::string config(int gpus, const std::string& collective, const std::string& file, const std::string& message) {
    return write("c.yaml", "fabric: {gpus: " + std::to_string(gpus) + ", ports: " + std::to_string(gpus - 1) +
                               ", circuits: directed, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 5us, "
                               "router: store_and_forward}\nworkload: {collective: " +
                               collective + ", message: " + message +
                               "}\nsynthesis:\n  algorithm: {type: msccl, file: " + file +
                               "}\n  planner: static\n  topology: complete\n");
  }
  // `verify`'s output (at `message` when given); the exit must be 0.
  std::string verified(const std::string& path, const std::string& message = "") {
    std::vector<std::string> args{"verify", path};
    if (!message.empty()) args.insert(args.end(), {"--set", "workload.message=" + message});
    const HostileOutcome o = run(args);
    EXPECT_EQ(o.code, 0) << o.err;
    return o.out;
  }
  int64_t measured(const std::string& path) {
    const HostileOutcome o = run({"run", path, "--format", "json"});
    EXPECT_EQ(o.code, 0) << o.err;
    return o.code == 0 ? photonsim::testing_support::parse_json(o.out).at("measured_ps").integer() : -1;
  }
};

}  // namespace photonsim_test
