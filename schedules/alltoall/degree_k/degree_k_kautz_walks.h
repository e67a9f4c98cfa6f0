#pragma once
// Contract: the paper's schedule of the Generalized Kautz base (section 4.2,
// Fig. 9c) on x -> (-k*x - a) mod n, a = 1..k. For h = 1, 2, ... the n*k^h
// h-hop walks fill k^(h-1) rounds: round c = (c_1..c_{h-1}) in [k]^(h-1)
// starts one walk on every circuit, and a walk that entered node p on p's
// i-th in-circuit (in-circuits ordered by (source, a); every node has k of
// them counting dark self-loops) leaves on digit ((i + c_j) mod k) + 1. So
// at every hop index each circuit carries exactly one walk of the round, and
// the rounds are contention-free by construction. Walks over a dark
// self-loop, walks that are not a shortest path, and pairs not `wanted` are
// dropped; each wanted pair keeps one of its surviving walks, chosen
// uniformly with the Rng (the paper's random tie-break). The rounds then go
// through RoundPacker, which merges rounds that do not contend. A wanted
// pair whose shortest path has h hops always has a walk of length h, so every
// wanted pair is scheduled exactly once.
#include <vector>

#include "core/rng.h"
#include "schedules/alltoall/alltoall_strategy.h"
#include "topology/all_shortest_paths.h"
#include "topology/topology.h"

namespace photonsim {

// `wanted` is row-major n x n; `kautz` must be the Imase-Itoh graph of degree
// `degree` on its gpus() nodes (what make_generalized_kautz builds).
std::vector<StrategyRound> kautz_walk_rounds(const Topology& kautz, int degree, const AllShortestPaths& shortest,
                                             const std::vector<bool>& wanted, int topology_index, Rng& rng);

}  // namespace photonsim
