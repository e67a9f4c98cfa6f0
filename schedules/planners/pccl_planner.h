#pragma once
// Contract: PCCL's reconfiguration planner (its Section 4.1, Algorithm 1),
// solved exactly by dynamic programming over (round, topology in place)
// instead of the paper's ILP. Returns the Schedule with PCCL's Prediction.
//
// Rounds are the pattern's steps in order, each first split to the port
// limits (split_to_ports, PCCL Section 4.2); steps are never regrouped, and
// explicit paths or multipath routes in the pattern are dropped (every
// transfer takes the shortest path on the topology the planner chooses).
// Before round i the fabric may
//   - keep the topology in place (free),
//   - reconfigure to G_i, the circuits of round i's own transfers, or
//   - reconfigure to a candidate: the initial topology (the ILP's G_0) or a
//     standard connected topology from parameter `standard`.
// Topologies are compared by circuits, never by name or origin. G_j can only
// be entered at round j, so a round uses G_j only if every round from j on
// does too: the ILP's dependency constraint (5) holds by construction.
// With `initial` = none, round 0 must reconfigure (it is charged).
//
// Cost of round i on topology G (PCCL Eq. 1 and Algorithm 2, in photonsim's
// parameters; MODELS.md):
//   latency * dilation                          (propagation)
//   + serialisation(load) at fabric.bandwidth   (transmission)
//   + fabric.step_overhead                      (startup; 0 in PCCL's setups)
//   + fabric.reconfig_delay if G's circuits differ from those in place.
// dilation and congestion are Algorithm 2 (compute_congestion_dilation) on G
// for round i's (src, dst) pairs; a pair with no path makes the round
// infinitely expensive on G (the paper's "large penalty"). load depends on
// parameter `w`:
//   edge_bytes (default): the bytes crossing G's busiest circuit, summed
//     over the transfers that share it (routed by route_step, as the
//     simulator routes); equals congestion * w when all transfers of the
//     round carry w bytes and no circuit is doubled, and, unlike
//     congestion * max w, counts each transfer's own bytes when sizes differ;
//   max_transfer: the paper's congestion * w with w = the round's largest
//     transfer.
// The DP minimises (total cost, reconfigurations, rounds not on their own
// circuits) lexicographically: among plans of equal cost it returns one with
// the fewest reconfigurations, and among those the one closest to "each round
// on its own circuits".
//
// Parameter `standard`: a list of names, each a topology generator built
// with its defaults (ring, torus, grid, hypercube, complete, ...), or
// bidirectional_ring, torus3d, grid3d (dimensions=3), torus:AxB[xC],
// grid:AxB[xC]; [] for none. Each listed name must build for fabric.gpus and
// fit fabric.ports, else Error naming the parameter. Default: ring,
// bidirectional_ring, torus, grid (when n has two prime factors), torus3d,
// grid3d (three prime factors), hypercube, keeping only those that build
// and fit the ports; duplicates by circuits are dropped.
#include "schedules/planners/planner.h"

namespace photonsim {

class PcclPlanner : public Planner {
 public:
  PlannerInfo info() const override;
  Schedule plan(const StepPattern& pattern, const PlanningInput& input) const override;
};

}  // namespace photonsim
