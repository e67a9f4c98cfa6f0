#pragma once
// Contract: `mixnet`, the all-to-all paper's MixNet baseline (Liao et al.,
// SIGCOMM 2025): one static topology built greedily from the traffic matrix.
//   Greedy: pairs with demand, heaviest first (ties: smaller clockwise offset
//     t - s mod n, then smaller source), each get one circuit while the
//     source has a free out-port and the destination a free in-port
//     (k = fabric.ports each). No pair gets two circuits: parallel circuits
//     would need their flows spread over them, which one shortest-path flow
//     per pair cannot do.
//   Fill: ports still free get circuits between the remaining free ends
//     (source ascending, destination by clockwise offset), never a second
//     circuit for a pair.
//   Repair, while not strongly connected: let Z be the largest strongly
//     connected component with a circuit inside (ties: smallest node) and W
//     the component of the smallest node outside Z. If W has a circuit
//     inside, swap the lightest circuit a -> b of Z (least demand) with W's
//     lightest c -> d into a -> d, c -> b. If W is one node w, splice w into
//     Z's lightest circuit (a -> w -> b), taking its ports from free ones or
//     from its lightest in- and out-circuits x -> w -> y, which become
//     x -> y. Each move keeps every port count, keeps the greedy's heaviest
//     circuits, and merges W into Z, so at most n - 1 moves; a move that
//     would duplicate a circuit leaves that port dark instead.
// Routing: every flow on one shortest path. Packing (RoundPacker): flows by
// hop count, longest first (equal hop counts end up sharing rounds), then
// bytes, heaviest first; each flow takes the earliest round in which one of
// its shortest paths (up to 16, clockwise order) is contention-free, then
// rounds are merged (routing=rounds, the default). routing=max_concurrent_flow
// routes the demand on the same topology as DirectConnect does
// (concurrent_routing.h: split over the LP's paths, one concurrent round).
// d = 1. Directed circuits only. Where every GPU has one
// circuit out (k = 1) the flows keep their one path implicit (the walk along
// the circuits): O(n^2) memory, not O(n^3) nodes.
#include "schedules/alltoall/joint_synthesizer.h"

namespace photonsim {

class MixnetBaseline : public JointSynthesizer {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  std::vector<AlltoallStrategy> strategies(const JointInput& input, std::optional<int> only) const override;
  // The greedy topology with its connectivity repair (exposed for tests).
  static Topology topology(const JointInput& input);
};

}  // namespace photonsim
