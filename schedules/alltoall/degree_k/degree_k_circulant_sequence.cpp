#include "schedules/alltoall/degree_k/degree_k_contraction_choice.h"
#include "schedules/alltoall/degree_k/degree_k_circulant_sequence.h"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <string>
#include <utility>

#include "core/rng.h"
#include "schedules/alltoall/degree_k/degree_k_circulant_base.h"
#include "schedules/alltoall/degree_k/degree_k_reference_packer.h"

namespace photonsim {

namespace {

constexpr size_t kContractionTries = 4;  // rounds tried per contraction step

// Rounds per topology (topology by topology, fewer hops first within one).
struct Stage {
  std::vector<std::vector<ReferenceRound>> rounds;
  int64_t hop_sum = 0;
};

int64_t hop_sum_of(const Stage& stage) {
  int64_t sum = 0;
  for (const auto& per_topology : stage.rounds) sum += DegreeKReferencePacker::hop_sum(per_topology);
  return sum;
}

bool every_topology_used(const Stage& stage) {
  return std::none_of(stage.rounds.begin(), stage.rounds.end(), [](const auto& r) { return r.empty(); });
}

std::string generator_list(const std::vector<int>& generators) {
  std::string out;
  for (int g : generators) out += (out.empty() ? "" : ",") + std::to_string(g);
  return out;
}

std::string construction_of(const std::vector<std::vector<int>>& generators) {
  std::string out = "circulant(" + generator_list(generators.front()) + ")";
  if (generators.size() > 1) {
    out += " + " + std::to_string(generators.size() - 1) + " contraction" + (generators.size() > 2 ? "s" : "");
  }
  return out;
}

std::vector<std::vector<int>> generators_of(const std::vector<DegreeKReferencePacker>& packers) {
  std::vector<std::vector<int>> out;
  out.reserve(packers.size());
  for (const DegreeKReferencePacker& p : packers) out.push_back(p.generators());
  return out;
}

Topology circulant_topology(int n, const std::vector<int>& generators) {
  std::vector<Edge> edges;
  edges.reserve(static_cast<size_t>(n) * generators.size());
  for (int u = 0; u < n; ++u) {
    for (int g : generators) edges.push_back({static_cast<Node>(u), static_cast<Node>((u + g) % n)});
  }
  return Topology("circulant(" + generator_list(generators) + ")", n, std::move(edges));
}

}  // namespace

AlltoallStrategy circulant_strategy(const CirculantStage& stage) {
  return circulant_strategy(stage.packers.front().gpus(), stage.rounds, generators_of(stage.packers));
}

AlltoallStrategy circulant_strategy(int n, const std::vector<std::vector<ReferenceRound>>& rounds,
                                    const std::vector<std::vector<int>>& generator_sets) {
  AlltoallStrategy strategy;
  strategy.construction = construction_of(generator_sets);
  for (size_t t = 0; t < rounds.size(); ++t) {
    const std::vector<int>& generators = generator_sets[t];
    strategy.topologies.push_back(circulant_topology(n, generators));
    for (const ReferenceRound& reference : rounds[t]) {
      StrategyRound round;
      round.topology = static_cast<int>(t);
      round.flows.reserve(reference.sequences.size() * static_cast<size_t>(n));
      for (const std::vector<int>& sequence : reference.sequences) {
        for (int u = 0; u < n; ++u) {
          std::vector<Node> path;
          path.reserve(sequence.size() + 1);
          int at = u;
          path.push_back(static_cast<Node>(at));
          for (int j : sequence) {
            at = (at + generators[static_cast<size_t>(j)]) % n;
            path.push_back(static_cast<Node>(at));
          }
          round.flows.push_back(single_path_flow(std::move(path), Bytes(1)));
        }
      }
      strategy.rounds.push_back(std::move(round));
    }
  }
  return strategy;
}

namespace {

// Rounds with more than one hop as (topology, round), most hops first (ties:
// the later round).
std::vector<std::pair<size_t, size_t>> rounds_by_hops(const Stage& stage) {
  std::vector<std::pair<int, std::pair<size_t, size_t>>> keyed;
  for (size_t t = 0; t < stage.rounds.size(); ++t) {
    for (size_t r = 0; r < stage.rounds[t].size(); ++r) {
      if (stage.rounds[t][r].hops > 1) keyed.push_back({stage.rounds[t][r].hops, {t, r}});
    }
  }
  std::sort(keyed.begin(), keyed.end(), std::greater<>());
  std::vector<std::pair<size_t, size_t>> out;
  for (const auto& key : keyed) out.push_back(key.second);
  return out;
}

// Every offset on the topology where it has the fewest hops, each topology packed again.
Stage rescheduled(const std::vector<DegreeKReferencePacker>& packers, int n, Rng& rng) {
  std::vector<std::vector<int>> offsets(packers.size());
  for (int o = 1; o < n; ++o) {
    size_t best = packers.size();
    for (size_t t = 0; t < packers.size(); ++t) {
      const int h = packers[t].hops(o);
      if (h > 0 && (best == packers.size() || h < packers[best].hops(o))) best = t;
    }
    offsets[best].push_back(o);
  }
  Stage stage;
  for (size_t t = 0; t < packers.size(); ++t) {
    stage.rounds.push_back(offsets[t].empty() ? std::vector<ReferenceRound>{} : packers[t].pack(offsets[t], rng));
  }
  stage.hop_sum = hop_sum_of(stage);
  return stage;
}

}  // namespace

void for_each_circulant_stage(int gpus, int ports, uint64_t seed, int last_d,
                              const std::function<void(const CirculantStage&)>& visit, WorkProgress* progress) {
  if (last_d < 1 || last_d > gpus - 1) return;
  CirculantBase base = circulant_base(gpus, ports, seed, progress);
  std::vector<DegreeKReferencePacker> packers{DegreeKReferencePacker(gpus, base.generators)};
  Stage stage;
  stage.rounds.push_back(std::move(base.rounds));
  stage.hop_sum = hop_sum_of(stage);

  visit(CirculantStage{1, stage.rounds, packers});
  Rng rng(seed ^ 0xc0'4f2a'c7ULL);
  for (int d = 2; d <= last_d; ++d) {
    bool contracted = false;
    const std::vector<std::pair<size_t, size_t>> candidates = rounds_by_hops(stage);
    for (size_t c = 0; c < candidates.size() && c < kContractionTries && !contracted; ++c) {
      const auto [t, r] = candidates[c];
      std::vector<int> generators;
      for (const std::vector<int>& sequence : stage.rounds[t][r].sequences) {
        generators.push_back(packers[t].offset_of(sequence));
      }
      std::sort(generators.begin(), generators.end());

      // The simple alternative: the contracted round becomes one 1-hop round.
      Stage simple = stage;
      simple.rounds[t].erase(simple.rounds[t].begin() + static_cast<std::ptrdiff_t>(r));
      ReferenceRound direct{1, {}};
      for (size_t j = 0; j < generators.size(); ++j) direct.sequences.push_back({static_cast<int>(j)});
      simple.rounds.push_back({std::move(direct)});
      simple.hop_sum = hop_sum_of(simple);

      packers.emplace_back(gpus, std::move(generators));
      Stage reassigned = rescheduled(packers, gpus, rng);
      Stage* next = better_contraction(simple, every_topology_used(simple), reassigned, every_topology_used(reassigned),
                                       stage.hop_sum);
      if (next != nullptr) {
        stage = std::move(*next);
        contracted = true;
      } else {
        packers.pop_back();
      }
    }
    if (!contracted) break;
    visit(CirculantStage{d, stage.rounds, packers});
  }
}

std::vector<AlltoallStrategy> circulant_sequence(int gpus, int ports, uint64_t seed, std::optional<int> only) {
  std::vector<AlltoallStrategy> out;
  for_each_circulant_stage(gpus, ports, seed, only ? *only : gpus - 1, [&](const CirculantStage& stage) {
    if (!only || *only == stage.configurations) out.push_back(circulant_strategy(stage));
  });
  return out;
}

StrategyOutline circulant_outline(const CirculantStage& stage, Bytes bytes) {
  const int n = stage.packers.front().gpus();
  StrategyOutline outline;
  std::vector<std::vector<int>> generators = generators_of(stage.packers);
  outline.construction = construction_of(generators);
  outline.configurations = stage.configurations;
  for (size_t t = 0; t < stage.rounds.size(); ++t) {
    for (const ReferenceRound& reference : stage.rounds[t]) {
      // Translation symmetry: every circuit of generator j carries one flow
      // per use of j in the round's sequences.
      std::vector<int64_t> uses(generators[t].size(), 0);
      for (const std::vector<int>& sequence : reference.sequences) {
        for (int j : sequence) ++uses[static_cast<size_t>(j)];
      }
      outline.rounds.push_back(
          {static_cast<int>(t), reference.hops, bytes, *std::max_element(uses.begin(), uses.end())});
    }
  }
  outline.topology = [n, generators](int i) { return circulant_topology(n, generators[static_cast<size_t>(i)]); };
  outline.topology_name = [generators](int i) {
    return "circulant(" + generator_list(generators[static_cast<size_t>(i)]) + ")";
  };
  return outline;
}

}  // namespace photonsim
