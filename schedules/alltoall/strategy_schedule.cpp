#include "schedules/alltoall/strategy_schedule.h"

#include <algorithm>

#include "core/error.h"
#include "schedules/model/topology_catalog.h"

namespace photonsim {

namespace {

bool all_flows_equal(const StrategyRound& round) {
  return std::all_of(round.flows.begin(), round.flows.end(),
                     [&](const StrategyFlow& f) { return f.bytes == round.flows.front().bytes; });
}

// How many chunk waves a round runs as: its longest single-path (or implicit) flow in chunks.
int64_t wave_count(const StrategyRound& round, int64_t chunk) {
  int64_t waves = 1;
  for (const StrategyFlow& f : round.flows) {
    if (f.routes.size() <= 1) waves = std::max(waves, (f.bytes.count() + chunk - 1) / chunk);
  }
  return waves;
}

// Wave `wave` of a round (all of it when `waves` is false): bytes
// [wave*chunk, (wave+1)*chunk) of each single-path flow; multipath flows
// travel whole in the first wave. Adds what it sends to `delivered`.
Step round_step(const StrategyRound& round, int topology, bool waves, int64_t wave, int64_t chunk, Node n,
                std::vector<Bytes>& delivered) {
  Step step{topology, {}};
  for (const StrategyFlow& f : round.flows) {
    Transfer t;
    t.src = f.src;
    t.dst = f.dst;
    t.bytes = f.bytes;
    t.blocks = {f.src * n + f.dst};
    if (f.routes.size() <= 1) {
      if (!f.routes.empty()) t.path = f.routes.front().path;  // else the topology's shortest path
      if (waves) {
        const int64_t first = wave * chunk;
        if (first >= f.bytes.count()) continue;
        t.bytes = Bytes(std::min(chunk, f.bytes.count() - first));
      }
    } else {
      if (wave > 0) continue;
      t.routes = f.routes;
    }
    delivered[static_cast<size_t>(f.src) * n + f.dst] += t.bytes;
    step.transfers.push_back(std::move(t));
  }
  return step;
}

void check_delivered(const AlltoallStrategy& strategy, const std::vector<Bytes>& delivered,
                     const std::vector<Bytes>& demand, Node n) {
  for (Node s = 0; s < n; ++s) {
    for (Node d = 0; d < n; ++d) {
      const size_t pair = static_cast<size_t>(s) * n + d;
      if (delivered[pair] != demand[pair]) {
        throw Error("joint strategy '" + strategy.construction + "' delivers " +
                    std::to_string(delivered[pair].count()) + " bytes from node " + std::to_string(s) + " to node " +
                    std::to_string(d) + ", the workload asks " + std::to_string(demand[pair].count()));
      }
    }
  }
}

}  // namespace

bool runs_in_chunk_waves(const StrategyScheduleInput& input, bool contention_free_rounds, bool equal_flows) {
  if (input.workload.chunk.count() <= 0) return false;
  if (input.chunks == "waves") return true;
  // Rounds of unequal flows stream: waves would make every wave wait for its longest route.
  return input.chunks == "auto" && input.fabric.ports > 1 && contention_free_rounds && equal_flows;
}

Schedule strategy_schedule(const AlltoallStrategy& strategy, const StrategyScheduleInput& input) {
  const auto n = static_cast<Node>(input.fabric.gpus);
  TopologyCatalog catalog;
  ScheduleParts parts;
  parts.collective = input.workload.collective;
  parts.algorithm = input.algorithm;
  parts.planner = input.planner;
  parts.gpus = input.fabric.gpus;
  parts.message = input.workload.message;
  parts.blocks = n * n;
  parts.block_sizes = input.block_sizes;
  parts.root = input.workload.root;
  parts.initial_topology = input.initial ? catalog.index_of(*input.initial) : -1;
  std::vector<int> index_of_topology;
  for (const Topology& t : strategy.topologies) {
    t.check_ports(input.fabric);
    index_of_topology.push_back(catalog.index_of(t));
  }
  const int64_t chunk = input.workload.chunk.count();
  std::vector<Bytes> delivered(static_cast<size_t>(n) * n);
  int previous_topology = 0;
  for (const StrategyRound& round : strategy.rounds) {
    if (round.topology < previous_topology || round.topology >= strategy.configurations()) {
      throw Error("joint strategy '" + strategy.construction + "': rounds must follow the topology order");
    }
    previous_topology = round.topology;
    const int topology = index_of_topology[static_cast<size_t>(round.topology)];
    const bool waves = runs_in_chunk_waves(input, strategy.contention_free_rounds, all_flows_equal(round));
    const int64_t waves_in_round = waves ? wave_count(round, chunk) : 1;
    for (int64_t wave = 0; wave < waves_in_round; ++wave) {
      parts.steps.push_back(round_step(round, topology, waves, wave, chunk, n, delivered));
    }
  }
  check_delivered(strategy, delivered, input.demand, n);
  parts.topologies = catalog.take();
  return Schedule(std::move(parts));
}

}  // namespace photonsim
