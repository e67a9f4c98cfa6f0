#pragma once
// Contract: the degree-k Generalized Kautz family of degree_k_strategies
// (sections 4.2-4.3) on labels 0..n-1, one strategy per d = 1, 2, ... (or only
// d = `only`); empty when the Imase-Itoh graph x -> (-k*x - a) mod n,
// a = 1..k (self-loops dropped, that port dark), does not reach every pair
// (k = 1). Flows carry Bytes(1).
// Base schedule: the cheaper of the paper's walk rounds (kautz_walk_rounds)
// and the greedy one below; later reschedules of the base use the winner.
// Greedy schedule of a topology: pairs grouped by shortest-path hops h; each
// h opens its own block of rounds (the paper's k^(h-1) rounds per h, opened
// as needed) and RoundPacker places each pair first-fit on one of its
// shortest paths (at most 16, in a seeded random order; pairs of equal h in
// a seeded random order); then rounds that do not contend are merged. Every
// schedule is then compacted: each flow re-placed first-fit, longest rounds
// first, current path first, which never adds hops.
// Sequence: topology t+1 ("contraction(t+1)") directly connects the flows of
// the round with the most hops (ties: the later round), longest flows first,
// each while its source has an out-port and its destination an in-port left
// (the rest stay where they were). Then every pair takes the topology with
// its fewest hops (ties: the earlier topology) and each topology is scheduled
// again; that is kept when it beats the simple alternative - the old rounds
// minus the moved flows (their topology compacted) plus one 1-hop round of
// them - and dropped when it leaves a topology without a round. When neither
// saves hops, the next-longest rounds are tried (4 in all); the sequence
// stops when none saves, when no round has more than one hop, or at
// d = n - 1.
// for_each_kautz_stage() hands each d in order up to `last_d` with its hop
// sum and a builder of its strategy (valid during the call only), so a
// caller keeps at most the strategies it chooses to build.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "schedules/alltoall/alltoall_strategy.h"

namespace photonsim {

struct KautzStage {
  int configurations = 0;  // d
  int64_t hop_sum = 0;
  std::function<AlltoallStrategy()> strategy;
};

void for_each_kautz_stage(int gpus, int ports, uint64_t seed, int last_d,
                          const std::function<void(const KautzStage&)>& visit);

std::vector<AlltoallStrategy> kautz_sequence(int gpus, int ports, uint64_t seed, std::optional<int> only);

}  // namespace photonsim
