#pragma once
// Contract: `topoopt`, the all-to-all paper's TopoOpt baseline (Wang et al.,
// NSDI 2023): one static topology, the union of k = fabric.ports shifted rings
// i -> i + p, with k-shortest-paths routing.
//   Shifts (TopoOpt's TotientPerms idea: rings spread out geometrically, like
//     Chord fingers): for i = 0..k-1, the unused shift closest to n^(i/k)
//     among those coprime to n (each such ring is one Hamiltonian cycle),
//     ties the smaller; only when k exceeds their number do shifts sharing a
//     factor with n join, by the same rule. Ring 1 (shift 1) is always there.
//   Routing: each flow split evenly, in whole bytes, over its K loopless
//     shortest paths (Yen, topology/k_shortest_paths.h; parameter `paths`,
//     default 4); fewer when fewer exist, and paths that would get no byte are
//     left out. One StrategyFlow with several routes per pair. The rings
//     are a circulant and the order is by clockwise offsets, so one search
//     per offset t - s serves every pair (its paths shifted by s).
// The whole all-to-all is ONE concurrent round, as for `directconnect`: not
// contention-free by design, costed by the planner's alpha_beta_congestion.
// For k = 1 the topology is the n-cycle and every flow has one path, left
// implicit (the walk along the ring; stored it would cost O(n^3) nodes). d = 1.
// Directed circuits only.
#include <string>
#include <vector>

#include "schedules/alltoall/joint_synthesizer.h"

namespace photonsim {

class TopooptBaseline : public JointSynthesizer {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  std::vector<AlltoallStrategy> strategies(const JointInput& input, std::optional<int> only) const override;
  // The ring shifts described above, ascending.
  static std::vector<int> shifts(int gpus, int rings);
};

}  // namespace photonsim
