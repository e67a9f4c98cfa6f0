#pragma once
// Contract: pipelined binary-tree broadcast from workload.root for any n >= 2.
// The message is cut into S = ceil(message / workload.chunk) segments (one
// when chunk is 0), sized by block_bytes (they differ by at most one byte and
// none exceeds chunk); block b is segment b. The tree is heap-shaped on
// relative ranks v = (node - root) mod n: the children of v are 2v+1 and 2v+2,
// so v sits at depth floor(log2(v+1)) and the tree has depth
// D = floor(log2 n). In step t every inner node at depth d with
// 0 <= t - d < S sends segment t - d to both its children in the same step
// (the root starts segment t at step t; a node forwards a segment the step
// after receiving it). The last segment reaches the deepest leaf at step
// D + S - 2, so there are D + S - 1 steps. Sending to both children at once
// needs two transmit ports (directed circuits) or three circuits per inner
// node (bidirectional: parent and both children); with fewer the every_step
// planner splits each step (left children first), which on one directed port
// is the one-child-per-step schedule.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class BroadcastBinaryTree : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
