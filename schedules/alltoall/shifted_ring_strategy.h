#pragma once
// Contract: the degree-1 strategy for a set of shifts over a labelling
// (sections 4.2-4.3): topology i joins gpu_of[j] -> gpu_of[j + shifts[i]];
// offset delta goes on the topology with the fewest hops (ties: the earlier
// one) and each (topology, hops) is one round of n flows u -> u + delta along
// the shifted ring, as implicit routes (the ring's walk is the one path).
// Rounds come topology by topology, fewer hops first.
#include <string>
#include <vector>

#include "core/units.h"
#include "schedules/alltoall/alltoall_strategy.h"
#include "schedules/alltoall/ring_shift_search.h"

namespace photonsim {

std::string shifted_ring_name(int shift);  // "shifted_ring(s)"
// Topology shifted_ring_name(s): gpu_of[j] -> gpu_of[(j + s) mod n] for j = 0..n-1.
Topology shifted_ring_topology(int shift, const std::vector<Node>& gpu_of);

AlltoallStrategy shifted_ring_strategy(const RingShiftSearch& search, int configurations,
                                       const std::vector<Node>& gpu_of, const std::vector<Bytes>& demand,
                                       const std::string& construction);

}  // namespace photonsim
