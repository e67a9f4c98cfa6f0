// photonsim physical end to end on the shipped PCCL physical-layer config:
// every configuration's routing (table and JSON), one step circuit by
// circuit, refusals (no fabric.physical, a step outside the schedule), and
// replay refusing a schedule whose configurations the hardware lacks.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/hostile_run.h"
#include "tests/support/json_value.h"
#include "tests/support/test_paths.h"

namespace photonsim_test {
namespace {

using photonsim::testing_support::parse_json;

const std::string kConfig = std::string(PHOTONSIM_SOURCE_DIR) + "/configs/pccl_paper/physical_rhd_16.yaml";

class PhysicalCli : public Hostile {};

TEST_F(PhysicalCli, ReportsEveryConfigurationOfTheSchedule) {
  const HostileOutcome table = run({"physical", kConfig});
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("steps initial,0,1: ring"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("fibers per edge"), std::string::npos);
  const HostileOutcome json = run({"physical", kConfig, "--format", "json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto doc = parse_json(json.out);
  const auto& configurations = doc.at("configurations").items;
  ASSERT_EQ(configurations.size(), 3u);  // the ring, then the two rounds inside servers
  for (const auto& c : configurations) {
    EXPECT_TRUE(c.at("exists").boolean);
    EXPECT_LE(c.at("fibers_needed").integer(), 2);
    EXPECT_EQ(c.at("circuits").integer(), 16);
  }
  // Every circuit inside its server in the last round: no fiber.
  EXPECT_EQ(configurations.back().at("fibers_needed").integer(), 0);
}

// A failed MZI at the end of a fiber (server 0's row 2, col 7: a fiber
// between servers 0 and 1) loses it both ways; the report says so, and a
// healthy report has neither the line nor the key.
TEST_F(PhysicalCli, ShowsTheFibersAFailedMziTookAway) {
  const std::string failed = "fabric.failures=[{kind: mzi, server: 0, row: 2, col: 7}]";
  const HostileOutcome table = run({"physical", kConfig, "--set", failed});
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("  fibers lost         0->1: 1, 1->0: 1 (to failed MZIs; counted in fibers per edge)\n"),
            std::string::npos)
      << table.out;
  const HostileOutcome json = run({"physical", kConfig, "--set", failed, "--format", "json"});
  ASSERT_EQ(json.code, 0) << json.err;
  int lost_edges = 0;
  const auto doc = parse_json(json.out);
  for (const auto& c : doc.at("configurations").items)
    for (const auto& e : c.at("edges").items)
      if (const auto* lost = e.find("lost")) {
        EXPECT_EQ(lost->integer(), 1);
        EXPECT_EQ(e.at("from").integer() + e.at("to").integer(), 1);  // 0->1 or 1->0
        ++lost_edges;
      }
  EXPECT_EQ(lost_edges, 2);  // both ways, in the ring (the rounds inside servers route no fiber)
  const HostileOutcome healthy = run({"physical", kConfig});
  EXPECT_EQ(healthy.out.find("fibers lost"), std::string::npos);
  EXPECT_EQ(run({"physical", kConfig, "--format", "json"}).out.find("\"lost\""), std::string::npos);
}

TEST_F(PhysicalCli, OneStepCircuitByCircuit) {
  const HostileOutcome json = run({"physical", kConfig, "--step", "1", "--format", "json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto doc = parse_json(json.out);
  const auto& routes = doc.at("configurations").items.at(0).at("circuit_routes").items;
  ASSERT_EQ(routes.size(), 16u);
  for (const auto& r : routes) {
    const int64_t hops = r.at("fiber_hops").integer();
    EXPECT_EQ(static_cast<int64_t>(r.at("servers").items.size()), hops + 1);
    EXPECT_GE(r.at("mzis").integer(), 2);
  }
}

TEST_F(PhysicalCli, RefusesWhatItCannotShow) {
  refuse({"physical", std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml"},
         {"quickstart.yaml", "needs a fabric.physical section"});
  refuse({"physical", kConfig, "--step", "9"}, {"--step 9", "steps 0..3"});
  refuse({"run", std::string(PHOTONSIM_SOURCE_DIR) + "/configs/training/chakra_dp_tp_8.yaml", "--set",
          "fabric.physical={servers: 2x2, tiles: 1x2, mesh: 4x4}"},
         {"chakra_dp_tp_8.yaml:", "workload.graph cannot run on fabric.physical yet"});
  refuse({"physical", kConfig, "--set", "synthesis.planner=every_step", "--set", "synthesis.topology=none"},
         {"every_step", "step 0's configuration", "need 4 fibers from server 0 to server 2"});
}

TEST_F(PhysicalCli, ReplayRefusesASchedulePlannedWithoutThePhysicalLayer) {
  // Planned on plenty of fibers, replayed where each edge has two.
  const std::string pb = (dir_ / "plenty.pb").string();
  ASSERT_EQ(run({"synth", kConfig, "--set", "fabric.physical.fibers=4", "--out", pb}).code, 0);
  refuse({"replay", pb, kConfig}, {"physical_rhd_16.yaml", "does not exist on fabric.physical", "fibers"});
  EXPECT_EQ(run({"replay", pb, kConfig, "--set", "fabric.physical.fibers=4"}).code, 0);
}

}  // namespace
}  // namespace photonsim_test
