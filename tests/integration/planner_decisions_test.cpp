// Planners against doing nothing (static) and reconfiguring before every step
// (every_step), measured on the packet engine: at the points where a
// planner's paper cost model misjudged the fabric and chose a plan that
// measured slower than both, the default cost chooses one within 1 % of the
// better baseline, and the paper's cost (a named option) still reproduces
// the misjudgement. scripts/repro/decision_check.py sweeps the whole grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>

#include "schedules/synthesizer_registry.h"
#include "sim/engine/schedule_execution.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

struct Setting {
  FabricSpec fabric;
  WorkloadSpec workload;
  std::string algorithm;
  TopologySpec initial;
};

Time measured(const Setting& s, const std::string& planner, const std::map<std::string, std::string>& params = {}) {
  SynthesisSpec synthesis;
  synthesis.algorithm = s.algorithm;
  synthesis.planner = planner;
  synthesis.planner_params = params;
  synthesis.topology = s.initial;
  const Schedule schedule = SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, synthesis);
  return run_schedule(s.fabric, s.workload, schedule).completion;
}

// Measured time of `planner` over the better of static and every_step.
double against_baselines(const Setting& s, const std::string& planner, const std::map<std::string, std::string>& params,
                         const std::string& label) {
  const Time best = std::min(measured(s, "static"), measured(s, "every_step"));
  const Time own = measured(s, planner, params);
  const double ratio = static_cast<double>(own.picoseconds()) / static_cast<double>(best.picoseconds());
  std::printf("[decisions] %s: %s measures %.4f x the better baseline\n", label.c_str(), planner.c_str(), ratio);
  return ratio;
}

// Harvest's setting (configs/harvest_paper/recursive_doubling_64.yaml):
// 64 GPUs, one directed port, 800 Gbps, alpha = delta = 500 ns, cut-through.
Setting harvest_setting(const std::string& algorithm, Collective collective, int64_t message, Time alpha_r) {
  Setting s;
  s.fabric = testing_support::test_fabric(64, 1);
  s.fabric.step_overhead = Time::ns(500);
  s.fabric.router = RouterMode::cut_through;
  s.fabric.reconfig_delay = alpha_r;
  s.workload = testing_support::test_workload(collective, message);
  s.algorithm = algorithm;
  s.initial.type = "ring";
  return s;
}

// Eq. 8 charges delta * l on top of beta * m * l; cut-through hides the
// former, so at 1 MB and alpha_r = 31.6 us the paper's cost reconfigures
// where the static ring is faster (12.6 %).
TEST(PlannerDecisions, HarvestRecursiveDoublingNoLongerReconfiguresWhereTheStaticRingIsFaster) {
  const Setting s = harvest_setting("recursive_doubling", Collective::allreduce, 1'000'000, Time::ps(31'622'777));
  EXPECT_GT(against_baselines(s, "harvest", {{"cost", "paper"}}, "harvest RD 1 MB 31.6 us, cost paper"), 1.10);
  EXPECT_LE(against_baselines(s, "harvest", {}, "harvest RD 1 MB 31.6 us, default cost"), 1.01);
}

TEST(PlannerDecisions, HarvestSwingAtTheMisjudgedPoint) {
  const Setting s = harvest_setting("swing", Collective::allreduce, 316'228, Time::us(100));
  EXPECT_GT(against_baselines(s, "harvest", {{"cost", "paper"}}, "harvest swing 316 KB 100 us, cost paper"), 1.05);
  EXPECT_LE(against_baselines(s, "harvest", {}, "harvest swing 316 KB 100 us, default cost"), 1.01);
}

// A binary-tree step sends to two children: over one port it is two steps
// to every_step, one step over multi-hop paths to Harvest's candidates.
// Planning the cut pattern too gives Harvest every_step's plan (3.4x faster
// here) to choose.
TEST(PlannerDecisions, HarvestBinaryTreeConsidersTheStepsCutToThePortLimit) {
  const Setting s = harvest_setting("binary_tree", Collective::broadcast, 1'000'000, Time::ns(10));
  EXPECT_LE(against_baselines(s, "harvest", {}, "harvest binary tree 1 MB 10 ns"), 1.01);
  EXPECT_LE(against_baselines(s, "harvest", {{"cost", "paper"}}, "harvest binary tree 1 MB 10 ns, cost paper"), 1.01);
}

// Two bidirectional ports: Harvest's max-concurrent-flow LP may route a
// pair over a detour (any path split keeps theta), which the paper's cost
// charges as delta * l. On a latency-bound step (1 KB, 32 GPUs) that plan
// measures 3.7x the static ring at 100 us (and 4x every_step at 10 ns); the
// default cost also prices every pair's shortest path and takes it when
// cheaper.
TEST(PlannerDecisions, HarvestTakesShortestPathsWhereTheLpsDetoursCostMore) {
  for (const Time alpha_r : {Time::ns(10), Time::us(100)}) {
    Setting s = harvest_setting("recursive_doubling", Collective::allreduce, 1'000, alpha_r);
    s.fabric.gpus = 32;
    s.fabric.ports = 2;
    s.fabric.circuits = CircuitKind::bidirectional;
    const std::string at = "harvest RD 1 KB, 32 GPUs, 2 bidirectional ports, alpha_r " + format_time(alpha_r);
    EXPECT_GT(against_baselines(s, "harvest", {{"cost", "paper"}}, at + ", cost paper"), 3.5);
    EXPECT_LE(against_baselines(s, "harvest", {}, at + ", default cost"), 1.01);
  }
}

// Direct all-to-all on two bidirectional ports: the static planner runs the
// shifts d and n - d in one round (regrouped by hop count on the ring), so
// Harvest, planning one shift per step, measured up to 1.94x static (11.5 us
// against 7.0 us on 8 GPUs at 1 KB per GPU, 1 us). Planning the regrouped
// rounds too puts the static plan in its DP's space.
TEST(PlannerDecisions, HarvestPlansAnAllToAllsShiftsInTheStaticPlannersRounds) {
  for (const auto& [gpus, per_flow, alpha_r] : {std::tuple{8, int64_t{125}, Time::us(1)},
                                                std::tuple{16, int64_t{16'000}, Time::us(10)}}) {
    Setting s = harvest_setting("direct", Collective::alltoall, per_flow, alpha_r);
    s.fabric.gpus = gpus;
    s.fabric.ports = 2;
    s.fabric.circuits = CircuitKind::bidirectional;
    s.initial.params["bidirectional"] = "true";
    const std::string at = "harvest direct, " + std::to_string(gpus) + " GPUs, 2 bidirectional ports, " +
                           std::to_string(per_flow) + " B per flow, alpha_r " + format_time(alpha_r);
    EXPECT_LE(against_baselines(s, "harvest", {}, at), 1.01);
  }
}

// PCCL's setting (configs/pccl_paper/rhd_reducescatter_128.yaml) on 32 GPUs:
// 6 directed ports, 450 GB/s, alpha = 3 us, store-and-forward of whole
// transfers. Recursive doubling's partners u + 2^e are up to 2 hops apart
// on the hypercube; Eq. 1 charges those hops alpha each but serialises the
// load once, while store-and-forward serialises it again at every hop, so
// the paper's cost moves to the hypercube and measures 2x every_step.
TEST(PlannerDecisions, PcclChargesStoreAndForwardHopsByDefault) {
  Setting s;
  s.fabric = testing_support::test_fabric(32, 6);
  s.fabric.bandwidth = Bandwidth::bits_per_second(3'600'000'000'000);
  s.fabric.latency = Time::us(3);
  s.fabric.reconfig_delay = Time::us(10);
  s.workload = testing_support::test_workload(Collective::reducescatter, 1'000'000'000);
  s.algorithm = "recursive_doubling";
  s.initial.type = "ring";
  s.initial.params["bidirectional"] = "true";
  EXPECT_GT(against_baselines(s, "pccl", {{"cost", "paper"}}, "pccl RD 1 GB 10 us, cost paper"), 1.9);
  EXPECT_LE(against_baselines(s, "pccl", {}, "pccl RD 1 GB 10 us, default cost"), 1.01);
}

}  // namespace
}  // namespace photonsim
