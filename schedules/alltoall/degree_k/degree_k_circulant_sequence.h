#pragma once
// Contract: the degree-k Circulant family of degree_k_strategies (sections
// 4.2-4.3) on labels 0..n-1, one strategy per d = 1, 2, ... (or only d =
// `only`). d = 1 is circulant_base(). Topology t+1 contracts the round with
// the most hops (ties: the later round): the offsets its reference sequences
// lead to become the generators of a new circulant, so every node gets a
// direct circuit to each destination of that round, one per node and offset,
// within the port limits (a round holds at most k sequences). Then every
// offset takes the topology where it has the fewest hops (ties: the earlier
// topology) and each topology is packed again by DegreeKReferencePacker; that
// rescheduled strategy is kept when it beats the old rounds minus the
// contracted round plus one 1-hop round of it on the new topology; either is
// dropped when it leaves a topology without a round. When neither saves
// hops, the next-longest rounds are tried (4 in all); the sequence stops when
// none saves, when no round has more than one hop, or at d = n - 1.
// Topologies are named "circulant(g1,g2,...)"; flows carry Bytes(1).
// for_each_circulant_stage() hands each d's reference rounds (O(n k d)
// values, where the strategy holds n paths per reference sequence) in order
// up to `last_d`; circulant_outline() describes that d's strategy, every flow
// carrying `bytes`, without building it.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/units.h"
#include "core/work_progress.h"
#include "schedules/alltoall/alltoall_strategy.h"
#include "schedules/alltoall/degree_k/degree_k_reference_packer.h"
#include "schedules/alltoall/strategy_outline.h"

namespace photonsim {

struct CirculantStage {
  int configurations = 0;                                  // d
  const std::vector<std::vector<ReferenceRound>>& rounds;  // per topology, fewer hops first
  const std::vector<DegreeKReferencePacker>& packers;      // per topology: its generators
};

// `progress` hears how the base (d = 1) is found.
void for_each_circulant_stage(int gpus, int ports, uint64_t seed, int last_d,
                              const std::function<void(const CirculantStage&)>& visit,
                              WorkProgress* progress = nullptr);
AlltoallStrategy circulant_strategy(const CirculantStage& stage);
// The same from a copy of a stage: its rounds and each topology's generators.
AlltoallStrategy circulant_strategy(int gpus, const std::vector<std::vector<ReferenceRound>>& rounds,
                                    const std::vector<std::vector<int>>& generators);
std::vector<AlltoallStrategy> circulant_sequence(int gpus, int ports, uint64_t seed, std::optional<int> only);
StrategyOutline circulant_outline(const CirculantStage& stage, Bytes bytes);

}  // namespace photonsim
