#pragma once
// Contract: `rdc`, the all-to-all paper's ReconfigureDuringCollective: for
// every d, a sequence of d topologies and contention-free rounds where each
// flow takes the topology with its shortest path and flows of equal hop
// count on a topology form a round.
//   k = 1 (fabric.ports): shifted rings of the base n-cycle (section 4.3),
//     shift sets from RingShiftSearch.
//   k > 1: a Circulant base and a Generalized Kautz base, each scheduled as
//     section 4.2 says and extended by contraction (section 4.3); for every d
//     the one with the smaller hop sum is kept, or the one named by
//     the `base` parameter. `base: auto` builds the Generalized Kautz
//     family up to kGenKautzAutoLimit GPUs only: its contraction search
//     reschedules every pair per contraction, about n^3.5 time (a minute at
//     n = 256, hours at 1024), while the Circulant family is O(n k d) values
//     per d. Both go one d at a time in O(n^2) memory.
// Varied flow sizes: the labels are permuted so that large flows share rounds
// (section 4.4, flow_relabelling.h) for n <= 128. Directed circuits only.
// `merge: true` (ours, off by default) then merges consecutive rounds on a
// topology while that lowers the predicted time (round_merging.h): the
// paper's contention-free rounds are optimal for one-chunk flows, not for
// flows of many chunks.
#include "schedules/alltoall/joint_synthesizer.h"

namespace photonsim {

class Rdc : public JointSynthesizer {
 public:
  static constexpr int kGenKautzAutoLimit = 256;

  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  std::vector<AlltoallStrategy> strategies(const JointInput& input, std::optional<int> only) const override;
  // One d at a time (k = 1: each d's shifted rings are independent; k > 1:
  // the two families in step); strategies() collects this stream.
  void for_each_strategy(const JointInput& input, std::optional<int> only,
                         const std::function<void(AlltoallStrategy&&)>& visit) const override;
  // k = 1 on a uniform demand without `merge`: the shifted rings' outlines.
  bool for_each_outline(const JointInput& input, std::optional<int> only,
                        const std::function<void(StrategyOutline&&)>& visit) const override;

 private:
  // k > 1: both families in step, one d at a time (the better per d).
  void for_each_degree_k_strategy(const JointInput& input, std::optional<int> only,
                                  const std::function<void(AlltoallStrategy&&)>& visit) const;
  void check_input(const JointInput& input) const;
};

}  // namespace photonsim
