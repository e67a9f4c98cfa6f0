// The all-to-all paper's four baselines as joint synthesizers: fast (BvN),
// mixnet (greedy topology), directconnect (GenKautz/Circulant + max concurrent
// flow) and topoopt (shifted rings + k shortest paths).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/spec/flow_sizes.h"
#include "schedules/verify/block_verifier.h"
#include "schedules/alltoall/baselines/directconnect_baseline.h"
#include "schedules/alltoall/baselines/fast_baseline.h"
#include "schedules/alltoall/strategy_schedule.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "schedules/model/step_routes.h"
#include "schedules/alltoall/baselines/mixnet_baseline.h"
#include "schedules/alltoall/baselines/pairwise_baseline.h"
#include "schedules/synthesizer_registry.h"
#include "schedules/alltoall/baselines/topoopt_baseline.h"
#include "topology/all_shortest_paths.h"
#include "topology/k_shortest_paths.h"
#include "topology/flow/max_concurrent_flow.h"
#include "topology/topology_properties.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

const std::vector<std::string> kBaselines = {"fast", "mixnet", "directconnect", "topoopt"};

FabricSpec joint_baselines_fabric(int gpus, int ports) {
  FabricSpec f = testing_support::test_fabric(gpus, ports);
  f.reconfig_delay = Time::us(10);
  return f;
}

// 1 MB flows in four chunks.
WorkloadSpec alltoall_workload(FlowDistribution distribution = FlowDistribution::uniform) {
  using namespace testing_support;
  return with_distribution(with_chunk(test_workload(Collective::alltoall, 1'000'000), 250'000), distribution);
}

// One baseline on one demand, with what JointInput refers to kept alive.
struct Case {
  FabricSpec fabric;
  WorkloadSpec workload;
  std::vector<Bytes> demand;
  std::string algorithm;
  std::unique_ptr<ComponentParams> params;
  std::shared_ptr<const JointSynthesizer> synthesizer;

  Case(std::string name, FabricSpec f, std::vector<Bytes> d, std::map<std::string, std::string> values = {},
       WorkloadSpec w = alltoall_workload())
      : fabric(f), workload(w), demand(std::move(d)), algorithm(std::move(name)) {
    const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
    for (const auto& entry : registry.algorithms()) {
      if (entry.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
      if (entry.info.name != algorithm) continue;
      params = std::make_unique<ComponentParams>(algorithm, std::move(values), entry.info.parameters, "algorithm");
      synthesizer = entry.joint;
    }
    if (!synthesizer) throw std::logic_error("no joint algorithm '" + algorithm + "'");
  }
  JointInput input() const { return JointInput{fabric, workload, demand, *params, 7}; }
  AlltoallStrategy strategy() const {
    std::vector<AlltoallStrategy> all = synthesizer->strategies(input(), std::nullopt);
    EXPECT_EQ(all.size(), 1U) << algorithm << " offers one d";
    return all.front();
  }
};

std::vector<Bytes> uniform_demand(int n, int64_t bytes) {
  std::vector<Bytes> d(static_cast<size_t>(n * n), Bytes(bytes));
  for (int i = 0; i < n; ++i) d[static_cast<size_t>(i * n + i)] = Bytes(0);
  return d;
}

std::vector<Bytes> demand_of(FlowDistribution distribution, int n) {
  return alltoall_flow_sizes(alltoall_workload(distribution), n, 7);
}

Schedule schedule_of(const Case& c, const AlltoallStrategy& strategy) {
  return strategy_schedule(strategy, StrategyScheduleInput{c.fabric, c.workload, c.demand, c.demand, c.algorithm});
}

// Every topology within k ports, every route on circuits and summing to its
// flow, every pair's pieces summing to its demand, and the schedule verified.
void expect_valid(const Case& c, const AlltoallStrategy& s, const std::string& what) {
  const int n = c.fabric.gpus;
  ASSERT_GE(s.configurations(), 1) << what;
  for (const Topology& t : s.topologies) {
    for (Node v = 0; v < static_cast<Node>(n); ++v) {
      EXPECT_LE(t.out_degree(v), c.fabric.ports) << what << " node " << v;
      EXPECT_LE(t.in_degree(v), c.fabric.ports) << what << " node " << v;
    }
  }
  std::vector<Bytes> delivered(static_cast<size_t>(n * n));
  for (const StrategyRound& r : s.rounds) {
    ASSERT_LT(r.topology, s.configurations()) << what;
    const Topology& t = s.topologies[static_cast<size_t>(r.topology)];
    for (const StrategyFlow& f : r.flows) {
      Bytes routed;
      if (f.routes.empty()) {  // implicit: the topology's shortest path
        EXPECT_EQ(AllShortestPaths(t).hops(f.src, f.dst), f.implicit_hops) << what;
        routed = f.bytes;
      }
      for (const Route& route : f.routes) {
        EXPECT_GT(route.bytes.count(), 0) << what;
        EXPECT_EQ(route.path.front(), f.src) << what;
        EXPECT_EQ(route.path.back(), f.dst) << what;
        for (size_t h = 0; h + 1 < route.path.size(); ++h) {
          EXPECT_GT(t.multiplicity(route.path[h], route.path[h + 1]), 0) << what << ": hop off the circuits";
        }
        routed += route.bytes;
      }
      EXPECT_EQ(routed, f.bytes) << what;
      delivered[f.src * n + f.dst] += f.bytes;
    }
  }
  EXPECT_EQ(delivered, c.demand) << what;
  const Schedule schedule = schedule_of(c, s);
  const Verification v = verify_schedule(schedule);
  EXPECT_TRUE(v.ok()) << what << ": " << (v.ok() ? "" : v.violation->describe());
}

std::string describe(const AlltoallStrategy& s) {
  std::ostringstream out;
  out << s.construction << "\n";
  for (const Topology& t : s.topologies) {
    for (const Edge& e : t.edges()) out << e.first << ">" << e.second << " ";
    out << "\n";
  }
  for (const StrategyRound& r : s.rounds) {
    out << "round on " << r.topology << ":";
    for (const StrategyFlow& f : r.flows) {
      if (f.routes.empty())
        out << " [" << f.src << "~" << f.implicit_hops << "~" << f.dst << "," << f.bytes.count() << "]";
      for (const Route& route : f.routes) {
        out << " [";
        for (Node v : route.path) out << v << ",";
        out << route.bytes.count() << "]";
      }
    }
    out << "\n";
  }
  return out.str();
}

Topology n_cycle(int n) {
  std::vector<Edge> e;
  for (int u = 0; u < n; ++u) e.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
  return Topology("cycle", n, e);
}

TEST(JointBaselines, EveryBaselineDeliversEveryPairWithinThePortsAndVerifies) {
  for (const std::string& name : kBaselines) {
    for (int n : {8, 16}) {
      for (int k : {1, 2}) {
        for (FlowDistribution distribution : {FlowDistribution::uniform, FlowDistribution::zipf}) {
          const Case c(name, joint_baselines_fabric(n, k), demand_of(distribution, n), {},
                       alltoall_workload(distribution));
          const std::string what =
              name + " n=" + std::to_string(n) + " k=" + std::to_string(k) + " " + to_string(distribution);
          expect_valid(c, c.strategy(), what);
        }
      }
    }
  }
}

TEST(JointBaselines, StaticBaselinesOfferOnlyOneTopology) {
  for (const std::string name : {"mixnet", "directconnect", "topoopt"}) {
    const Case c(name, joint_baselines_fabric(8, 2), demand_of(FlowDistribution::random, 8));
    EXPECT_EQ(c.strategy().configurations(), 1) << name;
    EXPECT_TRUE(c.synthesizer->strategies(c.input(), 2).empty()) << name;
    EXPECT_EQ(c.synthesizer->strategies(c.input(), 1).size(), 1U) << name;
  }
}

TEST(JointBaselines, FastDecomposesUniformDemandIntoTheOffsets) {
  const int n = 8;
  const std::vector<FastBaseline::Term> terms = FastBaseline::decompose(uniform_demand(n, 1000), n);
  ASSERT_EQ(terms.size(), static_cast<size_t>(n - 1));
  for (size_t i = 0; i < terms.size(); ++i) {
    EXPECT_EQ(terms[i].weight, Bytes(1000));
    for (Node row = 0; row < static_cast<Node>(n); ++row) {
      EXPECT_EQ(terms[i].column_of[row], (row + i + 1) % n) << "term " << i;
      EXPECT_EQ(terms[i].real[row], Bytes(1000));
    }
  }
}

TEST(JointBaselines, FastOnUniformDemandMatchesPairwise) {
  for (int n : {8, 16}) {
    for (int k : {1, 2}) {
      const Case fast("fast", joint_baselines_fabric(n, k), uniform_demand(n, 1000));
      const Case pairwise("pairwise", joint_baselines_fabric(n, k), uniform_demand(n, 1000));
      const AlltoallStrategy f = fast.strategy(), p = pairwise.strategy();
      EXPECT_EQ(f.configurations(), (n - 1 + k - 1) / k);
      EXPECT_EQ(f.configurations(), p.configurations());
      EXPECT_EQ(f.hop_sum(), p.hop_sum()) << "n=" << n << " k=" << k;
      EXPECT_EQ(f.topologies, p.topologies) << "n=" << n << " k=" << k;
    }
  }
  // One round per permutation: n-1 one-hop rounds whatever k.
  const Case per_permutation("fast", joint_baselines_fabric(8, 2), uniform_demand(8, 1000),
                             {{"rounds", "per_permutation"}});
  const AlltoallStrategy s = per_permutation.strategy();
  EXPECT_EQ(s.configurations(), 4);
  EXPECT_EQ(s.rounds.size(), 7U);
  EXPECT_EQ(s.hop_sum(), 7);
  expect_valid(per_permutation, s, "fast per_permutation");
}

// Weighted permutations that sum back to `demand` (real bytes) and to the
// padded matrix (weights add up to the largest line sum).
void expect_decomposition(const std::vector<Bytes>& demand, int n) {
  const std::vector<FastBaseline::Term> terms = FastBaseline::decompose(demand, n);
  int64_t line = 0;
  for (int i = 0; i < n; ++i) {
    int64_t row = 0, col = 0;
    for (int j = 0; j < n; ++j) {
      row += demand[static_cast<size_t>(i * n + j)].count();
      col += demand[static_cast<size_t>(j * n + i)].count();
    }
    line = std::max({line, row, col});
  }
  std::vector<Bytes> sum(demand.size());
  int64_t weights = 0;
  for (const FastBaseline::Term& t : terms) {
    EXPECT_GT(t.weight.count(), 0);
    weights += t.weight.count();
    std::set<Node> columns(t.column_of.begin(), t.column_of.end());
    EXPECT_EQ(columns.size(), static_cast<size_t>(n)) << "not a permutation";
    for (Node row = 0; row < static_cast<Node>(n); ++row) {
      EXPECT_LE(t.real[row], t.weight);
      if (t.column_of[row] == row) {
        EXPECT_EQ(t.real[row].count(), 0) << "a fixed point carries demand";
      }
      sum[row * n + t.column_of[row]] += t.real[row];
    }
  }
  EXPECT_EQ(sum, demand);
  EXPECT_EQ(weights, line);
}

TEST(JointBaselines, FastDecompositionSumsBackToTheMatrix) {
  // Balanced: no padding, so every row of every term is real demand.
  const std::vector<Bytes> balanced = {Bytes(0), Bytes(3), Bytes(1), Bytes(1), Bytes(0),
                                       Bytes(3), Bytes(3), Bytes(1), Bytes(0)};
  expect_decomposition(balanced, 3);
  for (const FastBaseline::Term& t : FastBaseline::decompose(balanced, 3)) {
    for (const Bytes& real : t.real) EXPECT_EQ(real, t.weight);
  }
  // Unbalanced rows and columns, zeros off the diagonal: padded with dummy traffic.
  const std::vector<Bytes> skewed = {Bytes(0), Bytes(9), Bytes(0), Bytes(1),  //
                                     Bytes(2), Bytes(0), Bytes(5), Bytes(0),  //
                                     Bytes(0), Bytes(0), Bytes(0), Bytes(4),  //
                                     Bytes(7), Bytes(1), Bytes(1), Bytes(0)};
  expect_decomposition(skewed, 4);
  expect_decomposition(demand_of(FlowDistribution::zipf, 8), 8);
  expect_decomposition(demand_of(FlowDistribution::random, 16), 16);
}

TEST(JointBaselines, FastSplitPairsTravelInPiecesOnDirectCircuits) {
  const Case c("fast", joint_baselines_fabric(8, 2), demand_of(FlowDistribution::random, 8));
  const AlltoallStrategy s = c.strategy();
  std::map<Edge, int> pieces;
  for (const StrategyRound& r : s.rounds) {
    EXPECT_EQ(r.hops(), 1);
    EXPECT_TRUE(contention_free(r, s.topologies[static_cast<size_t>(r.topology)]));
    for (const StrategyFlow& f : r.flows) ++pieces[{f.src, f.dst}];
  }
  EXPECT_TRUE(std::any_of(pieces.begin(), pieces.end(), [](const auto& p) { return p.second > 1; }))
      << "random demand splits some pair";
  expect_valid(c, s, "fast random");
}

std::vector<Bytes> with_heavy_pairs(int n, const std::map<Edge, int64_t>& heavy) {
  std::vector<Bytes> d(static_cast<size_t>(n * n));
  for (int s = 0; s < n; ++s) {
    for (int t = 0; t < n; ++t) {
      if (s != t) d[static_cast<size_t>(s * n + t)] = Bytes(1 + (s * 7 + t * 3) % 10);
    }
  }
  for (const auto& [e, bytes] : heavy) d[e.first * n + e.second] = Bytes(bytes);
  return d;
}

TEST(JointBaselines, MixnetGivesTheHeaviestPairsDirectCircuits) {
  const std::map<Edge, int64_t> heavy = {{{0, 2}, 1000}, {{2, 4}, 900}, {{4, 6}, 800}, {{1, 7}, 700}, {{7, 3}, 600}};
  for (int k : {1, 2}) {
    const Case c("mixnet", joint_baselines_fabric(8, k), with_heavy_pairs(8, heavy));
    const AlltoallStrategy s = c.strategy();
    const Topology& t = s.topologies.front();
    EXPECT_TRUE(is_strongly_connected(t));
    for (const auto& [e, bytes] : heavy) {
      EXPECT_EQ(t.multiplicity(e.first, e.second), 1) << e.first << "->" << e.second << " k=" << k;
    }
    for (const StrategyRound& r : s.rounds) {
      EXPECT_TRUE(contention_free(r, t));
      for (const StrategyFlow& f : r.flows) {
        if (heavy.count({f.src, f.dst})) {
          EXPECT_EQ(f.hops(), 1) << f.src << "->" << f.dst;
        }
      }
    }
    expect_valid(c, s, "mixnet heavy k=" + std::to_string(k));
  }
}

TEST(JointBaselines, MixnetRepairsAGreedyTopologyThatFallsApart) {
  // Heavy pairs in both directions: the greedy alone builds 2-cycles (k = 1)
  // or 4-node islands (k = 2); 9 nodes leave one node without a partner.
  std::map<Edge, int64_t> heavy;
  for (Node u = 0; u + 1 < 9; u += 2) {
    heavy[{u, u + 1}] = 1000;
    heavy[{u + 1, u}] = 1000;
  }
  for (int k : {1, 2}) {
    const Case c("mixnet", joint_baselines_fabric(9, k), with_heavy_pairs(9, heavy));
    const Topology t = MixnetBaseline::topology(c.input());
    EXPECT_TRUE(is_strongly_connected(t)) << "k=" << k;
    for (Node v = 0; v < 9; ++v) {
      EXPECT_LE(t.out_degree(v), k);
      EXPECT_LE(t.in_degree(v), k);
    }
    expect_valid(c, c.strategy(), "mixnet islands k=" + std::to_string(k));
  }
}

// routing: max_concurrent_flow keeps MixNet's topology and routes on it as
// DirectConnect does: one concurrent round, each pair split over the LP's
// paths, and the LP's theta is the throughput the split reaches: no
// circuit carries more than the largest flow / theta.
TEST(JointBaselines, MixnetWithMaxConcurrentFlowRoutesItsTopologyAsDirectconnect) {
  for (int k : {1, 2}) {
    const std::string what = "mixnet max_concurrent_flow k=" + std::to_string(k);
    const std::vector<Bytes> demand = demand_of(FlowDistribution::zipf, 12);
    const Case rounds("mixnet", joint_baselines_fabric(12, k), demand, {}, alltoall_workload(FlowDistribution::zipf));
    const Case split("mixnet", joint_baselines_fabric(12, k), demand, {{"routing", "max_concurrent_flow"}},
                     alltoall_workload(FlowDistribution::zipf));
    const AlltoallStrategy s = split.strategy();
    const Topology t = MixnetBaseline::topology(split.input());
    EXPECT_EQ(s.topologies.front(), t) << what;
    ASSERT_EQ(s.rounds.size(), 1U) << what;
    EXPECT_FALSE(s.contention_free_rounds) << what;
    EXPECT_GT(rounds.strategy().rounds.size(), 1U) << what;
    int64_t largest = 0;
    for (const Bytes& b : demand) largest = std::max(largest, b.count());
    DemandMatrix normalised(12);
    for (Node u = 0; u < 12; ++u) {
      for (Node v = 0; v < 12; ++v) {
        if (u != v)
          normalised.set(u, v, static_cast<double>(demand[u * 12 + v].count()) / static_cast<double>(largest));
      }
    }
    const double theta = max_concurrent_flow(t, normalised).theta;
    ASSERT_GT(theta, 0.0) << what;
    EXPECT_NE(s.construction.find("max concurrent flow theta"), std::string::npos) << what;
    std::map<Edge, double> load;
    for (const StrategyFlow& f : s.rounds.front().flows) {
      if (f.routes.empty()) {  // k = 1: the walk along the one circuit out of each GPU
        Node v = f.src;
        while (v != f.dst) {
          const Node next = t.edges()[v].second;
          load[{v, next}] += static_cast<double>(f.bytes.count());
          v = next;
        }
      }
      for (const Route& r : f.routes) {
        for (size_t h = 0; h + 1 < r.path.size(); ++h)
          load[{r.path[h], r.path[h + 1]}] += static_cast<double>(r.bytes.count());
      }
    }
    for (const auto& [e, bytes] : load) {
      // Whole-byte rounding adds under one byte per flow on the circuit.
      EXPECT_LE(bytes, static_cast<double>(largest) / theta + 144.0) << what << " " << e.first << "->" << e.second;
    }
    expect_valid(split, s, what);
  }
  EXPECT_THROW(Case("mixnet", joint_baselines_fabric(8, 2), uniform_demand(8, 1), {{"routing", "lp"}}).strategy(),
               Error);
}

TEST(JointBaselines, DirectconnectAndTopooptOnOnePortAreTheNCycle) {
  for (int n : {8, 16}) {
    for (FlowDistribution distribution : {FlowDistribution::uniform, FlowDistribution::zipf}) {
      for (const auto& [name, values] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
               {"directconnect", {}}, {"directconnect", {{"graph", "genkautz"}}}, {"topoopt", {}}}) {
        const Case c(name, joint_baselines_fabric(n, 1), demand_of(distribution, n), values,
                     alltoall_workload(distribution));
        const AlltoallStrategy s = c.strategy();
        EXPECT_EQ(s.topologies.front(), n_cycle(n)) << name;
        ASSERT_EQ(s.rounds.size(), 1U);
        for (const StrategyFlow& f : s.rounds.front().flows) {
          // Both keep no path: the walk along the cycle is the only one.
          ASSERT_EQ(f.routes.size(), 0U) << name << " " << f.src << "->" << f.dst;
          EXPECT_EQ(f.hops(), static_cast<int>((f.dst + n - f.src) % n));
        }
      }
    }
  }
}

// On one port directconnect's and mixnet's topologies have one circuit out
// of every GPU, so their flows keep no path (each pair's one path is the walk
// along the circuits, O(n^3) nodes in all): with the walks written out the
// schedule routes every step over the same circuits and predicts the same.
TEST(JointBaselines, OnePortBaselinesKeepNoPathsAndRouteAsWithThem) {
  for (const std::string name : {"directconnect", "mixnet"}) {
    for (int n : {8, 13}) {
      for (FlowDistribution distribution :
           {FlowDistribution::uniform, FlowDistribution::random, FlowDistribution::zipf}) {
        const std::string what = name + " n=" + std::to_string(n) + " " + to_string(distribution);
        const Case c(name, joint_baselines_fabric(n, 1), demand_of(distribution, n), {},
                     alltoall_workload(distribution));
        const AlltoallStrategy implicit = c.strategy();
        AlltoallStrategy walked = implicit;
        for (StrategyRound& r : walked.rounds) {
          const Topology& t = walked.topologies[static_cast<size_t>(r.topology)];
          ASSERT_TRUE(t.one_circuit_out_of_every_gpu()) << what;
          for (StrategyFlow& f : r.flows) {
            ASSERT_TRUE(f.routes.empty()) << what;
            std::vector<Node> path{f.src};
            while (path.back() != f.dst) path.push_back(t.edges()[path.back()].second);
            EXPECT_EQ(static_cast<int>(path.size()) - 1, f.implicit_hops) << what;
            f.routes.push_back(Route{path, f.bytes});
          }
        }
        const Schedule a = schedule_of(c, implicit), b = schedule_of(c, walked);
        ASSERT_EQ(a.steps().size(), b.steps().size()) << what;
        for (size_t i = 0; i < a.steps().size(); ++i) {
          const Topology& t = a.topologies()[static_cast<size_t>(a.steps()[i].topology)];
          const std::vector<RoutedFlow> ra = route_step(a.steps()[i], t, i), rb = route_step(b.steps()[i], t, i);
          ASSERT_EQ(ra.size(), rb.size()) << what;
          for (size_t f = 0; f < ra.size(); ++f) {
            EXPECT_EQ(ra[f].links, rb[f].links) << what;
            EXPECT_EQ(ra[f].bytes, rb[f].bytes) << what;
          }
        }
        const Prediction pa = predict_alpha_beta_congestion(a, c.fabric, c.workload);
        const Prediction pb = predict_alpha_beta_congestion(b, c.fabric, c.workload);
        ASSERT_EQ(pa.steps.size(), pb.steps.size()) << what;
        for (size_t i = 0; i < pa.steps.size(); ++i) {
          EXPECT_EQ(pa.steps[i].propagation, pb.steps[i].propagation) << what;
          EXPECT_EQ(pa.steps[i].transmission, pb.steps[i].transmission) << what;
        }
        expect_valid(c, implicit, what);
      }
    }
  }
}

TEST(JointBaselines, DirectconnectAutoTakesTheHigherThroughput) {
  const int n = 16;
  const Case circulant("directconnect", joint_baselines_fabric(n, 2), uniform_demand(n, 1000),
                       {{"graph", "circulant"}});
  const Case kautz("directconnect", joint_baselines_fabric(n, 2), uniform_demand(n, 1000), {{"graph", "genkautz"}});
  const Case automatic("directconnect", joint_baselines_fabric(n, 2), uniform_demand(n, 1000));
  const Topology c = circulant.strategy().topologies.front(), g = kautz.strategy().topologies.front();
  EXPECT_EQ(DirectconnectBaseline::circulant_generators(n, 2), (std::vector<int>{1, 7}));
  EXPECT_NE(c, g);
  const double theta_c = max_concurrent_flow(c, DemandMatrix::alltoall(n)).theta;
  const double theta_g = max_concurrent_flow(g, DemandMatrix::alltoall(n)).theta;
  EXPECT_EQ(automatic.strategy().topologies.front(), theta_g > theta_c ? g : c);
  // The circulant generators minimise the total hop distance (the n-cycle for k = 1).
  EXPECT_EQ(DirectconnectBaseline::circulant_generators(16, 1), (std::vector<int>{1}));
  EXPECT_EQ(DirectconnectBaseline::circulant_generators(8, 7).size(), 7U);
}

TEST(JointBaselines, TopooptSpreadsRingShiftsAndSplitsFlowsEvenly) {
  EXPECT_EQ(TopooptBaseline::shifts(16, 1), (std::vector<int>{1}));
  EXPECT_EQ(TopooptBaseline::shifts(16, 2), (std::vector<int>{1, 3}));
  EXPECT_EQ(TopooptBaseline::shifts(64, 3), (std::vector<int>{1, 3, 15}));
  EXPECT_EQ(TopooptBaseline::shifts(8, 5), (std::vector<int>{1, 3, 5, 6, 7}));  // coprime shifts first
  const Case c("topoopt", joint_baselines_fabric(16, 2), demand_of(FlowDistribution::random, 16), {{"paths", "3"}});
  const AlltoallStrategy s = c.strategy();
  for (const StrategyFlow& f : s.rounds.front().flows) {
    ASSERT_EQ(f.routes.size(), 3U);
    const auto [low, high] = std::minmax_element(f.routes.begin(), f.routes.end(),
                                                 [](const Route& a, const Route& b) { return a.bytes < b.bytes; });
    EXPECT_LE(high->bytes.count() - low->bytes.count(), 1);
    EXPECT_LE(f.routes.front().path.size(), f.routes.back().path.size());  // shortest first
  }
}

// The rings are a circulant, so topoopt searches the paths per offset and
// shifts them: each flow must still get exactly Yen's paths for its own pair.
TEST(JointBaselines, TopooptShiftedPathsAreYensPathsPerPair) {
  for (int n : {7, 12, 16}) {
    for (int k : {2, 3}) {
      for (const std::string paths : {"1", "4", "6"}) {
        const Case c("topoopt", joint_baselines_fabric(n, k), demand_of(FlowDistribution::random, n),
                     {{"paths", paths}});
        const AlltoallStrategy s = c.strategy();
        const Topology& rings = s.topologies.front();
        for (const StrategyFlow& f : s.rounds.front().flows) {
          const std::vector<std::vector<Node>> yen = k_shortest_paths(rings, f.src, f.dst, std::stoi(paths));
          ASSERT_LE(f.routes.size(), yen.size());
          for (size_t i = 0; i < f.routes.size(); ++i) EXPECT_EQ(f.routes[i].path, yen[i]);
        }
      }
    }
  }
}

TEST(JointBaselines, DeterministicForASeed) {
  for (const std::string& name : kBaselines) {
    const Case a(name, joint_baselines_fabric(8, 2), demand_of(FlowDistribution::zipf, 8));
    const Case b(name, joint_baselines_fabric(8, 2), demand_of(FlowDistribution::zipf, 8));
    EXPECT_EQ(describe(a.strategy()), describe(b.strategy())) << name;
  }
}

TEST(JointBaselines, RejectBidirectionalCircuitsAndBadParameters) {
  for (const std::string& name : kBaselines) {
    FabricSpec f = joint_baselines_fabric(8, 2);
    f.circuits = CircuitKind::bidirectional;
    const Case c(name, f, uniform_demand(8, 1000));
    EXPECT_THROW(c.synthesizer->strategies(c.input(), std::nullopt), Error) << name;
  }
  EXPECT_THROW(Case("fast", joint_baselines_fabric(8, 1), uniform_demand(8, 1), {{"rounds", "sometimes"}}).strategy(),
               Error);
  EXPECT_THROW(
      Case("directconnect", joint_baselines_fabric(8, 2), uniform_demand(8, 1), {{"graph", "torus"}}).strategy(),
      Error);
  EXPECT_THROW(Case("topoopt", joint_baselines_fabric(8, 2), uniform_demand(8, 1), {{"paths", "0"}}).strategy(), Error);
}

}  // namespace
}  // namespace photonsim
