#pragma once
// Contract: a joint all-to-all strategy as a Schedule: one step per round -
// or, in chunk waves, c steps for a round of flows of up to c chunks, step j
// carrying chunk j of every single-path flow - with explicit routes, block
// src*n+dst per pair (pairs split over rounds travel in pieces the verifier
// adds up). Rounds must follow the strategy's topology order and deliver
// exactly the demand, else Error naming the strategy. `chunks`: `pipelined`
// (the paper's htsim runs: a round sends all its chunks, no barrier between
// them), `waves`, or `auto`: waves for contention-free rounds of equal flows
// when k > 1 (there streamed chunk pipelines of flows sharing a circuit drift
// from TotalCost by a few percent), pipelined otherwise.
#include <optional>
#include <string>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/units.h"
#include "core/spec/workload_spec.h"
#include "schedules/alltoall/alltoall_strategy.h"
#include "schedules/model/schedule.h"
#include "topology/topology.h"

namespace photonsim {

struct StrategyScheduleInput {
  const FabricSpec& fabric;
  const WorkloadSpec& workload;
  const std::vector<Bytes>& demand;       // row-major n x n, zero diagonal
  const std::vector<Bytes>& block_sizes;  // empty: every block is workload.message
  std::string algorithm;
  std::string planner = "joint";
  std::optional<Topology> initial = std::nullopt;  // synthesis.topology: the first topology is free when equal
  std::string chunks = "auto";
};

Schedule strategy_schedule(const AlltoallStrategy& strategy, const StrategyScheduleInput& input);

// The `chunks` rule for one round: true when it runs as chunk waves (chunks
// set, and `waves`, or `auto` on k > 1 for a contention-free round of equal flows).
bool runs_in_chunk_waves(const StrategyScheduleInput& input, bool contention_free_rounds, bool equal_flows);

}  // namespace photonsim
