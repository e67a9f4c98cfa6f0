#pragma once
// Contract: the all-to-all paper's degree-k strategies (k = fabric.ports > 1,
// sections 4.2-4.3), on virtual labels 0..n-1 (the caller relabels). Every
// flow is one pair on one path carrying Bytes(1) (the caller re-reads the
// demand); topologies use min(k, n-1) ports per node at most.
//   Circulant base (degree_k_circulant_base.h): generators chosen to minimise
//     the base schedule's hop sum; reference-node schedule
//     (degree_k_reference_packer.h): node 0 lists a shortest generator
//     sequence to every destination, packed greedily into rounds that never
//     use the same generator at the same hop index (at most k paths), trying
//     the orderings of each destination's shortest generator multisets
//     (ties by the seeded Rng); every node follows node 0.
//   Generalized Kautz base (Imase-Itoh, x -> -k*x - a mod n): the paper's
//     k^(h-1) rounds of h-hop walks per h with one shortest walk kept per
//     pair (ties by the Rng, degree_k_kautz_walks.h), or RoundPacker
//     first-fit per hop count over the shortest paths, whichever has fewer
//     hops; rounds that do not contend merged. Empty (the family is skipped)
//     when the graph does not reach every pair, as for k = 1.
//   Sequence (contraction; degree_k_circulant_sequence.h,
//     degree_k_kautz_sequence.h): topology t+1 directly connects the flows of
//     the round with the most hops in the schedule on topologies 1..t (ties:
//     the later round; as many as the port limits allow); flows then take
//     the topology with their shortest path and each topology is packed
//     again; the result is kept only when it beats keeping the old rounds and
//     moving the contracted flows to one 1-hop round.
// Returns one strategy per d = 1, 2, ... while a contraction still saves
// hops and d <= n - 1 (d = 1 is the base alone), or only d = `only` (empty if
// not reached). The same arguments give the same strategies.
#include <cstdint>
#include <optional>
#include <vector>

#include "schedules/alltoall/alltoall_strategy.h"

namespace photonsim {

enum class DegreeKBase { circulant, genkautz };

std::vector<AlltoallStrategy> degree_k_strategies(int gpus, int ports, DegreeKBase base, uint64_t tie_seed,
                                                  std::optional<int> only);

}  // namespace photonsim
