// Harvest (Rahman et al.): the DP over step ranges, Eq. 8 for recursive
// doubling, Table 1, and a brute-force oracle over every assignment of
// candidate topologies to steps.
#include "schedules/planners/harvest/harvest_planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "schedules/planners/harvest/harvest_candidates.h"
#include "schedules/cost/harvest/harvest_coefficients.h"
#include "schedules/planners/harvest/harvest_recursive_doubling.h"
#include "schedules/model/step_routes.h"
#include "schedules/synthesizer_registry.h"
#include "topology/flow/max_concurrent_flow.h"
#include "topology/topology_properties.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

using testing_support::test_workload;

constexpr double kHarvestPlannerInfinity = std::numeric_limits<double>::infinity();

FabricSpec harvest_planner_fabric(int gpus, int ports = 1, CircuitKind circuits = CircuitKind::directed) {
  FabricSpec f = testing_support::test_fabric(gpus, ports, circuits);
  f.step_overhead = Time::ns(0);
  f.reconfig_delay = Time::us(10);
  return f;
}

// u -> u + 2^exponent: the circuits of recursive doubling's step exponent + 1.
Topology power_ring(int n, int exponent) {
  std::vector<Edge> edges;
  for (int u = 0; u < n; ++u) edges.push_back({static_cast<Node>(u), static_cast<Node>((u + (1 << exponent)) % n)});
  return Topology("ring", n, edges);
}

Topology two_way_ring(int n) {
  std::vector<Edge> edges;
  for (int u = 0; u < n; ++u) {
    edges.push_back({static_cast<Node>(u), static_cast<Node>((u + 1) % n)});
    edges.push_back({static_cast<Node>((u + 1) % n), static_cast<Node>(u)});
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return Topology("two-way ring", n, edges);
}

struct Problem {
  FabricSpec fabric;
  WorkloadSpec workload;
  std::string algorithm;
  std::optional<Topology> initial;
  std::map<std::string, std::string> planner_params;
  uint64_t seed = 1;
};

StepPattern pattern_of(const Problem& p) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (const auto& a : registry.algorithms()) {
    if (a.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
    if (a.info.name != p.algorithm) continue;
    const ComponentParams params(a.info.name, {}, a.info.parameters, "algorithm");
    return a.algorithm->pattern(AlgorithmInput{p.fabric, p.workload, params});
  }
  throw Error("no algorithm " + p.algorithm);
}

// The tests below check the paper's own formulas (Eq. 3/4, Eq. 8, Table 1)
// unless a problem names its cost; the planner's default is `overlapped`.
PlanningInput input_of(const Problem& p) {
  std::map<std::string, std::string> params = p.planner_params;
  params.emplace("cost", "paper");
  PlanningInput input;
  input.fabric = p.fabric;
  input.workload = p.workload;
  input.algorithm = p.algorithm;
  input.planner = "harvest";
  input.params = ComponentParams("harvest", params, HarvestPlanner().info().parameters, "planner");
  input.seed = p.seed;
  input.initial = p.initial;
  return input;
}

Schedule harvest_planner_plan(const Problem& p, HarvestFlowCache& cache) {
  return HarvestPlanner().plan_with_cache(pattern_of(p), input_of(p), cache);
}

double ps(Time t) { return static_cast<double>(t.picoseconds()); }

// Rounding each predicted term to a picosecond, and LP tolerances.
void expect_same_cost(double expected_ps, Time predicted, size_t steps, const std::string& where) {
  EXPECT_NEAR(ps(predicted), expected_ps, 2.0 * static_cast<double>(steps) + 1e-7 * expected_ps) << where;
}

// ---------------------------------------------------------------- Eq. 8

TEST(HarvestRecursiveDoubling, Eq8IsTheSumOfItsStepsOnTheRingOfTheFirstStep) {
  HarvestCoefficients c;
  c.alpha_ps = 700;
  c.delta_ps = 500'000;
  c.beta_ps_per_byte = 10;
  const double m = 1 << 20;
  const std::vector<HarvestRdStep> steps = harvest_rd_reduce_scatter(64, m);
  ASSERT_EQ(steps.size(), 6u);
  for (int a = 1; a <= 6; ++a) {
    for (int b = a; b <= 6; ++b) {
      double sum = 0;
      for (int i = a; i <= b; ++i) sum += harvest_rd_step_ps(steps[static_cast<size_t>(i - 1)], a - 1, c);
      EXPECT_DOUBLE_EQ(harvest_eq8_ps(a, b, m, c), sum) << a << ".." << b;
    }
  }
  EXPECT_EQ(harvest_rd_step_ps(steps[0], 1, c), kHarvestPlannerInfinity);  // the ring u -> u+2 cannot reach u+1
}

// Every n = 2^j up to 64, alpha_r 10 ns .. 10 ms and message 1 KB .. 1 GB (by
// decades; rounded up to a multiple of 64 so blocks are equal, as Eq. 8
// assumes): the LP-based DP over all candidates finds exactly the optimum
// of the closed form, reduce-scatter (Eq. 8 verbatim) and AllReduce, from an
// unconfigured fabric and from the ring.
TEST(HarvestRecursiveDoubling, DynamicProgramEqualsEq8ClosedForm) {
  HarvestFlowCache cache;  // theta does not depend on message or delays: one LP per (topology, step shape)
  size_t checked = 0;
  for (int n = 2; n <= 64; n *= 2) {
    for (int64_t alpha_r = 10'000; alpha_r <= 10'000'000'000; alpha_r *= 10) {
      for (int64_t decade = 1000; decade <= 1'000'000'000; decade *= 10) {
        const int64_t message = (decade + 63) / 64 * 64;
        for (Collective collective : {Collective::reducescatter, Collective::allreduce}) {
          for (bool from_ring : {false, true}) {
            Problem p{harvest_planner_fabric(n),
                      test_workload(collective, message),
                      "recursive_doubling",
                      std::nullopt,
                      {},
                      1};
            p.fabric.reconfig_delay = Time::ps(alpha_r);
            p.fabric.step_overhead = Time::ns(300);
            if (from_ring) p.initial = power_ring(n, 0);
            const std::string where = "n=" + std::to_string(n) + " alpha_r=" + std::to_string(alpha_r) +
                                      "ps m=" + std::to_string(message) + " " + to_string(collective) +
                                      (from_ring ? " from ring" : " unconfigured");
            p.planner_params["closed_form"] = "false";
            const Schedule by_dp = harvest_planner_plan(p, cache);
            ASSERT_EQ(by_dp.prediction().model, "harvest") << where;
            p.planner_params["closed_form"] = "true";
            const Schedule by_eq8 = harvest_planner_plan(p, cache);
            ASSERT_EQ(by_eq8.prediction().model, "harvest_eq8") << where;

            const HarvestCoefficients c = HarvestCoefficients::of(p.fabric);
            std::optional<int> initial_exponent;
            if (from_ring) initial_exponent = 0;
            if (collective == Collective::reducescatter) {
              // Eq. 8 verbatim: m / 2^i in step i.
              const HarvestPartition eq8 = harvest_recursive_doubling(
                  harvest_rd_reduce_scatter(n, static_cast<double>(message)), c, initial_exponent);
              double literal = 0;
              int previous = initial_exponent.value_or(-1);
              for (const HarvestRange& r : eq8.ranges) {
                literal += harvest_eq8_ps(r.first + 1, r.last + 1, static_cast<double>(message), c);
                if (r.topology != previous) literal += c.alpha_r_ps;
                previous = r.topology;
              }
              EXPECT_NEAR(literal, eq8.cost_ps, 1e-9 * literal) << where;
              expect_same_cost(eq8.cost_ps, by_dp.prediction().total(), by_dp.steps().size(), where);
            }
            expect_same_cost(ps(by_eq8.prediction().total()), by_dp.prediction().total(), by_dp.steps().size(), where);
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 6u * 7 * 7 * 2 * 2);
  // Across the whole grid each (topology, step shape) LP ran once.
  EXPECT_LT(cache.lp_solves(), 2000u);
  EXPECT_GT(cache.flow_lookups(), 10 * cache.lp_solves());
}

TEST(HarvestRecursiveDoubling, ClosedFormEqualsExhaustiveSearchOverRings) {
  // Exhaustive: every assignment of a ring u -> u + 2^e to every reduce-scatter
  // step (log2(n)^log2(n) of them, 46656 at n = 64), each step costed alone and
  // alpha_r charged at every change, against the closed-form planner.
  // Both step costs: the smallest-distance ring is the best for a range under either.
  for (HarvestCost cost : {HarvestCost::paper, HarvestCost::overlapped}) {
    for (int n = 2; n <= 64; n *= 2) {
      int levels = 0;
      while ((1 << levels) < n) ++levels;
      for (int64_t alpha_r = 10'000; alpha_r <= 10'000'000'000; alpha_r *= 10) {
        for (double message = 1e3; message <= 1e9; message *= 10) {
          for (bool from_ring : {false, true}) {
            FabricSpec f = harvest_planner_fabric(n);
            f.reconfig_delay = Time::ps(alpha_r);
            f.step_overhead = Time::ns(300);
            f.router = RouterMode::store_and_forward;
            f.packet = Bytes(4096);  // the overlapped cost's fill term is then (h - 1) packets
            const HarvestCoefficients c =
                HarvestCoefficients::of(f, test_workload(Collective::reducescatter, 1 << 20), cost);
            const std::vector<HarvestRdStep> steps = harvest_rd_reduce_scatter(n, message);
            const std::optional<int> initial = from_ring ? std::optional<int>(0) : std::nullopt;
            std::vector<int> pick(steps.size(), 0);
            double best = std::numeric_limits<double>::infinity();
            for (;;) {
              double total = 0;
              int current = initial.value_or(-1);
              for (size_t i = 0; i < steps.size(); ++i) {
                if (pick[i] != current) total += c.alpha_r_ps;
                total += harvest_rd_step_ps(steps[i], pick[i], c);
                current = pick[i];
              }
              best = std::min(best, total);
              size_t digit = 0;
              while (digit < pick.size() && ++pick[digit] == levels) pick[digit++] = 0;
              if (digit == pick.size()) break;
            }
            const double dp = harvest_recursive_doubling(steps, c, initial).cost_ps;
            EXPECT_NEAR(dp, best, 1e-9 * best) << "n=" << n << " alpha_r=" << alpha_r << "ps m=" << message
                                               << (from_ring ? " from ring" : " unconfigured")
                                               << (cost == HarvestCost::paper ? " paper" : " overlapped");
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------- the overlapped cost

// Worked by hand: alpha = delta = 500 ns, beta = 10 ps/B (800 Gbps), a step
// where every GPU sends m = 62,500 B over l = 8 hops of a ring whose circuits
// each carry 8 of the flows (1 / theta = 8 units of m). The paper's Eq. 3:
// 500 + 8 * 500 + 10 * 62,500 * 8 / 1000 = 9,500 ns. Overlapped, cut-through
// with a 64 B header: max(500 + 5,000, 4,000 + 7 * 0.64 + 625) + 500 =
// 6,000 ns, what the packet engine measures for that step (the busiest
// circuit's serialisation plus one latency). A lone 8-hop transfer (1 /
// theta = 1): max(500 + 625, 4,000 + 4.48 + 625) + 500 = 5,129.48 ns.
TEST(HarvestCoefficients, OverlappedCostTakesTheLargerOfTheBusiestCircuitAndTheLongestRoute) {
  FabricSpec f = harvest_planner_fabric(64);
  f.step_overhead = Time::ns(500);
  f.router = RouterMode::cut_through;
  f.header = Bytes(64);
  const WorkloadSpec w = test_workload(Collective::allreduce, 1 << 20);
  const HarvestCoefficients paper = HarvestCoefficients::of(f, w, HarvestCost::paper);
  const HarvestCoefficients overlapped = HarvestCoefficients::of(f, w, HarvestCost::overlapped);
  EXPECT_DOUBLE_EQ(paper.step_ps(62'500, 8, 8, 62'500), 9'500'000.0);
  EXPECT_DOUBLE_EQ(overlapped.step_ps(62'500, 8, 8, 62'500), 6'000'000.0);
  EXPECT_DOUBLE_EQ(overlapped.terms(62'500, 8, 8, 62'500).propagation_ps, 500'000.0);
  EXPECT_DOUBLE_EQ(overlapped.step_ps(62'500, 1, 8, 62'500), 5'129'480.0);
  EXPECT_DOUBLE_EQ(overlapped.terms(62'500, 1, 8, 62'500).propagation_ps, 4'000'000.0);
  // Store-and-forward of 4096 B packets: the fill is 7 packets, 286.72 ns.
  f.router = RouterMode::store_and_forward;
  f.packet = Bytes(4096);
  const HarvestCoefficients packets = HarvestCoefficients::of(f, w, HarvestCost::overlapped);
  EXPECT_DOUBLE_EQ(packets.step_ps(62'500, 1, 8, 62'500), 500'000.0 + 4'000'000.0 + 286'720.0 + 625'000.0);
  // Whole transfers stored and forwarded: h (delta + beta m), Eq. 3's lock-step.
  f.packet = Bytes(0);
  const HarvestCoefficients whole = HarvestCoefficients::of(f, w, HarvestCost::overlapped);
  EXPECT_DOUBLE_EQ(whole.step_ps(62'500, 8, 8, 62'500), 500'000.0 + 8 * (500'000.0 + 625'000.0));
  // No hops (an empty step): alpha alone under both.
  EXPECT_DOUBLE_EQ(overlapped.step_ps(0, 0, 0, 0), 500'000.0);
}

// ---------------------------------------------------------------- Table 1

// Harvest's Table 1: recursive doubling (reduce-scatter) on n = 8 from the
// ring G1 (u -> u+1). With alpha = 0, delta = 500 ns, beta = 10 ps/B and
// m = 8 MB: static G1,G1,G1 costs 7 delta + 1.5 beta m; G1,G2,G2 4 delta +
// beta m + alpha_r; G1,G2,G3 3 delta + 0.75 beta m + 2 alpha_r. So
// alpha_r = 100 us, 30 us and 1 us select the three rows.
TEST(HarvestTable1, ReproducesTheThreeSchedulesOfTable1) {
  const int64_t m = 8'000'000;
  struct Row {
    int64_t alpha_r_us;
    std::vector<int> rings;       // exponent of the ring each step runs on
    std::vector<int> congestion;  // = hops of every flow, per step
    int reconfigurations;
  };
  const std::vector<Row> rows = {
      {100, {0, 0, 0}, {1, 2, 4}, 0},  // G1, G1, G1: congestion and propagation 4x in step 3
      {30, {0, 1, 1}, {1, 1, 2}, 1},   // G1, G2, G2: 2x
      {1, {0, 1, 2}, {1, 1, 1}, 2},    // G1, G2, G3: 1x, two reconfigurations
  };
  for (const char* closed_form : {"true", "false"}) {
    for (const Row& row : rows) {
      Problem p{harvest_planner_fabric(8),      test_workload(Collective::reducescatter, m),
                "recursive_doubling",           power_ring(8, 0),
                {{"closed_form", closed_form}}, 1};
      p.fabric.reconfig_delay = Time::us(row.alpha_r_us);
      HarvestFlowCache cache;
      const Schedule s = harvest_planner_plan(p, cache);
      const std::string where =
          std::string("closed_form=") + closed_form + " alpha_r=" + std::to_string(row.alpha_r_us) + "us";
      ASSERT_EQ(s.steps().size(), 3u) << where;
      EXPECT_EQ(s.reconfigurations(), row.reconfigurations) << where;
      for (size_t i = 0; i < 3; ++i) {
        const Topology& topology = s.topologies()[static_cast<size_t>(s.steps()[i].topology)];
        EXPECT_EQ(topology, power_ring(8, row.rings[i])) << where << " step " << i + 1;
        const StepPrediction& pred = s.prediction().steps[i];
        const int64_t step_bytes = m >> (i + 1);  // m / 2^i
        EXPECT_EQ(pred.startup, Time::zero());
        EXPECT_EQ(pred.propagation, Time::ns(500) * row.congestion[i]) << where << " step " << i + 1;
        EXPECT_NEAR(ps(pred.transmission), 10.0 * static_cast<double>(step_bytes * row.congestion[i]), 2.0)
            << where << " step " << i + 1;
        const bool changes = i > 0 && row.rings[i] != row.rings[i - 1];
        EXPECT_EQ(pred.reconfiguration, changes ? Time::us(row.alpha_r_us) : Time::zero())
            << where << " step " << i + 1;
      }
    }
  }
}

// ---------------------------------------------------------------- brute force

// The demand of a step in integer units (bytes / gcd), independent of the planner's code.
DemandMatrix unit_demand(int n, const std::vector<Transfer>& step, int64_t& unit) {
  std::map<Edge, int64_t> bytes;
  for (const Transfer& t : step) {
    if (t.bytes.count() > 0) bytes[{t.src, t.dst}] += t.bytes.count();
  }
  unit = 0;
  for (const auto& [pair, b] : bytes) unit = std::gcd(unit, b);
  DemandMatrix d(n);
  for (const auto& [pair, b] : bytes) d.set(pair.first, pair.second, static_cast<double>(b / unit));
  return d;
}

// DCT_i(G) = alpha + delta * l_i(G) + beta * m_i / theta(G, M_i) (Eq. 3).
double step_cost(const Topology& g, const std::vector<Transfer>& step, const HarvestCoefficients& c) {
  const std::vector<std::vector<int>> dist = hop_distances(g);
  for (const Transfer& t : step) {
    if (dist[t.src][t.dst] < 0) return kHarvestPlannerInfinity;
  }
  int64_t unit = 0;
  const DemandMatrix d = unit_demand(g.gpus(), step, unit);
  if (unit == 0) return c.alpha_ps;
  const ConcurrentFlow flow = max_concurrent_flow(g, d);
  int longest = 0;
  for (const auto& row : flow.paths) {
    for (const auto& paths : row) {
      double total = 0;
      for (const FlowPath& path : paths) total += path.amount;
      for (const FlowPath& path : paths) {
        if (path.amount > 1e-9 * total) longest = std::max(longest, static_cast<int>(path.links.size()));
      }
    }
  }
  std::map<Edge, int64_t> pair_bytes;
  int64_t largest = 0;
  for (const Transfer& t : step) largest = std::max(largest, pair_bytes[{t.src, t.dst}] += t.bytes.count());
  if (c.cost == HarvestCost::paper) {
    return c.alpha_ps + c.delta_ps * longest + c.beta_ps_per_byte * static_cast<double>(unit) / flow.theta;
  }
  const double by_lp = c.step_ps(static_cast<double>(unit), 1.0 / flow.theta, longest, static_cast<double>(largest));
  // The overlapped cost may also take every pair's shortest path (the simulator's route).
  std::vector<Transfer> units;
  for (const auto& [pair, bytes] : pair_bytes) {
    if (bytes == 0) continue;
    Transfer t;
    t.src = pair.first;
    t.dst = pair.second;
    t.bytes = Bytes(bytes / unit);
    units.push_back(t);
  }
  std::vector<double> load(g.edges().size(), 0.0);
  int hops = 0;
  for (const RoutedFlow& routed : route_step(Step{0, units}, g, 0)) {
    for (uint32_t link : routed.links) load[link] += static_cast<double>(routed.bytes.count());
    hops = std::max(hops, static_cast<int>(routed.links.size()));
  }
  const double busiest = *std::max_element(load.begin(), load.end());
  return std::min(by_lp, c.step_ps(static_cast<double>(unit), busiest, hops, static_cast<double>(largest)));
}

// Every assignment of candidates to steps; Eq. 4 with the initial state of MODELS.md rule 2.
double brute_force(const std::vector<std::vector<double>>& cost, const std::vector<Topology>& candidates,
                   const std::optional<Topology>& initial, double alpha_r, int cap) {
  const size_t steps = cost.size(), k = candidates.size();
  std::vector<size_t> pick(steps, 0);
  double best = kHarvestPlannerInfinity;
  for (;;) {
    double total = 0;
    int changes = 0;
    for (size_t i = 0; i < steps; ++i) {
      total += cost[i][pick[i]];
      const bool change = i == 0 ? !initial || !(candidates[pick[0]] == *initial) : pick[i] != pick[i - 1];
      if (change) {
        ++changes;
        total += alpha_r;
      }
    }
    if (changes <= cap) best = std::min(best, total);
    size_t i = 0;
    while (i < steps && ++pick[i] == k) pick[i++] = 0;
    if (i == steps) return best;
  }
}

TEST(HarvestExhaustive, DynamicProgramEqualsBruteForceOnRandomSmallInstances) {
  struct Shape {
    const char* algorithm;
    Collective collective;
    std::vector<int> sizes;  // n giving at most 4 steps
  };
  const std::vector<Shape> shapes = {
      {"ring", Collective::reducescatter, {3, 4, 5}},
      {"recursive_doubling", Collective::reducescatter, {6, 8, 12, 16}},
      {"recursive_doubling", Collective::allreduce, {4}},
      {"direct", Collective::alltoall, {4, 5}},
      {"bruck", Collective::alltoall, {6, 8, 16}},
      {"swing", Collective::reducescatter, {8, 16}},
      {"bine", Collective::allgather, {8}},
  };
  const std::vector<const char*> families = {"step", "shifted_ring", "torus", "expander"};
  Rng rng(20240611);
  int compared = 0, reconfiguring = 0, infeasible = 0, too_large = 0;
  for (int instance = 0; instance < 120; ++instance) {
    const Shape& shape = shapes[rng.uniform(shapes.size())];
    const int n = shape.sizes[rng.uniform(shape.sizes.size())];
    const bool bidirectional = rng.uniform(4) == 0;
    const int ports = bidirectional ? 2 : 1 + static_cast<int>(rng.uniform(2));
    const int64_t message = int64_t{1000} << (2 * rng.uniform(8));  // 1 KB .. 16 MB
    Problem p{harvest_planner_fabric(n, ports, bidirectional ? CircuitKind::bidirectional : CircuitKind::directed),
              test_workload(shape.collective, message),
              shape.algorithm,
              std::nullopt,
              {},
              1 + rng.uniform(5)};
    p.fabric.reconfig_delay = Time::ns(int64_t{10} << (3 * rng.uniform(6)));  // 10 ns .. ~330 us
    p.fabric.step_overhead = Time::ns(static_cast<int64_t>(rng.uniform(2)) * 700);
    p.fabric.latency = Time::ns(static_cast<int64_t>(rng.uniform(3)) * 250);
    if (rng.uniform(2) == 1) p.initial = bidirectional ? two_way_ring(n) : power_ring(n, 0);
    std::string list = "initial";
    for (const char* family : families) {
      if (rng.uniform(3) != 0) list += std::string(", ") + family;
    }
    p.planner_params["candidates"] = "[" + list + "]";
    int cap = std::numeric_limits<int>::max();
    if (rng.uniform(3) == 0) {
      cap = static_cast<int>(rng.uniform(3)) + (p.initial ? 0 : 1);
      p.planner_params["max_reconfigurations"] = std::to_string(cap);
    }
    p.planner_params["closed_form"] = "false";
    const HarvestCost cost = instance % 2 == 0 ? HarvestCost::paper : HarvestCost::overlapped;
    p.planner_params["cost"] = cost == HarvestCost::paper ? "paper" : "overlapped";
    if (cost == HarvestCost::overlapped) p.fabric.packet = Bytes(int64_t{1000} << rng.uniform(6));

    const StepPattern pattern = pattern_of(p);
    const std::vector<Topology> candidates = harvest_candidates(
        pattern.steps, p.fabric, p.seed, p.initial, HarvestCandidateFamilies::parse(input_of(p).params, "candidates"));
    const std::string where = "instance " + std::to_string(instance) + ": " + shape.algorithm +
                              " n=" + std::to_string(n) + " ports=" + std::to_string(ports) + " candidates=[" + list +
                              "] (" + std::to_string(candidates.size()) +
                              ") steps=" + std::to_string(pattern.steps.size());
    ASSERT_LE(pattern.steps.size(), 4u) << where;
    HarvestFlowCache cache;
    if (candidates.empty()) {  // e.g. only tori on one port
      EXPECT_THROW(harvest_planner_plan(p, cache), Error) << where;
      ++infeasible;
      continue;
    }
    double assignments = std::pow(static_cast<double>(candidates.size()), static_cast<double>(pattern.steps.size()));
    if (assignments > 3e5) {  // keep the oracle quick
      ++too_large;
      continue;
    }

    const HarvestCoefficients c = HarvestCoefficients::of(p.fabric, p.workload, cost);
    std::vector<std::vector<double>> step_costs(pattern.steps.size());
    for (size_t i = 0; i < pattern.steps.size(); ++i) {
      for (const Topology& g : candidates) step_costs[i].push_back(step_cost(g, pattern.steps[i], c));
    }
    const double oracle = brute_force(step_costs, candidates, p.initial, c.alpha_r_ps, cap);
    if (oracle == kHarvestPlannerInfinity) {  // no candidate routes some step (within the cap)
      EXPECT_THROW(harvest_planner_plan(p, cache), Error) << where;
      ++infeasible;
      continue;
    }
    const Schedule s = harvest_planner_plan(p, cache);
    expect_same_cost(oracle, s.prediction().total(), s.steps().size(), where);
    EXPECT_LE(s.reconfigurations(), cap) << where;
    // The prediction is the plan's own Eq. 4 cost, step by step.
    double own = 0;
    for (size_t i = 0; i < s.steps().size(); ++i) {
      const Topology& g = s.topologies()[static_cast<size_t>(s.steps()[i].topology)];
      own += step_cost(g, pattern.steps[i], c) + (s.reconfigures_before(i) ? c.alpha_r_ps : 0.0);
    }
    expect_same_cost(own, s.prediction().total(), s.steps().size(), where);
    ++compared;
    reconfiguring += s.reconfigurations() > (p.initial ? 0 : 1) ? 1 : 0;
  }
  std::printf(
      "[harvest] DP == brute force on %d random instances (%d reconfigure mid-collective); "
      "%d infeasible (both refuse), %d too large for the oracle\n",
      compared, reconfiguring, infeasible, too_large);
  EXPECT_GE(compared, 80);
}

// ---------------------------------------------------------------- planner behaviour

TEST(HarvestPlanner, SplitsTransfersOverTheDecompositionPathsWithExactBytes) {
  // n = 4 on the two-way ring u -> u+-1, one transfer 0 -> 2 of 1001 bytes:
  // theta = 2 needs both 2-hop paths at full rate, so the bytes split 500/501.
  Problem p{harvest_planner_fabric(4, 2),
            test_workload(Collective::alltoall, 1001),
            "direct",
            std::nullopt,
            {{"candidates", "[initial]"}, {"max_reconfigurations", "0"}},
            1};
  std::vector<Edge> edges;
  for (Node u = 0; u < 4; ++u) {
    edges.push_back({u, (u + 1) % 4});
    edges.push_back({u, (u + 3) % 4});
  }
  p.initial = Topology("two-way ring", 4, edges);
  Transfer t;
  t.src = 0;
  t.dst = 2;
  t.bytes = Bytes(1001);
  StepPattern pattern;
  pattern.steps = {{t}};
  HarvestFlowCache cache;
  const Schedule s = HarvestPlanner().plan_with_cache(pattern, input_of(p), cache);
  ASSERT_EQ(s.reconfigurations(), 0);
  const Transfer& routed = s.steps()[0].transfers[0];
  ASSERT_EQ(routed.routes.size(), 2u);
  EXPECT_EQ(routed.routes[0].bytes + routed.routes[1].bytes, Bytes(1001));
  EXPECT_EQ(std::max(routed.routes[0].bytes, routed.routes[1].bytes), Bytes(501));  // remainder on the largest share
  EXPECT_NE(routed.routes[0].path, routed.routes[1].path);
  EXPECT_EQ(s.prediction().steps[0].propagation, Time::ns(1000));
  EXPECT_NEAR(ps(s.prediction().steps[0].transmission), 10.0 * 1001 / 2, 2.0);  // beta * m / theta, theta = 2
}

TEST(HarvestPlanner, SolvesEachLpOnceAcrossPlans) {
  Problem p{harvest_planner_fabric(8), test_workload(Collective::allreduce, 1 << 20), "swing", std::nullopt, {}, 1};
  HarvestFlowCache cache;
  harvest_planner_plan(p, cache);
  const size_t solved = cache.lp_solves();
  EXPECT_GT(solved, 0u);
  p.workload.message = Bytes(1 << 24);  // proportional demands: the same LPs
  p.fabric.reconfig_delay = Time::us(1);
  harvest_planner_plan(p, cache);
  EXPECT_EQ(cache.lp_solves(), solved);
}

TEST(HarvestPlanner, RespectsMaxReconfigurationsAndChargesTheFirstConfiguration) {
  Problem p{harvest_planner_fabric(16),
            test_workload(Collective::allreduce, 1 << 26),
            "recursive_doubling",
            std::nullopt,
            {},
            1};
  p.fabric.reconfig_delay = Time::ns(10);  // so cheap that every step would get its own circuits
  for (const char* closed_form : {"true", "false"}) {
    p.planner_params = {{"closed_form", closed_form}};
    HarvestFlowCache cache;
    p.workload.collective = Collective::allreduce;
    EXPECT_EQ(harvest_planner_plan(p, cache).reconfigurations(), 7);  // rings 1,2,4,8,8,4,2,1: the middle two share one
    p.workload.collective = Collective::reducescatter;
    EXPECT_EQ(harvest_planner_plan(p, cache).reconfigurations(), 4);
    p.planner_params["max_reconfigurations"] = "2";
    const Schedule capped = harvest_planner_plan(p, cache);
    EXPECT_EQ(capped.reconfigurations(), 2) << closed_form;
    EXPECT_EQ(capped.prediction().steps[0].reconfiguration, Time::ns(10));  // unconfigured: the first is charged
  }
  p.planner_params = {{"max_reconfigurations", "0"}};
  HarvestFlowCache cache;
  EXPECT_THROW(harvest_planner_plan(p, cache), Error);
}

TEST(HarvestPlanner, RejectsBadParameters) {
  Problem p{harvest_planner_fabric(8), test_workload(Collective::allreduce, 1 << 20), "ring", std::nullopt, {}, 1};
  HarvestFlowCache cache;
  p.planner_params = {{"candidates", "[ring]"}};
  try {
    harvest_planner_plan(p, cache);
    FAIL() << "accepted an unknown family";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'candidates'"), std::string::npos) << e.what();
  }
  p.planner_params = {{"max_reconfigurations", "-1"}};
  EXPECT_THROW(harvest_planner_plan(p, cache), Error);
  p.planner_params = {{"closed_form", "maybe"}};
  EXPECT_THROW(harvest_planner_plan(p, cache), Error);
}

TEST(HarvestPlanner, IsRegisteredAndKeepsItsPrediction) {
  SynthesisSpec synthesis;
  synthesis.algorithm = "recursive_doubling";
  synthesis.planner = "harvest";
  synthesis.topology.type = "ring";
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize(
      harvest_planner_fabric(8), test_workload(Collective::allreduce, 1 << 20), synthesis);
  EXPECT_EQ(s.planner(), "harvest");
  EXPECT_EQ(s.prediction().model, "harvest_overlapped");  // the default cost, closed form or DP
  const auto model_with = [&](std::map<std::string, std::string> params) {
    synthesis.planner_params = std::move(params);
    return SynthesizerRegistry::with_builtins()
        .synthesize(harvest_planner_fabric(8), test_workload(Collective::allreduce, 1 << 20), synthesis)
        .prediction()
        .model;
  };
  EXPECT_EQ(model_with({{"closed_form", "false"}}), "harvest_overlapped");
  EXPECT_EQ(model_with({{"cost", "paper"}}), "harvest_eq8");
  EXPECT_EQ(model_with({{"cost", "paper"}, {"closed_form", "false"}}), "harvest");
}

// Planner timings live in tests/bench/planner_benchmark.cpp (scripts/dev/bench).

}  // namespace
}  // namespace photonsim
