#pragma once
// Contract: a joint strategy described by its rounds' shapes instead of its
// flows - O(rounds) values where the strategy itself holds every route - for
// choosing d without building every d's strategy. Each round's flows all carry
// `bytes` over `hops` circuits and its busiest circuit carries
// `transfers_on_busiest_circuit` of them; rounds come in the order the
// strategy lists them; topologies are pairwise distinct, built or named on
// demand (index 0..configurations-1). An outline stands for exactly the
// strategy the same synthesizer builds for the same d.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/units.h"
#include "topology/topology.h"

namespace photonsim {

struct RoundOutline {
  int topology = 0;
  int hops = 0;
  Bytes bytes;  // every flow's
  int64_t transfers_on_busiest_circuit = 0;
};

struct StrategyOutline {
  std::string construction;
  int configurations = 0;  // the paper's d
  std::vector<RoundOutline> rounds;
  bool contention_free_rounds = true;             // as AlltoallStrategy's
  std::function<Topology(int)> topology;          // topology i, built
  std::function<std::string(int)> topology_name;  // its name, without building it

  int64_t hop_sum() const;  // as AlltoallStrategy::hop_sum()
};

}  // namespace photonsim
