#pragma once
// Contract: `directconnect`, the all-to-all paper's DirectConnect baseline
// (Basu et al. / Zhao et al. direct-connect topologies): one static degree-k
// graph (k = fabric.ports) and multi-commodity-flow routing.
//   graph=genkautz: Generalized Kautz (Imase-Itoh, x -> -k x - a mod n,
//     a = 1..k; a port whose formula gives a self-loop stays dark);
//   graph=circulant: i -> i + g for k generators g, the k-set of 1..n-1 with
//     the least total hop distance from node 0 (the uniform all-to-all's hop
//     count, so the best bound on its throughput), ties lexicographically
//     smallest; searched exhaustively up to 20000 sets, else grown greedily
//     one generator at a time by the same measure;
//   graph=auto (default): the one with the higher max-concurrent-flow
//     throughput theta on this demand, ties circulant.
// For k = 1 both are the n-cycle (Generalized Kautz of degree 1 would be
// disconnected), as the paper notes. Routing (concurrent_routing.h): the
// max-concurrent-flow path decomposition, each pair's bytes split over its
// paths in proportion to their flow.
// The whole all-to-all is ONE round: every flow starts at once and shares
// circuits, as a static multipath design actually runs. That round is not
// contention-free by design; the planner's alpha_beta_congestion prediction
// (busiest circuit vs longest route) is its cost, and hop_sum() (the longest
// route) is not. d = 1. Directed circuits only.
#include <string>
#include <vector>

#include "schedules/alltoall/joint_synthesizer.h"

namespace photonsim {

class DirectconnectBaseline : public JointSynthesizer {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  std::vector<AlltoallStrategy> strategies(const JointInput& input, std::optional<int> only) const override;
  // The circulant generators described above, for n GPUs and degree k.
  static std::vector<int> circulant_generators(int gpus, int degree);
};

}  // namespace photonsim
