#pragma once
// Contract: the all-to-all paper's optimisation for varied flow sizes
// (section 4.4): a strategy built on virtual labels groups pairs into rounds;
// relabel() picks which GPU takes which label so that large flows share
// rounds, minimising sum over rounds of weight x the round's largest flow
// (a round lasts as long as its largest flow). Pairwise swaps, first
// improvement, at most `passes` sweeps; deterministic. Returns label -> GPU.
// With uniform demand it returns the identity.
#include <vector>

#include "core/units.h"
#include "topology/topology.h"

namespace photonsim {

struct LabelledRound {
  std::vector<Edge> pairs;  // (source label, destination label)
  int64_t weight = 1;
};

std::vector<Node> relabel(const std::vector<LabelledRound>& rounds, const std::vector<Bytes>& demand, int gpus,
                          int passes = 3);

}  // namespace photonsim
