#pragma once
// Contract: the all-to-all paper's degree-k strategies (k = fabric.ports > 1,
// sections 4.2-4.3), on virtual labels 0..n-1 (the caller relabels).
//   Circulant base: generators chosen to minimise the base schedule's hop sum;
//     reference-node schedule: node 0 lists a shortest generator sequence to
//     every destination (ties broken by a seeded Rng), sorted by length, packed
//     greedily into rounds of at most k paths that never use the same
//     generator at the same hop index; every node follows node 0.
//   Generalized Kautz base (Imase-Itoh, x -> -k*x - a mod n): h-hop paths for
//     h = 1, 2, ... with k^(h-1) rounds per h, greedy packing without
//     contention in the time-expanded graph, shortest path per destination
//     (ties by the Rng), then rounds merged while they do not contend.
//   Sequence (contraction): topology t+1 directly connects the flows of the
//     round with the most hops in the schedule on topologies 1..t (as many
//     as the port limits allow); flows then take the topology with their
//     shortest path and each topology is packed again; the result is kept
//     only when it beats keeping the old rounds and moving the contracted
//     flows to one 1-hop round.
// Returns one strategy per d = 1, 2, ... while a contraction still saves
// hops (d = 1 is the base alone), or only d = `only` (empty if not reached).
#include <cstdint>
#include <optional>
#include <vector>

#include "schedules/alltoall_strategy.h"

namespace photonsim {

enum class DegreeKBase { circulant, genkautz };

std::vector<AlltoallStrategy> degree_k_strategies(int gpus, int ports, DegreeKBase base, uint64_t tie_seed,
                                                  std::optional<int> only);

}  // namespace photonsim
