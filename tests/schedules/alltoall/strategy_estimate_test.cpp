// An outline's estimate is the prediction of the strategy it stands for, to
// the picosecond: rdc's shifted rings (k = 1) for every d, on fabrics and
// workloads that exercise each term of the cost model - store-and-forward and
// cut-through, packets smaller than chunks, chunks pipelined or in waves,
// step overhead, a first topology that is already in place - and past the
// shift search's local-search limit, where each d's outline is carried over
// from the previous d; and rdc's Circulant family (k > 1) for every d it
// reaches.
#include "schedules/alltoall/strategy_estimate.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/spec/flow_sizes.h"
#include "schedules/alltoall/rdc/rdc.h"
#include "schedules/alltoall/shifted_ring_strategy.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

using testing_support::test_fabric;
using testing_support::test_workload;
using testing_support::with_chunk;

struct StrategyEstimateCase {
  std::string name;
  FabricSpec fabric;
  WorkloadSpec workload;
  std::string chunks = "auto";
  std::optional<Topology> initial;
};

std::vector<std::pair<size_t, std::string>> reconfiguring_steps(const Schedule& s) {
  std::vector<std::pair<size_t, std::string>> out;
  for (size_t i = 0; i < s.steps().size(); ++i) {
    if (s.reconfigures_before(i))
      out.emplace_back(i, s.topologies()[static_cast<size_t>(s.steps()[i].topology)].name());
  }
  return out;
}

// Every d the outlines visit (those `checked` says) against the strategy built for it.
void expect_outlines_predict_strategies(const StrategyEstimateCase& c, const std::function<bool(int)>& checked,
                                        const std::map<std::string, std::string>& raw = {}) {
  const Rdc rdc;
  const int n = c.fabric.gpus;
  const ComponentParams params("rdc", raw, rdc.info().parameters, "algorithm");
  const std::vector<Bytes> demand = alltoall_flow_sizes(c.workload, n, 1);
  const JointInput input{c.fabric, c.workload, demand, params, 1};
  const std::vector<Bytes> no_sizes;
  const StrategyScheduleInput to_schedule{c.fabric, c.workload, demand, no_sizes, "rdc", "joint", c.initial, c.chunks};
  std::vector<int> visited;
  ASSERT_TRUE(rdc.for_each_outline(input, std::nullopt, [&](StrategyOutline&& outline) {
    const int d = outline.configurations;
    visited.push_back(d);
    if (!checked(d)) return;
    const std::string what = c.name + ", n = " + std::to_string(n) + ", d = " + std::to_string(d);
    const StrategyEstimate estimate = estimate_strategy(outline, to_schedule, true);
    int built = 0;
    rdc.for_each_strategy(input, d, [&](AlltoallStrategy&& strategy) {
      ++built;
      EXPECT_EQ(outline.construction, strategy.construction) << what;
      EXPECT_EQ(outline.hop_sum(), strategy.hop_sum()) << what;
      const Schedule schedule = strategy_schedule(strategy, to_schedule);
      const Prediction prediction = predict_alpha_beta_congestion(schedule, c.fabric, c.workload);
      EXPECT_EQ(estimate.predicted, prediction.total()) << what;
      EXPECT_EQ(estimate.reconfigurations, schedule.reconfigurations()) << what;
      EXPECT_EQ(estimate.reconfigure_before, reconfiguring_steps(schedule)) << what;
    });
    EXPECT_EQ(built, 1) << what;
  }));
  // Shifted rings reach every d; the Circulant family stops where
  // contraction no longer saves hops.
  const int last = c.fabric.ports == 1 ? n - 1 : (visited.empty() ? 0 : visited.back());
  std::vector<int> every_d;
  for (int d = 1; d <= last; ++d) every_d.push_back(d);
  EXPECT_FALSE(visited.empty()) << c.name << ", n = " << n;
  EXPECT_EQ(visited, every_d) << c.name << ", n = " << n;
}

std::vector<StrategyEstimateCase> cases(int n, int ports = 1) {
  std::vector<StrategyEstimateCase> out;
  FabricSpec paper = test_fabric(n, ports);
  paper.reconfig_delay = Time::us(10);
  out.push_back({"one chunk per pair, store-and-forward", paper, test_workload(Collective::alltoall, 4'000'000), "auto",
                 std::nullopt});

  FabricSpec cut = paper;
  cut.router = RouterMode::cut_through;
  cut.header = Bytes(64);
  cut.packet = Bytes(100'000);
  cut.step_overhead = Time::ns(700);
  out.push_back({"cut-through, packets of 100 kB, step overhead", cut,
                 with_chunk(test_workload(Collective::alltoall, 1'000'000), 250'000), "auto", std::nullopt});

  FabricSpec small_packets = paper;
  small_packets.packet = Bytes(4096);
  out.push_back({"chunks of 300 kB in waves, packets of 4 KiB", small_packets,
                 with_chunk(test_workload(Collective::alltoall, 1'000'001), 300'000), "waves", std::nullopt});

  std::vector<Node> identity(static_cast<size_t>(n));
  for (size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<Node>(i);
  out.push_back({"the base ring already in place", paper, test_workload(Collective::alltoall, 4'000'000), "auto",
                 shifted_ring_topology(1, identity)});
  const Topology reverse = shifted_ring_topology(n - 1, identity);
  out.push_back({"the reverse ring, under another name, already in place", paper,
                 test_workload(Collective::alltoall, 4'000'000), "auto", Topology("reverse", n, reverse.edges())});
  return out;
}

TEST(StrategyEstimate, ShiftedRingOutlinesPredictEveryD) {
  for (int n : {2, 3, 4, 5, 8, 12, 17, 24}) {
    for (const StrategyEstimateCase& c : cases(n)) expect_outlines_predict_strategies(c, [](int) { return true; });
  }
}

TEST(StrategyEstimate, ShiftedRingOutlinesPastTheLocalSearchLimit) {
  const int n = RingShiftSearch::kDefaultLocalSearchLimit + 5;
  // Past the limit what changes is how each d's shifts are found (carried
  // over from d - 1), not the cost model's terms, which the test above checks
  // at every d of smaller rings: the paper's case at every sampled d, the
  // others (each a term) from d = 7 on. The small d's are the expensive ones
  // (the longest routes: 2.3 s of the test's 7.9 s in Release at d = 1).
  const std::function<bool(int)> sampled = [n](int d) {
    return d <= 4 || d == 7 || d == 50 || d == n / 2 || d == n - 1;
  };
  const std::function<bool(int)> large = [n](int d) { return d == 7 || d == 50 || d == n / 2 || d == n - 1; };
  const std::vector<StrategyEstimateCase> all = cases(n);
  for (size_t i = 0; i < all.size(); ++i) expect_outlines_predict_strategies(all[i], i == 0 ? sampled : large);
}

TEST(StrategyEstimate, CirculantOutlinesPredictEveryD) {
  const auto every = [](int) { return true; };
  for (int n : {3, 4, 5, 8, 12, 17, 24}) {
    for (const StrategyEstimateCase& c : cases(n, 2))
      expect_outlines_predict_strategies(c, every, {{"base", "circulant"}});
  }
  for (const StrategyEstimateCase& c : cases(12, 3))
    expect_outlines_predict_strategies(c, every, {{"base", "circulant"}});
  const auto sampled = [](int d) { return d <= 3 || d % 7 == 0; };
  for (const StrategyEstimateCase& c : cases(40, 2))
    expect_outlines_predict_strategies(c, sampled, {{"base", "circulant"}});
}

// Above the limit, base auto is the Circulant family alone: the same outlines.
TEST(StrategyEstimate, AutoBaseAboveTheGenKautzLimitIsTheCirculantFamily) {
  const Rdc rdc;
  const int n = Rdc::kGenKautzAutoLimit + 1;
  const FabricSpec fabric = test_fabric(n, 2);
  const WorkloadSpec workload = test_workload(Collective::alltoall, 4'000'000);
  const std::vector<Bytes> demand = alltoall_flow_sizes(workload, n, 1);
  const auto outlines = [&](const std::string& base) {
    const ComponentParams params("rdc", {{"base", base}}, rdc.info().parameters, "algorithm");
    const JointInput input{fabric, workload, demand, params, 1};
    std::vector<std::pair<std::string, int64_t>> out;
    EXPECT_TRUE(rdc.for_each_outline(input, std::nullopt,
                                     [&](StrategyOutline&& o) { out.emplace_back(o.construction, o.hop_sum()); }));
    return out;
  };
  const auto circulant = outlines("circulant");
  EXPECT_GT(circulant.size(), 10u);
  EXPECT_EQ(outlines("auto"), circulant);
}

TEST(StrategyEstimate, NoOutlineWhereTheStrategyIsNotUniformShiftedRings) {
  const Rdc rdc;
  const auto outlined = [&](const FabricSpec& f, const WorkloadSpec& w, std::map<std::string, std::string> raw) {
    const ComponentParams params("rdc", raw, rdc.info().parameters, "algorithm");
    const std::vector<Bytes> demand = alltoall_flow_sizes(w, f.gpus, 1);
    const JointInput input{f, w, demand, params, 1};
    int visits = 0;
    const bool answered = rdc.for_each_outline(input, std::nullopt, [&](StrategyOutline&&) { ++visits; });
    EXPECT_EQ(visits > 0, answered);
    return answered;
  };
  const WorkloadSpec uniform = test_workload(Collective::alltoall, 4'000'000);
  EXPECT_TRUE(outlined(test_fabric(8), uniform, {}));
  EXPECT_FALSE(outlined(test_fabric(8, 2), uniform, {}));  // auto: the Kautz family too
  EXPECT_FALSE(outlined(test_fabric(8, 2), uniform, {{"base", "genkautz"}}));
  EXPECT_TRUE(outlined(test_fabric(8, 2), uniform, {{"base", "circulant"}}));
  EXPECT_FALSE(outlined(test_fabric(8, 2), uniform, {{"base", "circulant"}, {"merge", "true"}}));
  EXPECT_FALSE(outlined(test_fabric(8), uniform, {{"merge", "true"}}));
  EXPECT_FALSE(outlined(test_fabric(8), testing_support::with_distribution(uniform, FlowDistribution::zipf), {}));
  EXPECT_FALSE(outlined(test_fabric(8), test_workload(Collective::alltoall, 0), {}));
}

}  // namespace
}  // namespace photonsim
