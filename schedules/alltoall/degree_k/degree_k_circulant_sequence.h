#pragma once
// Contract: the degree-k Circulant family of degree_k_strategies (sections
// 4.2-4.3) on labels 0..n-1, one strategy per d = 1, 2, ... (or only d =
// `only`). d = 1 is circulant_base(). Topology t+1 contracts the round with
// the most hops (ties: the later round): the offsets its reference sequences
// lead to become the generators of a new circulant, so every node gets a
// direct circuit to each destination of that round, one per node and offset,
// within the port limits (a round holds at most k sequences). Then every
// offset takes the topology where it has the fewest hops (ties: the earlier
// topology) and each topology is packed again by DegreeKReferencePacker; that
// rescheduled strategy is kept when it beats the old rounds minus the
// contracted round plus one 1-hop round of it on the new topology; either is
// dropped when it leaves a topology without a round. When neither saves
// hops, the next-longest rounds are tried (4 in all); the sequence stops when
// none saves, when no round has more than one hop, or at d = n - 1.
// Topologies are named "circulant(g1,g2,...)"; flows carry Bytes(1).
#include <cstdint>
#include <optional>
#include <vector>

#include "schedules/alltoall/alltoall_strategy.h"

namespace photonsim {

std::vector<AlltoallStrategy> circulant_sequence(int gpus, int ports, uint64_t seed, std::optional<int> only);

}  // namespace photonsim
