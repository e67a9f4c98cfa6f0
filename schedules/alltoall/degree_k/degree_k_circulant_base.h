#pragma once
// Contract: the degree-k Circulant base (section 4.2): min(k, n-1) distinct
// generators in 1..n-1 that reach every node, chosen to minimise the hop sum
// of the reference-node schedule (DegreeKReferencePacker), and that schedule.
// Generator sets are ranked by the packer's hop_bound() (a breadth-first
// search each): all C(n-1, k) of them when C(n-1, k)*n*k <= 4e6 (every k = 2
// set up to n = 128), otherwise 256 seeded random sets, the best 4 of them
// improved by hill climbing (256 random one-generator swaps each). Sets are
// then packed in bound order, one per multiplier class (g -> a*g mod n with
// gcd(a, n) = 1 is an isomorphism), until the bound cannot beat the best
// packing found or 32 were packed. Ties keep the earlier set in (bound,
// lexicographic) order. Deterministic for a seed.
#include <cstdint>
#include <vector>

#include "core/work_progress.h"
#include "schedules/alltoall/degree_k/degree_k_reference_packer.h"

namespace photonsim {

struct CirculantBase {
  std::vector<int> generators;  // ascending
  std::vector<ReferenceRound> rounds;
};

// `progress` hears the candidate generator sets packed, of at most the cap.
CirculantBase circulant_base(int gpus, int ports, uint64_t seed, WorkProgress* progress = nullptr);

}  // namespace photonsim
