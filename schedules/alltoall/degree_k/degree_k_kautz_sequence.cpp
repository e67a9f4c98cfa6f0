#include "schedules/alltoall/degree_k/degree_k_contraction_choice.h"
#include "schedules/alltoall/degree_k/degree_k_kautz_sequence.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <string>
#include <utility>

#include "core/rng.h"
#include "schedules/alltoall/degree_k/degree_k_kautz_walks.h"
#include "core/shuffle.h"
#include "schedules/alltoall/round_packer.h"
#include "topology/all_shortest_paths.h"
#include "topology/generators.h"

namespace photonsim {

namespace {

constexpr size_t kPathCap = 16;       // shortest paths tried per pair
constexpr int kKautzContractionTries = 4;  // rounds tried per contraction step
constexpr int kRepackPasses = 3;      // repacked() passes at most

// A pair to schedule on one topology, with its hop count there.
struct Pair {
  Node src = 0;
  Node dst = 0;
  int hops = 0;
  bool operator==(const Pair&) const = default;
};

// The topologies built so far, per pair the topology with its fewest hops
// (ties: the earlier), and the candidate paths already drawn per pair
// (drawn once: rescheduling does not enumerate again). O(n^2) in all: no hop
// table per topology, and a contraction's shortest-path layers are dropped
// after each use (they are recomputed exactly when needed again).
struct Sequence {
  int gpus = 0;
  int degree = 0;             // of the Kautz base
  bool base_by_walks = true;  // which schedule of the base won at d = 1
  std::vector<Topology> topologies;
  std::vector<std::unique_ptr<AllShortestPaths>> shortest;
  std::vector<int> base_hops;           // [src * n + dst] on topologies[0], -1 = none
  std::vector<int> best_hops;           // [src * n + dst], over every topology
  std::vector<uint32_t> best_topology;  // the first topology with best_hops
  struct Change {
    size_t pair;
    int hops;
    uint32_t topology;
  };
  std::vector<Change> last_changes;  // what the last add() changed, for drop_last()
  std::vector<std::unordered_map<size_t, std::vector<std::vector<Node>>>> candidates;  // [topology][pair]
  // The last schedule computed per topology and the pairs it serves: a
  // topology whose pairs did not change is not scheduled again.
  std::vector<std::pair<std::vector<Pair>, std::vector<StrategyRound>>> last_schedule;

  size_t pair(Node src, Node dst) const { return static_cast<size_t>(src) * static_cast<size_t>(gpus) + dst; }

  void add(Topology topology) {
    auto paths = std::make_unique<AllShortestPaths>(topology);
    const auto index = static_cast<uint32_t>(topologies.size());
    const size_t pairs = static_cast<size_t>(gpus) * static_cast<size_t>(gpus);
    last_changes.clear();
    if (index == 0) {
      base_hops.resize(pairs);
      for (Node s = 0; s < static_cast<Node>(gpus); ++s) {
        for (Node d = 0; d < static_cast<Node>(gpus); ++d) base_hops[pair(s, d)] = paths->hops(s, d);
      }
      best_hops = base_hops;
      best_topology.assign(pairs, 0);
    } else {
      for (Node s = 0; s < static_cast<Node>(gpus); ++s) {
        for (Node d = 0; d < static_cast<Node>(gpus); ++d) {
          const size_t p = pair(s, d);
          const int h = paths->hops(s, d);
          if (h > 0 && (best_hops[p] <= 0 || h < best_hops[p])) {
            last_changes.push_back({p, best_hops[p], best_topology[p]});
            best_hops[p] = h;
            best_topology[p] = index;
          }
        }
      }
      paths->forget_sources();
    }
    shortest.push_back(std::move(paths));
    topologies.push_back(std::move(topology));
    candidates.emplace_back();
    last_schedule.emplace_back();
  }
  // Only right after add(): the rejected contraction goes, its changes are undone.
  void drop_last() {
    for (const Change& c : last_changes) {
      best_hops[c.pair] = c.hops;
      best_topology[c.pair] = c.topology;
    }
    last_changes.clear();
    topologies.pop_back();
    shortest.pop_back();
    candidates.pop_back();
    last_schedule.pop_back();
  }
  // A contraction's layers are O(n) per source asked for: kept only while one
  // schedule of it is built.
  void done_with(size_t t) {
    if (t != 0) shortest[t]->forget_sources();
  }
  // Up to kPathCap shortest paths in a seeded random order; with `first`,
  // that path is moved (or added) to the front.
  const std::vector<std::vector<Node>>& paths(size_t t, Node src, Node dst, Rng& rng,
                                              const std::vector<Node>* first = nullptr) {
    std::vector<std::vector<Node>>& cached = candidates[t][pair(src, dst)];
    if (cached.empty()) {
      cached = shortest[t]->paths(src, dst, kPathCap).paths;
      shuffle_with(cached, rng);
    }
    if (first != nullptr && cached.front() != *first) {
      auto at = std::find(cached.begin(), cached.end(), *first);
      if (at == cached.end()) {
        cached.insert(cached.begin(), *first);
      } else {
        std::rotate(cached.begin(), at, at + 1);
      }
    }
    return cached;
  }
};

struct KautzSequenceStage {
  std::vector<StrategyRound> rounds;  // topology by topology, fewer hops first within one
  int64_t hop_sum = 0;
};

int64_t kautz_hop_sum_of(const std::vector<StrategyRound>& rounds) {
  int64_t sum = 0;
  for (const StrategyRound& r : rounds) sum += r.hops();
  return sum;
}

bool kautz_every_topology_used(const KautzSequenceStage& stage, size_t topologies) {
  std::vector<bool> used(topologies, false);
  for (const StrategyRound& r : stage.rounds) {
    if (!r.flows.empty()) used[static_cast<size_t>(r.topology)] = true;
  }
  return std::all_of(used.begin(), used.end(), [](bool u) { return u; });
}

// Re-places every flow first-fit, rounds with the most hops (then the most
// flows) first, each flow trying its current path before its alternatives.
// A flow only joins a round opened by an old round with at least its hops,
// and the leftovers of one old round open at most one new round, no longer
// than the old one: the hop sum never grows, while flows fill holes. Passes
// repeat while they save hops; rounds come back fewer hops first.
std::vector<StrategyRound> repacked(Sequence& sequence, size_t t, std::vector<StrategyRound> rounds, Rng& rng) {
  int64_t cost = kautz_hop_sum_of(rounds);
  for (int pass = 0; pass < kRepackPasses; ++pass) {
    std::vector<std::pair<std::pair<int, size_t>, size_t>> order;  // ((hops, flows), round)
    for (size_t r = 0; r < rounds.size(); ++r) order.push_back({{rounds[r].hops(), rounds[r].flows.size()}, r});
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    RoundPacker packer(sequence.topologies[t]);
    for (const auto& entry : order) {
      std::vector<StrategyFlow>& flows = rounds[entry.second].flows;
      std::stable_sort(flows.begin(), flows.end(),
                       [](const StrategyFlow& a, const StrategyFlow& b) { return a.hops() > b.hops(); });
      for (const StrategyFlow& f : flows) {
        packer.place(f.bytes, sequence.paths(t, f.src, f.dst, rng, &f.routes.front().path), 0);
      }
    }
    std::vector<StrategyRound> next = packer.rounds(static_cast<int>(t));
    const int64_t next_cost = kautz_hop_sum_of(next);
    if (next_cost >= cost) break;
    rounds = std::move(next);
    cost = next_cost;
  }
  std::vector<std::pair<int, size_t>> by_hops;  // fewer hops first, as RoundPacker lists them
  for (size_t r = 0; r < rounds.size(); ++r) by_hops.push_back({rounds[r].hops(), r});
  std::stable_sort(by_hops.begin(), by_hops.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<StrategyRound> sorted;
  sorted.reserve(rounds.size());
  for (const auto& entry : by_hops) sorted.push_back(std::move(rounds[entry.second]));
  return sorted;
}

// Section 4.2's greedy schedule of `pairs` on topology t: a block of rounds
// per hop count, RoundPacker first-fit, rounds merged, then repacked().
std::vector<StrategyRound> first_fit_by_hops(Sequence& sequence, size_t t, std::vector<Pair> pairs, Rng& rng) {
  shuffle_with(pairs, rng);
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.hops < b.hops; });
  RoundPacker packer(sequence.topologies[t]);
  int block_hops = 0;
  size_t block_start = 0;
  for (const Pair& p : pairs) {
    if (p.hops != block_hops) {
      block_hops = p.hops;
      block_start = packer.round_count();
    }
    packer.place(Bytes(1), sequence.paths(t, p.src, p.dst, rng), block_start);
  }
  packer.merge_rounds();
  return repacked(sequence, t, packer.rounds(static_cast<int>(t)), rng);
}

std::vector<StrategyRound> walk_schedule(Sequence& sequence, const std::vector<Pair>& pairs, Rng& rng) {
  std::vector<bool> wanted(static_cast<size_t>(sequence.gpus) * static_cast<size_t>(sequence.gpus), false);
  for (const Pair& p : pairs) wanted[sequence.pair(p.src, p.dst)] = true;
  return repacked(sequence, 0,
                  kautz_walk_rounds(sequence.topologies[0], sequence.degree, *sequence.shortest[0], wanted, 0, rng),
                  rng);
}

std::vector<StrategyRound> schedule_on(Sequence& sequence, size_t t, std::vector<Pair> pairs, Rng& rng) {
  if (t != 0) {
    std::vector<StrategyRound> rounds = first_fit_by_hops(sequence, t, std::move(pairs), rng);
    sequence.done_with(t);
    return rounds;
  }
  return sequence.base_by_walks ? walk_schedule(sequence, pairs, rng)
                                : first_fit_by_hops(sequence, 0, std::move(pairs), rng);
}

// Every pair on the topology with its fewest hops, each topology scheduled again.
KautzSequenceStage kautz_rescheduled(Sequence& sequence, Rng& rng) {
  const auto n = static_cast<Node>(sequence.gpus);
  std::vector<std::vector<Pair>> assigned(sequence.topologies.size());
  for (Node s = 0; s < n; ++s) {
    for (Node d = 0; d < n; ++d) {
      if (s == d) continue;
      const size_t p = sequence.pair(s, d);
      assigned[sequence.best_topology[p]].push_back(Pair{s, d, sequence.best_hops[p]});
    }
  }
  KautzSequenceStage stage;
  for (size_t t = 0; t < assigned.size(); ++t) {
    if (assigned[t].empty()) continue;
    auto& [pairs, rounds] = sequence.last_schedule[t];
    if (pairs.empty() || pairs != assigned[t]) {
      pairs = assigned[t];
      rounds = schedule_on(sequence, t, std::move(assigned[t]), rng);
    }
    stage.rounds.insert(stage.rounds.end(), rounds.begin(), rounds.end());
  }
  stage.hop_sum = kautz_hop_sum_of(stage.rounds);
  return stage;
}

// The base schedule: the paper's walk rounds and the greedy packing, the cheaper one.
KautzSequenceStage base_schedule(Sequence& sequence, Rng& rng) {
  std::vector<Pair> pairs;
  for (Node s = 0; s < static_cast<Node>(sequence.gpus); ++s) {
    for (Node d = 0; d < static_cast<Node>(sequence.gpus); ++d) {
      if (s != d) pairs.push_back(Pair{s, d, sequence.base_hops[sequence.pair(s, d)]});
    }
  }
  KautzSequenceStage walks{walk_schedule(sequence, pairs, rng), 0};
  KautzSequenceStage greedy{first_fit_by_hops(sequence, 0, std::move(pairs), rng), 0};
  walks.hop_sum = kautz_hop_sum_of(walks.rounds);
  greedy.hop_sum = kautz_hop_sum_of(greedy.rounds);
  sequence.base_by_walks = walks.hop_sum <= greedy.hop_sum;
  return sequence.base_by_walks ? walks : greedy;
}

// Candidate rounds to contract: more than one hop, most hops first (ties: the later round).
std::vector<size_t> kautz_rounds_by_hops(const KautzSequenceStage& stage) {
  std::vector<std::pair<int, size_t>> keyed;
  for (size_t r = 0; r < stage.rounds.size(); ++r) {
    const int h = stage.rounds[r].hops();
    if (h > 1) keyed.push_back({h, r});
  }
  std::sort(keyed.begin(), keyed.end(), std::greater<>());
  std::vector<size_t> out;
  for (const auto& key : keyed) out.push_back(key.second);
  return out;
}

// The round's flows that get a direct circuit, longest first, within the ports.
std::vector<size_t> contracted_flows(const StrategyRound& round, int gpus, int ports) {
  std::vector<size_t> order(round.flows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return round.flows[a].hops() > round.flows[b].hops(); });
  std::vector<int> out_used(static_cast<size_t>(gpus), 0), in_used(static_cast<size_t>(gpus), 0);
  std::vector<size_t> moved;
  for (size_t i : order) {
    const StrategyFlow& f = round.flows[i];
    if (out_used[f.src] < ports && in_used[f.dst] < ports) {
      ++out_used[f.src];
      ++in_used[f.dst];
      moved.push_back(i);
    }
  }
  std::sort(moved.begin(), moved.end());
  return moved;
}

// `rounds` of topology t with the flows of `leftover` re-placed first-fit
// into them, longest rounds first (the others keep their flows and paths),
// when that saves hops; else `rounds` plus `leftover`. Fewer hops first.
std::vector<StrategyRound> absorbed_on(Sequence& sequence, size_t t, std::vector<StrategyRound> rounds,
                                       StrategyRound leftover, Rng& rng) {
  auto fewer_hops_first = [](std::vector<StrategyRound> out) {
    std::stable_sort(out.begin(), out.end(),
                     [](const StrategyRound& a, const StrategyRound& b) { return a.hops() < b.hops(); });
    return out;
  };
  if (leftover.flows.empty()) return fewer_hops_first(std::move(rounds));
  std::vector<std::pair<int, size_t>> by_hops;
  for (size_t r = 0; r < rounds.size(); ++r) by_hops.push_back({rounds[r].hops(), r});
  std::stable_sort(by_hops.begin(), by_hops.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  RoundPacker packer(sequence.topologies[t]);
  for (const auto& entry : by_hops) {
    const size_t own = packer.round_count();
    for (const StrategyFlow& f : rounds[entry.second].flows) {
      packer.place(f.bytes, sequence.paths(t, f.src, f.dst, rng, &f.routes.front().path), own);
    }
  }
  for (const StrategyFlow& f : leftover.flows) {
    packer.place(f.bytes, sequence.paths(t, f.src, f.dst, rng, &f.routes.front().path), 0);
  }
  std::vector<StrategyRound> merged = packer.rounds(static_cast<int>(t));
  rounds.push_back(std::move(leftover));
  if (kautz_hop_sum_of(merged) < kautz_hop_sum_of(rounds)) return merged;
  return fewer_hops_first(std::move(rounds));
}

std::vector<StrategyRound> absorbed(Sequence& sequence, size_t t, std::vector<StrategyRound> rounds,
                                    StrategyRound leftover, Rng& rng) {
  std::vector<StrategyRound> out = absorbed_on(sequence, t, std::move(rounds), std::move(leftover), rng);
  sequence.done_with(t);
  return out;
}

// The old rounds without the moved flows of round r (what is left of it
// absorbed() by the rest of its topology), plus one 1-hop round of the moved
// flows on topology `target`.
KautzSequenceStage with_direct_round(Sequence& sequence, const KautzSequenceStage& stage, size_t r, const std::vector<size_t>& moved, int target,
                        Rng& rng) {
  const int source = stage.rounds[r].topology;
  std::vector<StrategyRound> on_source;  // but round r
  StrategyRound kept;                    // what stays of round r
  kept.topology = source;
  StrategyRound direct;
  direct.topology = target;
  for (size_t i = 0; i < stage.rounds.size(); ++i) {
    if (stage.rounds[i].topology != source) continue;
    if (i != r) {
      on_source.push_back(stage.rounds[i]);
      continue;
    }
    size_t next_moved = 0;
    for (size_t f = 0; f < stage.rounds[i].flows.size(); ++f) {
      const StrategyFlow& flow = stage.rounds[i].flows[f];
      if (next_moved < moved.size() && moved[next_moved] == f) {
        ++next_moved;
        direct.flows.push_back(single_path_flow({flow.src, flow.dst}, flow.bytes));
      } else {
        kept.flows.push_back(flow);
      }
    }
  }
  on_source = absorbed(sequence, static_cast<size_t>(source), std::move(on_source), std::move(kept), rng);
  KautzSequenceStage out;
  out.rounds.reserve(stage.rounds.size() + 1);
  for (const StrategyRound& round : stage.rounds) {
    if (round.topology < source) out.rounds.push_back(round);
  }
  for (StrategyRound& round : on_source) out.rounds.push_back(std::move(round));
  for (const StrategyRound& round : stage.rounds) {
    if (round.topology > source) out.rounds.push_back(round);
  }
  out.rounds.push_back(std::move(direct));
  out.hop_sum = kautz_hop_sum_of(out.rounds);
  return out;
}

AlltoallStrategy to_strategy(const KautzSequenceStage& stage, const Sequence& sequence) {
  AlltoallStrategy strategy;
  const size_t contractions = sequence.topologies.size() - 1;
  strategy.construction = sequence.topologies.front().name();
  if (contractions > 0) {
    strategy.construction += " + " + std::to_string(contractions) + " contraction" + (contractions > 1 ? "s" : "");
  }
  strategy.topologies = sequence.topologies;
  strategy.rounds = stage.rounds;
  return strategy;
}

Topology kautz_base(int gpus, int degree) {
  FabricSpec fabric;
  fabric.gpus = gpus;
  fabric.ports = degree;
  const ComponentParams params("generalized_kautz", {{"degree", std::to_string(degree)}}, {"degree"});
  return make_generalized_kautz(params, GeneratorContext{fabric});
}

}  // namespace

void for_each_kautz_stage(int gpus, int ports, uint64_t seed, int last_d,
                          const std::function<void(const KautzStage&)>& visit) {
  if (last_d < 1 || last_d > gpus - 1) return;
  Sequence sequence;
  sequence.gpus = gpus;
  sequence.degree = std::min(ports, gpus - 1);
  sequence.add(kautz_base(gpus, sequence.degree));
  const std::vector<int>& base_hops = sequence.base_hops;
  for (size_t p = 0; p < base_hops.size(); ++p) {
    const bool self = p / static_cast<size_t>(gpus) == p % static_cast<size_t>(gpus);
    if (!self && base_hops[p] < 0) return;  // too small to be strongly connected
  }
  Rng rng(seed);
  KautzSequenceStage stage = base_schedule(sequence, rng);
  visit(KautzStage{1, stage.hop_sum, [&] { return to_strategy(stage, sequence); }});
  for (int d = 2; d <= last_d; ++d) {
    bool contracted = false;
    const std::vector<size_t> candidates = kautz_rounds_by_hops(stage);
    for (size_t c = 0; c < candidates.size() && c < static_cast<size_t>(kKautzContractionTries) && !contracted; ++c) {
      const size_t r = candidates[c];
      const std::vector<size_t> moved = contracted_flows(stage.rounds[r], gpus, ports);
      std::vector<Edge> edges;
      for (size_t i : moved) edges.push_back({stage.rounds[r].flows[i].src, stage.rounds[r].flows[i].dst});
      const int target = static_cast<int>(sequence.topologies.size());
      sequence.add(Topology("contraction(" + std::to_string(d) + ")", gpus, std::move(edges)));

      const size_t topologies = sequence.topologies.size();
      KautzSequenceStage simple = with_direct_round(sequence, stage, r, moved, target, rng);
      KautzSequenceStage reassigned = kautz_rescheduled(sequence, rng);
      KautzSequenceStage* next = better_contraction(simple, kautz_every_topology_used(simple, topologies), reassigned,
                                       kautz_every_topology_used(reassigned, topologies), stage.hop_sum);
      if (next != nullptr) {
        stage = std::move(*next);
        contracted = true;
      } else {
        sequence.drop_last();
      }
    }
    if (!contracted) break;
    visit(KautzStage{d, stage.hop_sum, [&] { return to_strategy(stage, sequence); }});
  }
}

std::vector<AlltoallStrategy> kautz_sequence(int gpus, int ports, uint64_t seed, std::optional<int> only) {
  std::vector<AlltoallStrategy> out;
  for_each_kautz_stage(gpus, ports, seed, only ? *only : gpus - 1, [&](const KautzStage& stage) {
    if (!only || *only == stage.configurations) out.push_back(stage.strategy());
  });
  return out;
}

}  // namespace photonsim
