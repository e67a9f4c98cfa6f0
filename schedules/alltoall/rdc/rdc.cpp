#include "schedules/alltoall/rdc/rdc.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "core/error.h"
#include "schedules/alltoall/degree_k/degree_k_circulant_sequence.h"
#include "schedules/alltoall/degree_k/degree_k_kautz_sequence.h"
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
                             "k > 1: the base graph; auto = the cheaper per d (circulant alone above 256 GPUs)"),
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

std::vector<Node> identity_labels(int gpus) {
  std::vector<Node> identity(static_cast<size_t>(gpus));
  for (size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<Node>(i);
  return identity;
}

bool relabels(const JointInput& input) { return input.gpus() <= kRelabelLimit && !input.uniform(); }

std::vector<Node> labelling_for(const std::vector<LabelledRound>& rounds, const JointInput& input) {
  if (!relabels(input)) return identity_labels(input.gpus());
  return relabel(rounds, input.demand, input.gpus());
}

// How far a family's contractions are: d of at most last_d (they stop
// early when no contraction lowers the hop sum).
void report_contractions(const JointInput& input, std::string_view family, int d, int last_d) {
  report_work(input.progress, {family, static_cast<double>(d), static_cast<double>(last_d), WorkTotal::at_most});
}

constexpr std::string_view kCirculantStage = "rdc: Circulant topologies contracted (d)";
constexpr std::string_view kCirculantOutlineStage = "rdc: Circulant topologies outlined (d)";
constexpr std::string_view kKautzStage = "rdc: Generalized Kautz topologies contracted (d)";

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
    if (!only) report_work(input.progress, {"rdc: shifted-ring strategies built (d)", d - 1.0, n - 1.0});
    visit(shifted_ring_strategy(search, d, gpu_of, input.demand, ring_construction(search, d)));
  }
}

DegreeKBase base_named(const std::string& name, const ComponentParams& params) {
  if (name == "circulant") return DegreeKBase::circulant;
  if (name == "genkautz") return DegreeKBase::genkautz;
  params.fail("base", "must be auto, circulant or genkautz, got '" + name + "'");
}

std::vector<DegreeKBase> bases_for(const JointInput& input) {
  const std::string base = input.params.text("base");
  if (base != "auto") return {base_named(base, input.params)};
  if (input.gpus() > Rdc::kGenKautzAutoLimit) return {DegreeKBase::circulant};
  return {DegreeKBase::circulant, DegreeKBase::genkautz};
}

bool circulant_only(const JointInput& input) {
  const std::vector<DegreeKBase> bases = bases_for(input);
  return bases.size() == 1 && bases.front() == DegreeKBase::circulant;
}

uint64_t tie_seed_of(const JointInput& input) {
  return static_cast<uint64_t>(
      input.params.integer("tie_seed", static_cast<int64_t>(input.seed & 0x7fffffffffffffffULL)));
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

void Rdc::for_each_degree_k_strategy(const JointInput& input, std::optional<int> only,
                                     const std::function<void(AlltoallStrategy&&)>& visit) const {
  const int n = input.gpus();
  const int ports = input.fabric.ports;
  const uint64_t tie_seed = tie_seed_of(input);
  const std::vector<DegreeKBase> bases = bases_for(input);
  const auto uses = [&](DegreeKBase b) { return std::find(bases.begin(), bases.end(), b) != bases.end(); };
  const int last_d = only.value_or(n - 1);

  // The labels come from the first strategy handed out (its rounds, section 4.4).
  std::optional<std::vector<Node>> gpu_of;
  const auto emit = [&](AlltoallStrategy&& strategy) {
    if (!gpu_of) {
      std::vector<LabelledRound> rounds;
      for (const StrategyRound& r : strategy.rounds) {
        LabelledRound lr;
        lr.weight = r.hops();
        for (const StrategyFlow& f : r.flows) lr.pairs.push_back({f.src, f.dst});
        rounds.push_back(std::move(lr));
      }
      gpu_of = labelling_for(rounds, input);
    }
    visit(relabelled(strategy, *gpu_of, input));
  };
  if (!uses(DegreeKBase::genkautz)) {
    for_each_circulant_stage(
        n, ports, tie_seed, last_d,
        [&](const CirculantStage& stage) {
          report_contractions(input, kCirculantStage, stage.configurations, last_d);
          if (!only || *only == stage.configurations) emit(circulant_strategy(stage));
        },
        input.progress);
    return;
  }

  // Both families: the Circulant family's stages, kept as reference rounds
  // and generators (O(n k d) values each) until the Kautz family reaches
  // their d; per d the family with the smaller hop sum is built (ties:
  // Circulant).
  struct CirculantCopy {
    int64_t hop_sum = 0;
    std::vector<std::vector<ReferenceRound>> rounds;
    std::vector<std::vector<int>> generators;
  };
  std::vector<CirculantCopy> circulant;  // index d - 1
  if (uses(DegreeKBase::circulant)) {
    for_each_circulant_stage(
        n, ports, tie_seed, last_d,
        [&](const CirculantStage& stage) {
          report_contractions(input, kCirculantStage, stage.configurations, last_d);
          CirculantCopy copy;
          for (const auto& per_topology : stage.rounds) copy.hop_sum += DegreeKReferencePacker::hop_sum(per_topology);
          if (!only || *only == stage.configurations) {
            copy.rounds = stage.rounds;
            for (const DegreeKReferencePacker& p : stage.packers) copy.generators.push_back(p.generators());
          }
          circulant.push_back(std::move(copy));
        },
        input.progress);
  }
  const auto emit_circulant = [&](int d) {
    CirculantCopy& copy = circulant[static_cast<size_t>(d - 1)];
    emit(circulant_strategy(n, copy.rounds, copy.generators));
    copy = CirculantCopy();
  };
  int next_d = 1;
  for_each_kautz_stage(n, ports, tie_seed, last_d, [&](const KautzStage& stage) {
    const int d = stage.configurations;
    report_contractions(input, kKautzStage, d, last_d);
    if (only && *only != d) return;
    const bool circulant_reaches = d <= static_cast<int>(circulant.size());
    if (circulant_reaches && circulant[static_cast<size_t>(d - 1)].hop_sum <= stage.hop_sum) {
      emit_circulant(d);
    } else {
      emit(stage.strategy());
    }
    next_d = d + 1;
  });
  for (int d = next_d; d <= static_cast<int>(circulant.size()); ++d) {
    if (!only || *only == d) emit_circulant(d);
  }
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
  for_each_degree_k_strategy(input, only, emit);
}

bool Rdc::for_each_outline(const JointInput& input, std::optional<int> only,
                           const std::function<void(StrategyOutline&&)>& visit) const {
  check_input(input);
  if (!input.uniform() || input.params.boolean("merge")) return false;
  const Bytes bytes = input.demand_at(0, 1);
  if (bytes.count() == 0) return false;
  if (input.fabric.ports > 1) {
    if (!circulant_only(input)) return false;
    const int n = input.gpus();
    for_each_circulant_stage(
        n, input.fabric.ports, tie_seed_of(input), only.value_or(n - 1),
        [&](const CirculantStage& stage) {
          report_contractions(input, kCirculantOutlineStage, stage.configurations, only.value_or(n - 1));
          if (!only || *only == stage.configurations) visit(circulant_outline(stage, bytes));
        },
        input.progress);
    return true;
  }
  const RingShiftSearch search(input.gpus());
  const double last_d = only ? 1.0 : static_cast<double>(input.gpus() - 1);
  for_each_shifted_ring_outline(
      search, bytes, only, [&](int d) { return ring_construction(search, d); },
      [&](StrategyOutline&& outline) {
        const double d = only ? 0.0 : static_cast<double>(outline.configurations - 1);
        report_work(input.progress, {"rdc: shifted-ring strategies outlined (d)", d, last_d});
        visit(std::move(outline));
      });
  return true;
}

std::vector<AlltoallStrategy> Rdc::strategies(const JointInput& input, std::optional<int> only) const {
  std::vector<AlltoallStrategy> out;
  for_each_strategy(input, only, [&](AlltoallStrategy&& s) { out.push_back(std::move(s)); });
  return out;
}

}  // namespace photonsim
