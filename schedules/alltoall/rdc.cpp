#include "schedules/alltoall/rdc.h"

#include <algorithm>

#include "core/error.h"
#include "schedules/alltoall/degree_k/degree_k_sequence.h"
#include "schedules/alltoall/flow_relabelling.h"
#include "schedules/alltoall/ring_shift_search.h"
#include "schedules/alltoall/round_merging.h"
#include "schedules/alltoall/shifted_ring_outlines.h"
#include "schedules/alltoall/shifted_ring_strategy.h"

namespace photonsim {

AlgorithmInfo Rdc::info() const {
  return {
      "rdc",
      {Collective::alltoall},
      "joint",
      "ReconfigureDuringCollective: shifted rings (k = 1) or Circulant/GenKautz + contraction (k > 1), d chosen for "
      "alpha_r",
      {ParameterSpec::choice("base", {"auto", "circulant", "genkautz"},
                             "k > 1: the base graph; auto = the cheaper per d"),
       ParameterSpec::computed("tie_seed", ParameterType::integer, "the experiment seed", "random shortest-path ties"),
       ParameterSpec::boolean("merge", false, "merge rounds for chunked flows")},
      "n >= 2",
      true};
}

bool Rdc::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {

constexpr int kRelabelLimit = 128;  // O(n^4) swaps search beyond this is too slow to be worth it

std::string shift_list(const std::vector<int>& shifts) {
  std::string out;
  for (int s : shifts) out += (out.empty() ? "" : ",") + std::to_string(s);
  return out;
}

std::string ring_construction(const RingShiftSearch& search, int d) {
  return "shifted rings " + shift_list(search.shifts(d));
}

// The labelling applied to a strategy built on labels 0..n-1.
AlltoallStrategy relabelled(const AlltoallStrategy& strategy, const std::vector<Node>& gpu_of,
                            const JointInput& input) {
  AlltoallStrategy out;
  out.construction = strategy.construction;
  for (const Topology& t : strategy.topologies) {
    std::vector<Edge> edges;
    for (const Edge& e : t.edges()) edges.push_back({gpu_of[e.first], gpu_of[e.second]});
    out.topologies.emplace_back(t.name(), t.gpus(), std::move(edges));
  }
  for (const StrategyRound& r : strategy.rounds) {
    StrategyRound round;
    round.topology = r.topology;
    for (const StrategyFlow& f : r.flows) {
      std::vector<Node> path = f.routes.front().path;
      for (Node& v : path) v = gpu_of[v];
      const Bytes bytes = input.demand_at(path.front(), path.back());
      if (bytes.count() > 0) round.flows.push_back(single_path_flow(std::move(path), bytes));
    }
    out.rounds.push_back(std::move(round));
  }
  return out;
}

std::vector<Node> labelling_for(const std::vector<LabelledRound>& rounds, const JointInput& input) {
  std::vector<Node> identity(static_cast<size_t>(input.gpus()));
  for (size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<Node>(i);
  if (input.uniform() || input.gpus() > kRelabelLimit) return identity;
  return relabel(rounds, input.demand, input.gpus());
}

void for_each_ring_strategy(const JointInput& input, std::optional<int> only,
                            const std::function<void(AlltoallStrategy&&)>& visit) {
  const int n = input.gpus();
  const RingShiftSearch search(n);
  std::vector<LabelledRound> offsets;  // every offset class is a round for every d
  for (int delta = 1; delta < n; ++delta) {
    LabelledRound round;
    for (int j = 0; j < n; ++j) round.pairs.push_back({static_cast<Node>(j), static_cast<Node>((j + delta) % n)});
    offsets.push_back(std::move(round));
  }
  const std::vector<Node> gpu_of = labelling_for(offsets, input);
  offsets.clear();
  offsets.shrink_to_fit();
  for (int d = 1; d <= n - 1; ++d) {
    if (only && *only != d) continue;
    visit(shifted_ring_strategy(search, d, gpu_of, input.demand, ring_construction(search, d)));
  }
}

DegreeKBase base_named(const std::string& name, const ComponentParams& params) {
  if (name == "circulant") return DegreeKBase::circulant;
  if (name == "genkautz") return DegreeKBase::genkautz;
  params.fail("base", "must be auto, circulant or genkautz, got '" + name + "'");
}

}  // namespace

void Rdc::check_input(const JointInput& input) const {
  if (input.workload.collective != Collective::alltoall) throw Error("algorithm 'rdc' implements alltoall only");
  if (input.fabric.circuits != CircuitKind::directed) {
    throw Error("algorithm 'rdc' builds directed topologies: set fabric.circuits: directed");
  }
  if (input.fabric.ports == 1 && input.params.text("base") != "auto") {
    input.params.fail("base", "applies to fabric.ports > 1 (k = 1 uses shifted rings)");
  }
}

std::vector<AlltoallStrategy> Rdc::degree_k_paper_strategies(const JointInput& input, std::optional<int> only) const {
  const std::string base = input.params.text("base");
  const uint64_t tie_seed =
      static_cast<uint64_t>(input.params.integer("tie_seed", static_cast<int64_t>(input.seed & 0x7fffffffffffffffULL)));
  std::vector<DegreeKBase> bases;
  if (base == "auto") {
    bases = {DegreeKBase::circulant, DegreeKBase::genkautz};
  } else {
    bases = {base_named(base, input.params)};
  }
  // Per d, the base whose strategy has the smaller hop sum (the planner then
  // predicts the time of each d's survivor).
  std::vector<AlltoallStrategy> best;
  for (DegreeKBase b : bases) {
    std::vector<AlltoallStrategy> family = degree_k_strategies(input.gpus(), input.fabric.ports, b, tie_seed, only);
    for (AlltoallStrategy& s : family) {
      auto same_d = std::find_if(best.begin(), best.end(),
                                 [&](const AlltoallStrategy& x) { return x.configurations() == s.configurations(); });
      if (same_d == best.end()) {
        best.push_back(std::move(s));
      } else if (s.hop_sum() < same_d->hop_sum()) {
        *same_d = std::move(s);
      }
    }
  }
  std::sort(best.begin(), best.end(), [](const AlltoallStrategy& a, const AlltoallStrategy& b) {
    return a.configurations() < b.configurations();
  });
  if (best.empty()) return best;
  std::vector<LabelledRound> rounds;
  for (const StrategyRound& r : best.front().rounds) {
    LabelledRound lr;
    lr.weight = r.hops();
    for (const StrategyFlow& f : r.flows) lr.pairs.push_back({f.src, f.dst});
    rounds.push_back(std::move(lr));
  }
  const std::vector<Node> gpu_of = labelling_for(rounds, input);
  for (AlltoallStrategy& s : best) s = relabelled(s, gpu_of, input);
  return best;
}

void Rdc::for_each_strategy(const JointInput& input, std::optional<int> only,
                            const std::function<void(AlltoallStrategy&&)>& visit) const {
  check_input(input);
  const bool merge = input.params.boolean("merge");
  const auto emit = [&](AlltoallStrategy&& s) {
    visit(merge ? merge_rounds_by_prediction(s, input.fabric, input.workload) : std::move(s));
  };
  if (input.fabric.ports == 1) {
    for_each_ring_strategy(input, only, emit);
    return;
  }
  // k > 1 picks the better base per d, then relabels from the first strategy's rounds: all d at once.
  for (AlltoallStrategy& s : degree_k_paper_strategies(input, only)) emit(std::move(s));
}

bool Rdc::for_each_outline(const JointInput& input, std::optional<int> only,
                           const std::function<void(StrategyOutline&&)>& visit) const {
  check_input(input);
  if (input.fabric.ports != 1 || !input.uniform() || input.params.boolean("merge")) return false;
  const Bytes bytes = input.demand_at(0, 1);
  if (bytes.count() == 0) return false;
  const RingShiftSearch search(input.gpus());
  for_each_shifted_ring_outline(
      search, bytes, only, [&](int d) { return ring_construction(search, d); }, visit);
  return true;
}

std::vector<AlltoallStrategy> Rdc::strategies(const JointInput& input, std::optional<int> only) const {
  std::vector<AlltoallStrategy> out;
  for_each_strategy(input, only, [&](AlltoallStrategy&& s) { out.push_back(std::move(s)); });
  return out;
}

}  // namespace photonsim
