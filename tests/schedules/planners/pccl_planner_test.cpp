// PcclPlanner: the DP is exact (against an exhaustive search over every
// option sequence PCCL's ILP allows), its cost model, the dependency
// constraint, and the paper's 128-GPU RHD reduce-scatter case (Section 5).
#include "schedules/planners/pccl_planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "schedules/planners/port_split.h"
#include "schedules/algorithms/rhd.h"
#include "schedules/synthesizer_registry.h"
#include "topology/congestion_dilation.h"
#include "topology/shortest_path_router.h"
#include "topology/step_circuits.h"
#include "topology/topology_registry.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

using testing_support::test_workload;

const Bandwidth k450GBps = Bandwidth::bits_per_second(3'600'000'000'000);  // 450 GB/s

FabricSpec pccl_planner_fabric(int gpus, int ports, CircuitKind circuits = CircuitKind::directed) {
  FabricSpec f;
  f.gpus = gpus;
  f.ports = ports;
  f.circuits = circuits;
  f.bandwidth = k450GBps;
  f.latency = Time::us(3);
  f.reconfig_delay = Time::us(5);
  return f;
}

// The tests check PCCL's own Eq. 1 and the paper's decisions unless they name
// the cost; the planner's default is `fabric` (alpha_beta_congestion).
PlanningInput planning_input(const FabricSpec& f, const WorkloadSpec& w, std::optional<Topology> initial,
                             std::map<std::string, std::string> params = {}) {
  params.emplace("cost", "paper");
  PlanningInput in;
  in.fabric = f;
  in.workload = w;
  in.algorithm = "test";
  in.planner = "pccl";
  in.params = ComponentParams("pccl", std::move(params), PcclPlanner().info().parameters, "planner");
  in.initial = std::move(initial);
  return in;
}

Transfer pccl_planner_xfer(Node src, Node dst, int64_t bytes) {
  Transfer t;
  t.src = src;
  t.dst = dst;
  t.bytes = Bytes(bytes);
  return t;
}

// The generator spec of a `standard` name, written out here so the oracle does
// not borrow the planner's own mapping.
TopologySpec spec_for(const std::string& name) {
  if (name == "bidirectional_ring") return {"ring", {{"bidirectional", "true"}}};
  if (name == "torus3d") return {"torus", {{"dimensions", "3"}}};
  if (name == "grid3d") return {"grid", {{"dimensions", "3"}}};
  return {name, {}};
}

std::optional<Topology> try_make(const std::string& name, const FabricSpec& f) {
  try {
    return TopologyRegistry::with_builtin_generators().make(spec_for(name), f);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::string pccl_planner_join(const std::vector<std::string>& names) {
  std::string out = "[";
  for (const std::string& n : names) out += (out.size() > 1 ? ", " : "") + n;
  return out + "]";
}

// ---- the exhaustive oracle ------------------------------------------------------
// Enumerates every sequence of per-round options PCCL allows (keep what is in
// place, the round's own circuits, any candidate = G_0 or a member of S) and
// costs each with Algorithm 2 on its own: the paper's
// latency*dilation + congestion*w/B (w = the largest transfer), or the bytes on
// the busiest edge routed here hop by hop. A round-j topology is reachable only
// by choosing it at round j and keeping it, which is constraint (5).
struct Best {
  Time cost = Time::max();
  int reconfigurations = 0;
};

class ExhaustiveOracle {
 public:
  ExhaustiveOracle(std::vector<std::vector<Transfer>> rounds, std::vector<Topology> candidates,
                   std::optional<Topology> initial, FabricSpec f, bool paper_w)
      : rounds_(std::move(rounds)), fabric_(std::move(f)), paper_w_(paper_w) {
    if (initial) {
      initial_ = 0;
      all_.push_back(*initial);
    }
    for (Topology& t : candidates) all_.push_back(std::move(t));
    candidates_ = all_.size();
    for (size_t i = 0; i < rounds_.size(); ++i) {
      std::vector<Edge> pairs;
      for (const Transfer& t : rounds_[i]) pairs.push_back({t.src, t.dst});
      all_.push_back(circuits_for_pairs("own", fabric_.gpus, pairs, fabric_.circuits));
    }
    memo_.assign(all_.size(), std::vector<std::optional<std::optional<Time>>>(rounds_.size()));
  }

  uint64_t sequences() const {
    uint64_t total = 1;
    for (size_t i = 0; i < rounds_.size(); ++i) total *= candidates_ + 2;
    return total;
  }

  Best best() {
    best_ = Best{};
    search(0, initial_, Time::zero(), 0);
    return best_;
  }

  // Communication + startup of `round` on `topology`; nullopt when unroutable.
  std::optional<Time> round_cost(const Topology& topology, size_t round) const {
    std::vector<Edge> pairs;
    for (const Transfer& t : rounds_[round]) pairs.push_back({t.src, t.dst});
    const CongestionDilation cd = compute_congestion_dilation(topology, pairs);
    if (!cd.reachable) return std::nullopt;
    if (paper_w_) {
      Bytes w;
      for (const Transfer& t : rounds_[round]) w = std::max(w, t.bytes);
      return cd.cost(fabric_.latency, fabric_.bandwidth, w) + fabric_.step_overhead;
    }
    const ShortestPathRouter router(topology);
    std::map<Edge, int64_t> bytes;
    int64_t busiest = 0;
    for (const Transfer& t : rounds_[round]) {
      const std::vector<Node> path = router.path(t.src, t.dst);
      for (size_t h = 0; h + 1 < path.size(); ++h) {
        busiest = std::max(busiest, bytes[{path[h], path[h + 1]}] += t.bytes.count());
      }
    }
    return fabric_.latency * cd.dilation + fabric_.bandwidth.serialization(Bytes(busiest)) + fabric_.step_overhead;
  }

  // The cost of a planned schedule under this oracle's model.
  std::optional<Time> cost_of(const Schedule& s) const {
    Time total;
    for (size_t i = 0; i < s.steps().size(); ++i) {
      const auto c = round_cost(s.topologies()[static_cast<size_t>(s.steps()[i].topology)], i);
      if (!c) return std::nullopt;
      total += *c + (s.reconfigures_before(i) ? fabric_.reconfig_delay : Time::zero());
    }
    return total;
  }

  const std::vector<std::vector<Transfer>>& rounds() const { return rounds_; }
  const Topology& own(size_t round) const { return all_[candidates_ + round]; }
  bool is_candidate(const Topology& t) const {
    return std::find(all_.begin(), all_.begin() + static_cast<std::ptrdiff_t>(candidates_), t) !=
           all_.begin() + static_cast<std::ptrdiff_t>(candidates_);
  }

 private:
  const std::optional<Time>& cost(size_t index, size_t round) {
    auto& slot = memo_[index][round];
    if (!slot) slot = round_cost(all_[index], round);
    return *slot;
  }

  void search(size_t round, int in_place, Time so_far, int reconfigurations) {
    if (round == rounds_.size()) {
      if (std::tie(so_far, reconfigurations) < std::tie(best_.cost, best_.reconfigurations)) {
        best_ = Best{so_far, reconfigurations};
      }
      return;
    }
    std::vector<size_t> options;
    if (in_place >= 0) options.push_back(static_cast<size_t>(in_place));  // keep
    options.push_back(candidates_ + round);                               // own circuits
    for (size_t k = 0; k < candidates_; ++k) options.push_back(k);        // G_0 and S
    for (size_t option : options) {
      const std::optional<Time>& c = cost(option, round);
      if (!c) continue;
      const bool changes = in_place < 0 || !(all_[static_cast<size_t>(in_place)] == all_[option]);
      search(round + 1, static_cast<int>(option), so_far + *c + (changes ? fabric_.reconfig_delay : Time::zero()),
             reconfigurations + (changes ? 1 : 0));
    }
  }

  std::vector<std::vector<Transfer>> rounds_;
  FabricSpec fabric_;
  bool paper_w_;
  int initial_ = -1;
  std::vector<Topology> all_;  // initial, S, then each round's own circuits
  size_t candidates_ = 0;
  std::vector<std::vector<std::optional<std::optional<Time>>>> memo_;
  Best best_;
};

struct Instance {
  std::string label;
  FabricSpec fabric;
  WorkloadSpec workload;
  StepPattern pattern;
  std::optional<Topology> initial;
  std::vector<std::string> standard;  // names that build and fit
  bool paper_w = false;
};

// What the optimal plans did, so the report shows the search was not trivial.
struct Coverage {
  int own = 0;        // steps on their own round's circuits
  int kept = 0;       // steps on an earlier round's circuits, kept since
  int candidate = 0;  // steps on G_0 or a member of S (and not on their own circuits)
  int mixed = 0;      // plans with at least two of those kinds
};

// Plans with the DP, searches exhaustively, and checks they agree. Returns false
// when the instance is too big to enumerate (then nothing is checked).
bool check_instance(const Instance& in, Coverage& coverage) {
  std::vector<Topology> standard;
  for (const std::string& name : in.standard) standard.push_back(*try_make(name, in.fabric));
  std::vector<std::vector<Transfer>> rounds;
  for (const auto& step : in.pattern.steps) {
    for (auto& group : split_to_ports(step, in.fabric)) rounds.push_back(std::move(group));
  }
  ExhaustiveOracle oracle(rounds, standard, in.initial, in.fabric, in.paper_w);
  if (oracle.sequences() > 200'000) return false;

  std::map<std::string, std::string> params{{"standard", pccl_planner_join(in.standard)}};
  if (in.paper_w) params["w"] = "max_transfer";
  const Schedule s = PcclPlanner().plan(in.pattern, planning_input(in.fabric, in.workload, in.initial, params));
  const Best best = oracle.best();
  std::ostringstream where;
  where << in.label << " n=" << in.fabric.gpus << " ports=" << in.fabric.ports << " " << to_string(in.fabric.circuits)
        << " r=" << in.fabric.reconfig_delay << " initial=" << (in.initial ? in.initial->name() : "none")
        << " S=" << pccl_planner_join(in.standard) << " w=" << (in.paper_w ? "max_transfer" : "edge_bytes")
        << " rounds=" << rounds.size();

  EXPECT_EQ(s.steps().size(), rounds.size()) << where.str();
  EXPECT_EQ(s.prediction().steps.size(), rounds.size()) << where.str();
  EXPECT_EQ(s.prediction().total(), best.cost) << where.str();
  // Among the optimal plans the DP takes one with the fewest reconfigurations.
  EXPECT_EQ(s.reconfigurations(), best.reconfigurations) << where.str();
  // The emitted plan costs what its prediction says, and reconfigures where it says.
  const std::optional<Time> replanned = oracle.cost_of(s);
  EXPECT_TRUE(replanned.has_value()) << where.str();
  if (replanned) {
    EXPECT_EQ(*replanned, s.prediction().total()) << where.str();
  }
  for (size_t i = 0; i < s.steps().size(); ++i) {
    EXPECT_EQ(s.prediction().steps[i].reconfiguration,
              s.reconfigures_before(i) ? in.fabric.reconfig_delay : Time::zero())
        << where.str() << " step " << i;
  }
  // Constraint (5): a step on circuits no option offers at that step runs on
  // round j's own circuits for some earlier j, and so does every step since j.
  auto topology_of = [&](size_t k) -> const Topology& {
    return s.topologies()[static_cast<size_t>(s.steps()[k].topology)];
  };
  int kinds[3] = {0, 0, 0};
  for (size_t i = 0; i < s.steps().size(); ++i) {
    const Topology& t = topology_of(i);
    ++kinds[t == oracle.own(i) ? 0 : oracle.is_candidate(t) ? 2 : 1];
    if (t == oracle.own(i) || oracle.is_candidate(t)) continue;
    bool kept_since_its_round = false;
    for (size_t j = 0; j < i && !kept_since_its_round; ++j) {
      if (!(t == oracle.own(j))) continue;
      kept_since_its_round = true;
      for (size_t k = j; k <= i; ++k) kept_since_its_round = kept_since_its_round && topology_of(k) == t;
    }
    EXPECT_TRUE(kept_since_its_round) << where.str() << ": step " << i << " runs on '" << t.name()
                                      << "', which it could neither enter nor have kept";
  }
  coverage.own += kinds[0];
  coverage.kept += kinds[1];
  coverage.candidate += kinds[2];
  coverage.mixed += (kinds[0] > 0) + (kinds[1] > 0) + (kinds[2] > 0) >= 2 ? 1 : 0;
  return true;
}

Time pick_time(Rng& rng) {
  switch (rng.uniform(6)) {
    case 0:
      return Time::zero();
    case 1:
      return Time::us(1);
    case 2:
      return Time::us(5);
    case 3:
      return Time::us(50);
    case 4:
      return Time::ms(1);
    default:
      return Time::ps(static_cast<int64_t>(rng.uniform(2'000'000'000)));
  }
}

// A random fabric, starting topology and candidate set for n GPUs.
Instance random_setting(Rng& rng, int n) {
  Instance in;
  in.fabric = pccl_planner_fabric(n, 1 + static_cast<int>(rng.uniform(4)),
                                  rng.uniform(2) ? CircuitKind::bidirectional : CircuitKind::directed);
  in.fabric.reconfig_delay = pick_time(rng);
  in.fabric.latency = rng.uniform(3) == 0 ? Time::zero() : Time::ns(500) * static_cast<int64_t>(1 + rng.uniform(6));
  in.fabric.step_overhead = rng.uniform(2) ? Time::zero() : Time::us(2);
  if (rng.uniform(2)) in.fabric.bandwidth = Bandwidth::bits_per_second(800'000'000'000);
  in.paper_w = rng.uniform(2) == 0;
  switch (rng.uniform(4)) {
    case 0:
      break;  // unconfigured
    case 1:
      in.initial = try_make("ring", in.fabric);
      break;
    case 2:
      in.initial = try_make("torus", in.fabric);
      break;
    default: {  // a random matching: some pairs joined both ways
      std::vector<Node> order(static_cast<size_t>(n));
      for (int v = 0; v < n; ++v) order[static_cast<size_t>(v)] = static_cast<Node>(v);
      for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.uniform(i)]);
      std::vector<Edge> pairs;
      for (size_t i = 0; i + 1 < order.size(); i += 2) pairs.push_back({order[i], order[i + 1]});
      in.initial = circuits_for_pairs("matching", n, pairs, CircuitKind::bidirectional);
    }
  }
  for (const char* name : {"ring", "bidirectional_ring", "torus", "grid", "hypercube", "torus3d"}) {
    if (rng.uniform(2) && try_make(name, in.fabric)) in.standard.push_back(name);
  }
  return in;
}

TEST(PcclPlanner, DpEqualsExhaustiveSearchOnRandomPatterns) {
  Rng rng(20250211);
  int checked = 0;
  Coverage coverage;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 2 + static_cast<int>(rng.uniform(15));
    Instance in = random_setting(rng, n);
    in.label = "random#" + std::to_string(trial);
    in.workload = test_workload(Collective::alltoall, 1'000'000);
    const size_t steps = 1 + rng.uniform(5);
    for (size_t s = 0; s < steps; ++s) {
      std::vector<Transfer> step;
      if (s > 0 && rng.uniform(2)) {
        // A part of an earlier round: that round's circuits route it in one hop,
        // but constraint (5) only lets the plan keep them, never go back to them.
        for (const Transfer& t : in.pattern.steps[rng.uniform(s)]) {
          if (rng.uniform(2)) step.push_back(t);
        }
        if (!step.empty()) {
          in.pattern.steps.push_back(std::move(step));
          continue;
        }
      }
      const size_t transfers = 1 + rng.uniform(static_cast<uint64_t>(n));
      for (size_t k = 0; k < transfers; ++k) {
        const auto src = static_cast<Node>(rng.uniform(static_cast<uint64_t>(n)));
        auto dst = static_cast<Node>(rng.uniform(static_cast<uint64_t>(n - 1)));
        if (dst >= src) ++dst;
        // Sizes differ within a round, so edge_bytes and max_transfer disagree.
        step.push_back(pccl_planner_xfer(src, dst, 1000 + static_cast<int64_t>(rng.uniform(5'000'000))));
      }
      in.pattern.steps.push_back(std::move(step));
    }
    if (check_instance(in, coverage)) ++checked;
  }
  std::cout << "[ PCCL     ] DP == exhaustive on " << checked
            << " random hand-built patterns (optimal steps: " << coverage.own << " own circuits, " << coverage.kept
            << " kept from an earlier round, " << coverage.candidate << " on G_0 or S; " << coverage.mixed
            << " plans mix kinds)\n";
  EXPECT_GE(checked, 300);
}

TEST(PcclPlanner, DpEqualsExhaustiveSearchOnRegisteredAlgorithms) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  const std::vector<std::pair<std::string, Collective>> algorithms{{"rhd", Collective::reducescatter},
                                                                   {"rhd", Collective::allgather},
                                                                   {"rhd", Collective::allreduce},
                                                                   {"swing", Collective::reducescatter},
                                                                   {"recursive_doubling", Collective::reducescatter},
                                                                   {"ring", Collective::reducescatter},
                                                                   {"bine", Collective::reducescatter},
                                                                   {"bruck", Collective::alltoall},
                                                                   {"dex", Collective::alltoall},
                                                                   {"direct", Collective::alltoall},
                                                                   {"binomial", Collective::broadcast}};
  Rng rng(7);
  int checked = 0;
  Coverage coverage;
  for (int trial = 0; trial < 160; ++trial) {
    const auto& [name, collective] = algorithms[static_cast<size_t>(trial) % algorithms.size()];
    const int n = 2 + static_cast<int>(rng.uniform(15));
    Instance in = random_setting(rng, n);
    in.label = name + "/" + to_string(collective);
    in.workload = test_workload(collective, 64'000'000);
    for (const auto& a : registry.algorithms()) {
      if (a.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
      if (a.info.name != name) continue;
      try {
        const ComponentParams params(a.info.name, {}, a.info.parameters, "algorithm");
        in.pattern = a.algorithm->pattern(AlgorithmInput{in.fabric, in.workload, params});
      } catch (const Error&) {
        in.pattern.steps.clear();  // a size the algorithm does not support
      }
    }
    if (in.pattern.steps.empty()) continue;
    if (check_instance(in, coverage)) ++checked;
  }
  std::cout << "[ PCCL     ] DP == exhaustive on " << checked
            << " registered-algorithm instances (optimal steps: " << coverage.own << " own circuits, " << coverage.kept
            << " kept from an earlier round, " << coverage.candidate << " on G_0 or S; " << coverage.mixed
            << " plans mix kinds)\n";
  EXPECT_GE(checked, 60);
}

// ---- the cost model and the options, by hand ---------------------------------------

// Unidirectional ring of 8, kept (r huge): 0->2 (1000 B) and 1->3 (3000 B) both
// cross 1->2. Dilation 2; congestion 2; edge_bytes loads 4000 B on 1->2, the
// paper's congestion * max w charges 2 * 3000 B.
TEST(PcclPlanner, CostIsLatencyTimesDilationPlusSerialisedLoad) {
  FabricSpec f = pccl_planner_fabric(8, 1);
  f.reconfig_delay = Time::ms(1000);
  f.step_overhead = Time::ns(700);
  const Topology ring = *try_make("ring", f);
  StepPattern p;
  p.steps = {{pccl_planner_xfer(0, 2, 1000), pccl_planner_xfer(1, 3, 3000)}};
  for (const auto& [w, bytes] :
       std::vector<std::pair<std::string, int64_t>>{{"edge_bytes", 4000}, {"max_transfer", 6000}}) {
    const Schedule s = PcclPlanner().plan(
        p, planning_input(f, test_workload(Collective::alltoall, 1000), ring, {{"standard", "[]"}, {"w", w}}));
    ASSERT_EQ(s.prediction().steps.size(), 1u);
    const StepPrediction& step = s.prediction().steps[0];
    EXPECT_EQ(s.prediction().model, w == "edge_bytes" ? "pccl" : "pccl_max_transfer");
    EXPECT_EQ(step.reconfiguration, Time::zero()) << w;
    EXPECT_EQ(step.startup, Time::ns(700)) << w;
    EXPECT_EQ(step.propagation, Time::us(6)) << w;  // 2 hops x 3 us
    EXPECT_EQ(step.transmission, k450GBps.serialization(Bytes(bytes))) << w;
    EXPECT_EQ(s.topologies()[static_cast<size_t>(s.steps()[0].topology)], ring) << w;
  }
}

// The same round under the default cost, the fabric's: store-and-forward
// of whole transfers serialises 1->3's 3000 B at each of its two hops, so
// the slowest transfer alone takes 2 x (3 us + 3000 B / 450 GB/s); the
// busiest circuit (4000 B, plus one latency) is shorter. Eq. 1 charges the
// serialisation once.
TEST(PcclPlanner, FabricCostSerialisesEveryStoreAndForwardHop) {
  FabricSpec f = pccl_planner_fabric(8, 1);
  f.reconfig_delay = Time::ms(1000);
  const Topology ring = *try_make("ring", f);
  StepPattern p;
  p.steps = {{pccl_planner_xfer(0, 2, 1000), pccl_planner_xfer(1, 3, 3000)}};
  PlanningInput in = planning_input(f, test_workload(Collective::alltoall, 1000), ring, {{"standard", "[]"}});
  in.params = ComponentParams("pccl", {{"standard", "[]"}}, PcclPlanner().info().parameters, "planner");
  const Schedule s = PcclPlanner().plan(p, in);
  EXPECT_EQ(s.prediction().model, "alpha_beta_congestion");
  const StepPrediction& step = s.prediction().steps[0];
  EXPECT_EQ(step.propagation, Time::us(6));
  EXPECT_EQ(step.transmission, k450GBps.serialization(Bytes(3000)) * 2);
}

// Two parallel circuits 0 -> 1 share a round's transfers (route_step spreads
// them), so edge_bytes loads the busier circuit, 300 B; the paper counts the
// edge key once: congestion 2 x max w 300 B.
TEST(PcclPlanner, ParallelCircuitsShareTheLoadUnderEdgeBytes) {
  FabricSpec f = pccl_planner_fabric(2, 2);
  f.reconfig_delay = Time::ms(1000);
  const Topology doubled("doubled", 2, {{0, 1}, {0, 1}, {1, 0}});
  StepPattern p;
  p.steps = {{pccl_planner_xfer(0, 1, 100), pccl_planner_xfer(0, 1, 300)}};
  for (const auto& [w, bytes] :
       std::vector<std::pair<std::string, int64_t>>{{"edge_bytes", 300}, {"max_transfer", 600}}) {
    const Schedule s = PcclPlanner().plan(
        p, planning_input(f, test_workload(Collective::alltoall, 100), doubled, {{"standard", "[]"}, {"w", w}}));
    EXPECT_EQ(s.reconfigurations(), 0) << w;
    EXPECT_EQ(s.prediction().steps[0].transmission, k450GBps.serialization(Bytes(bytes))) << w;
  }
}

// Rounds 0 and 1 need disjoint circuits; rounds 2 (0->1) and 3 (1->0) both run in
// one hop on round 0's circuits, but going back to them at round 2 is not
// allowed (constraint (5)): the plan must take G_2 and G_3, four reconfigurations.
TEST(PcclPlanner, DependencyConstraintForbidsReturningToAnEarlierRoundsCircuits) {
  FabricSpec f = pccl_planner_fabric(4, 2);
  f.reconfig_delay = Time::ms(1);
  StepPattern p;
  p.steps = {{pccl_planner_xfer(0, 1, 100), pccl_planner_xfer(1, 0, 100), pccl_planner_xfer(2, 3, 100),
              pccl_planner_xfer(3, 2, 100)},
             {pccl_planner_xfer(0, 2, 100), pccl_planner_xfer(2, 0, 100), pccl_planner_xfer(1, 3, 100),
              pccl_planner_xfer(3, 1, 100)},
             {pccl_planner_xfer(0, 1, 100)},
             {pccl_planner_xfer(1, 0, 100)}};
  const Schedule s = PcclPlanner().plan(
      p, planning_input(f, test_workload(Collective::alltoall, 100), std::nullopt, {{"standard", "[]"}}));
  EXPECT_EQ(s.reconfigurations(), 4);
  const Topology round0 = s.topologies()[static_cast<size_t>(s.steps()[0].topology)];
  EXPECT_FALSE(s.topologies()[static_cast<size_t>(s.steps()[2].topology)] == round0);
  EXPECT_EQ(s.prediction().total(), (Time::ms(1) + Time::us(3) + k450GBps.serialization(Bytes(100))) * 4);
}

TEST(PcclPlanner, FreeReconfigurationPutsEveryRoundOnItsOwnCircuits) {
  FabricSpec f = pccl_planner_fabric(16, 1);
  f.reconfig_delay = Time::zero();
  const WorkloadSpec w = test_workload(Collective::reducescatter, 1'000'000'000);
  const StepPattern p =
      Rhd().pattern(AlgorithmInput{f, w, ComponentParams("rhd", {}, Rhd().info().parameters, "algorithm")});
  const Schedule s = PcclPlanner().plan(p, planning_input(f, w, *try_make("ring", f)));
  ASSERT_EQ(s.steps().size(), 4u);
  EXPECT_EQ(s.reconfigurations(), 4);
  for (const StepPrediction& step : s.prediction().steps) EXPECT_EQ(step.propagation, Time::us(3));
}

TEST(PcclPlanner, ProhibitiveReconfigurationKeepsTheInitialTopology) {
  FabricSpec f = pccl_planner_fabric(16, 4);
  f.reconfig_delay = Time::ms(100'000);
  const WorkloadSpec w = test_workload(Collective::reducescatter, 1'000'000);
  const StepPattern p =
      Rhd().pattern(AlgorithmInput{f, w, ComponentParams("rhd", {}, Rhd().info().parameters, "algorithm")});
  const Topology torus = *try_make("torus", f);
  const Schedule kept = PcclPlanner().plan(p, planning_input(f, w, torus));
  EXPECT_EQ(kept.reconfigurations(), 0);
  for (const Step& step : kept.steps()) EXPECT_EQ(kept.topologies()[static_cast<size_t>(step.topology)], torus);
  // Unconfigured, it must configure once, and once is enough.
  const Schedule once = PcclPlanner().plan(p, planning_input(f, w, std::nullopt));
  EXPECT_EQ(once.reconfigurations(), 1);
  EXPECT_EQ(once.prediction().steps[0].reconfiguration, f.reconfig_delay);
}

// Node 0 sends to three peers with one port: PCCL Section 4.2 splits the round in three.
TEST(PcclPlanner, RoundsOverThePortLimitAreSplit) {
  const FabricSpec f = pccl_planner_fabric(4, 1);
  StepPattern p;
  p.steps = {{pccl_planner_xfer(0, 1, 10), pccl_planner_xfer(0, 2, 10), pccl_planner_xfer(0, 3, 10)}};
  const Schedule s = PcclPlanner().plan(
      p, planning_input(f, test_workload(Collective::alltoall, 10), std::nullopt, {{"standard", "[]"}}));
  ASSERT_EQ(s.steps().size(), 3u);
  for (const Step& step : s.steps()) EXPECT_EQ(step.transfers.size(), 1u);
  EXPECT_EQ(split_to_ports(p.steps[0], f).size(), 3u);
}

TEST(PcclPlanner, DefaultStandardSetKeepsWhatFitsThePorts) {
  // With one port only the unidirectional ring fits; the rest are skipped silently.
  FabricSpec f = pccl_planner_fabric(16, 1);
  f.reconfig_delay = Time::ms(100'000);
  const WorkloadSpec w = test_workload(Collective::reducescatter, 1'000'000);
  const StepPattern p =
      Rhd().pattern(AlgorithmInput{f, w, ComponentParams("rhd", {}, Rhd().info().parameters, "algorithm")});
  const Schedule s = PcclPlanner().plan(p, planning_input(f, w, std::nullopt));
  EXPECT_EQ(s.reconfigurations(), 1);
  for (const Step& step : s.steps()) {
    const Topology& t = s.topologies()[static_cast<size_t>(step.topology)];
    EXPECT_TRUE(t == *try_make("ring", f)) << t.name();
  }
  // With four ports the hypercube (degree 4 at n = 16) routes RHD contention-free.
  f.ports = 4;
  const Schedule h = PcclPlanner().plan(p, planning_input(f, w, std::nullopt));
  EXPECT_EQ(h.reconfigurations(), 1);
  EXPECT_EQ(h.topologies()[static_cast<size_t>(h.steps()[0].topology)], *try_make("hypercube", f));
}

TEST(PcclPlanner, BadParametersNameThemselves) {
  const FabricSpec f = pccl_planner_fabric(12, 2);
  StepPattern p;
  p.steps = {{pccl_planner_xfer(0, 1, 10)}};
  auto message_of = [&](std::map<std::string, std::string> params, int ports = 2) {
    FabricSpec wide = f;
    wide.ports = ports;
    try {
      PcclPlanner().plan(
          p, planning_input(wide, test_workload(Collective::alltoall, 10), std::nullopt, std::move(params)));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string ports = message_of({{"standard", "[ring, torus]"}});  // the torus needs 4 ports
  EXPECT_NE(ports.find("parameter 'standard'"), std::string::npos) << ports;
  EXPECT_NE(ports.find("'torus'"), std::string::npos) << ports;
  const std::string size = message_of({{"standard", "[hypercube]"}});  // 12 is no power of two
  EXPECT_NE(size.find("parameter 'standard'"), std::string::npos) << size;
  const std::string unknown = message_of({{"standard", "[moebius]"}});
  EXPECT_NE(unknown.find("moebius"), std::string::npos) << unknown;
  const std::string w = message_of({{"w", "average"}});
  EXPECT_NE(w.find("parameter 'w'"), std::string::npos) << w;
  const std::string dims = message_of({{"standard", "[grid:5x4]"}});
  EXPECT_NE(dims.find("parameter 'standard'"), std::string::npos) << dims;
  EXPECT_EQ(message_of({{"standard", "[ring, bidirectional_ring, torus:3x4, grid:2x2x3]"}}, 6), "no error");
  EXPECT_EQ(message_of({{"standard", "[]"}, {"w", "max_transfer"}}), "no error");
}

// ---- the paper's setup: 128 GPUs, RHD reduce-scatter, 1 GB, alpha 3 us, 450 GB/s ----

std::string choices(const Schedule& s) {
  std::string out;
  for (size_t i = 0; i < s.steps().size(); ++i) {
    const StepPrediction& p = s.prediction().steps[i];
    out += "    round " + std::to_string(i) + ": " + s.topologies()[static_cast<size_t>(s.steps()[i].topology)].name() +
           (s.reconfigures_before(i) ? " (reconfigure)" : " (keep)") +
           " dilation=" + std::to_string(p.propagation.picoseconds() / Time::us(3).picoseconds()) +
           " time=" + format_time(p.total()) + "\n";
  }
  return out;
}

Schedule paper_case(Time r, const TopologySpec& start, int ports, std::map<std::string, std::string> params = {}) {
  FabricSpec f = pccl_planner_fabric(128, ports);
  f.reconfig_delay = r;
  const WorkloadSpec w = test_workload(Collective::reducescatter, 1'000'000'000);  // 1 GB
  SynthesisSpec synthesis;
  synthesis.algorithm = "rhd";
  synthesis.planner = "pccl";
  synthesis.topology = start;
  params.emplace("cost", "paper");
  synthesis.planner_params = std::move(params);
  return SynthesizerRegistry::with_builtins().synthesize(f, w, synthesis);
}

const TopologySpec kBidirectionalRing{"ring", {{"bidirectional", "true"}}};

std::string pccl_planner_name_of(const TopologySpec& spec, const FabricSpec& f) {
  return TopologyRegistry::with_builtin_generators().make(spec, f)->name();
}

// S = ring, 2D/3D torus, 2D/3D grid (PCCL's Section 5 topologies): six ports fit
// the 3D torus 4x4x8 but not the hypercube (degree 7).
TEST(PcclPlanner, Paper128GpuRhdReduceScatterReconfigures7TimesAt5usAndFewerAt1ms) {
  for (const TopologySpec& start : {kBidirectionalRing, TopologySpec{"torus", {}}, TopologySpec{"grid", {}}}) {
    const std::string name = pccl_planner_name_of(start, pccl_planner_fabric(128, 6));
    const Schedule fast = paper_case(Time::us(5), start, 6);
    ASSERT_EQ(fast.steps().size(), 7u);
    EXPECT_EQ(fast.reconfigurations(), 7) << name << "\n" << choices(fast);  // log2(128)
    for (const StepPrediction& p : fast.prediction().steps) EXPECT_EQ(p.propagation, Time::us(3)) << name;
    const Schedule slow = paper_case(Time::ms(1), start, 6);
    EXPECT_LT(slow.reconfigurations(), 7) << name << "\n" << choices(slow);
    std::cout << "[ PCCL     ] 128 GPUs, 6 ports, start " << name << ": r=5us -> " << fast.reconfigurations()
              << " reconfigurations, " << format_time(fast.prediction().total()) << "; r=1ms -> "
              << slow.reconfigurations() << " reconfigurations, " << format_time(slow.prediction().total())
              << "\n  r=5us:\n"
              << choices(fast) << "  r=1ms:\n"
              << choices(slow);
  }
}

// With S empty the only way back from a round's circuits is the starting ring
// (the ILP's G_0): rounds 0-2 (distances 64, 32, 16) on their own circuits,
// then back to the ring, which carries distances 8..1 well enough: four
// reconfigurations, the count of PCCL's Figure 9. The full S above does better
// (two reconfigurations, 4.762 ms against 7.474 ms).
TEST(PcclPlanner, Paper128GpuWithOnlyTheRingToReturnToReconfiguresFourTimesAt1ms) {
  const Schedule s = paper_case(Time::ms(1), kBidirectionalRing, 6, {{"standard", "[]"}});
  EXPECT_EQ(s.reconfigurations(), 4) << choices(s);
  const std::vector<std::string> expected{"step0",
                                          "step1",
                                          "step2",
                                          "bidirectional_ring",
                                          "bidirectional_ring",
                                          "bidirectional_ring",
                                          "bidirectional_ring"};
  ASSERT_EQ(s.steps().size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(s.topologies()[static_cast<size_t>(s.steps()[i].topology)].name(), expected[i]) << "round " << i;
  }
  std::cout << "[ PCCL     ] 128 GPUs, start bidirectional_ring, S = [], r=1ms: " << s.reconfigurations()
            << " reconfigurations, " << format_time(s.prediction().total()) << "\n"
            << choices(s);
}

// With a port for every hypercube dimension the hypercube holds every RHD
// round's circuits: one reconfiguration serves all seven rounds, whatever r.
TEST(PcclPlanner, Paper128GpuWithTheHypercubeInSReconfiguresOnce) {
  for (Time r : {Time::us(5), Time::ms(1)}) {
    const Schedule s = paper_case(r, kBidirectionalRing, 8);
    EXPECT_EQ(s.reconfigurations(), 1) << choices(s);
    std::cout << "[ PCCL     ] 128 GPUs, 8 ports, start bidirectional_ring, r=" << format_time(r) << ": "
              << s.reconfigurations() << " reconfiguration, " << format_time(s.prediction().total()) << "\n"
              << choices(s);
  }
}

}  // namespace
}  // namespace photonsim
