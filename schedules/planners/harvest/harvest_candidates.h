#pragma once
// Contract: the candidate topologies Harvest's range subproblem (its Eq. 5)
// chooses from. The paper solves that subproblem as a MISOCP over every
// degree-d graph (Appendix A) and, to scale, proposes restricting it to a
// small set of topologies likely to be optimal over ranges of steps (its
// Sec. 4.4); photonsim does the latter, exactly (an LP per candidate), with
// these families, in this order (ties in cost go to the earlier one):
//   initial       what the fabric holds before step 1 (staying is free);
//   step          each step's own circuits (circuits_for_pairs: the topology
//                 matching the step, Obs. 4), then unions of the circuits of
//                 consecutive steps while they fit the ports (what the MISOCP
//                 builds when d > 1: direct links for several steps);
//   shifted_ring  for every shift s = 1..n-1, a union of g shifted rings,
//                 g = d (directed) or d/2 (bidirectional): u -> u + s*2^k
//                 (k < g), and, directed with d >= 2, u -> u +- s, +- 2s, ...
//                 Every shift is kept, gcd(s, n) > 1 included: such a union of
//                 gcd(s, n) disjoint rings cannot serve every step, but is the
//                 best topology for the later steps of recursive doubling
//                 (Obs. 3/4); a candidate that does not route a step's pairs
//                 costs infinity on that step;
//   torus         every ordered factorisation of n into 2 factors >= 2, each
//                 dimension a ring u -> u + s_k (s_k a power of two below the
//                 dimension), one-way when d >= 2 (directed), both ways when
//                 d >= 4; 3 factors with unit shifts when d >= 3 (6 both ways);
//   expander      random_regular of degree d (d/2, made symmetric, for
//                 bidirectional circuits) seeded with the experiment seed;
//   parallel      each step's own circuits repeated over the ports the step
//                 leaves free: a pair whose GPUs use c_u and c_v of their d
//                 ports gets min(d / c_u, d / c_v) parallel circuits (the
//                 MISOCP's x_{u,v} are integers, so two ports of a GPU may
//                 both reach one peer: a pairwise exchange on d = 2 moves at
//                 twice a circuit's rate). Listed last: it wins only where it
//                 is strictly cheaper.
// Only topologies that fit fabric.ports are kept; equal circuit sets are
// listed once, under the first name.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "schedules/model/transfer.h"
#include "topology/component_params.h"
#include "topology/topology.h"

namespace photonsim {

struct HarvestCandidateFamilies {
  bool initial = true;
  bool step = true;
  bool shifted_ring = true;
  bool torus = true;
  bool expander = true;
  bool parallel = true;

  // The planner parameter `key` as a list of family names (all when absent);
  // throws Error naming the parameter for an unknown or missing name.
  static HarvestCandidateFamilies parse(const ComponentParams& params, const std::string& key);
  static const char* names() { return "initial, step, shifted_ring, torus, expander, parallel"; }
};

std::vector<Topology> harvest_candidates(const std::vector<std::vector<Transfer>>& steps, const FabricSpec& fabric,
                                         uint64_t seed, const std::optional<Topology>& initial,
                                         const HarvestCandidateFamilies& families);

}  // namespace photonsim
