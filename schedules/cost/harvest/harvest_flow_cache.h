#pragma once
// Contract: Harvest's theta(G, M_i) with its path decomposition, solved once
// per (topology, normalised step demand) and kept for the cache's lifetime.
// Keys are the topology plus the demand's shape (proportional byte matrices
// share one LP), so one cache can serve a whole sweep over message sizes and
// delays: neither changes theta. Each distinct topology and shape is stored
// once and named by a dense id, so callers that ask many (topology, step)
// pairs hash each only once. Where every GPU has one circuit out, theta and
// l_i come from harvest_forced_flow (no LP, no n x n tables) and the cache
// keeps only those two numbers: flow() rebuilds the paths on request (the
// planner asks for the steps it has placed, once each). Otherwise the LP's
// paths are kept with its theta. Not thread-safe; no global state (the owner
// passes it around).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "schedules/cost/harvest/harvest_cycles.h"
#include "schedules/cost/harvest/harvest_step_demand.h"
#include "topology/flow/max_concurrent_flow.h"
#include "topology/topology.h"
#include "topology/topology_hash.h"

namespace photonsim {

class HarvestFlowCache {
 public:
  struct PairPaths {
    Node src = 0;
    Node dst = 0;
    std::vector<FlowPath> paths;  // the decomposition's paths that carry flow
  };
  // What a step costs on a topology, without the paths.
  struct Cost {
    // 1 / theta for the demand in units (HarvestStepDemand::entries), so a
    // step moves in beta * unit_bytes * inverse_theta: the paper's
    // beta * m_i / theta(G, M_i).
    double inverse_theta = 0.0;
    // l_i(G): the most hops on any decomposition path that carries flow (the
    // paper's "longest route" the step's data takes). 0 for an empty demand.
    int longest_hops = 0;
    // The same two numbers when every pair takes its one shortest path (the
    // simulator's route for a transfer without routes): the busiest
    // circuit's units and the farthest pair's hops. The LP maximises
    // throughput whatever the path lengths, so for a latency-bound step its
    // long detours can cost more than the shortest paths; a cost model may
    // take either. Equal to the LP's where every GPU has one circuit out.
    double shortest_inverse_theta = 0.0;
    int shortest_hops = 0;
  };
  struct Flow {
    double inverse_theta = 0.0;           // as Cost
    int longest_hops = 0;                 // as Cost
    std::vector<PairPaths> pairs;         // sorted by (src, dst)
    double shortest_inverse_theta = 0.0;  // as Cost
    int shortest_hops = 0;                // as Cost
  };

  // Dense ids, equal for equal topologies (circuit multisets) and for
  // proportional demands.
  size_t topology_id(const Topology& topology);
  size_t shape_id(const HarvestStepDemand& demand);
  const Topology& topology(size_t id) const { return *topologies_[id].topology; }
  // The topology's cycles when every GPU has exactly one circuit out and one in; else null.
  const HarvestCycles* cycles(size_t id) const { return topologies_[id].cycles ? &*topologies_[id].cycles : nullptr; }

  // Throw Error (from max_concurrent_flow) when a pair with bytes has no route on the topology.
  Cost cost(size_t topology, size_t shape);
  // By value: a forced flow is built for the caller and not kept.
  Flow flow(size_t topology, size_t shape);
  Cost cost(const Topology& topology, const HarvestStepDemand& demand) {
    return cost(topology_id(topology), shape_id(demand));
  }
  Flow flow(const Topology& topology, const HarvestStepDemand& demand) {
    return flow(topology_id(topology), shape_id(demand));
  }

  // Thetas computed (by LP or, one circuit out of every GPU, by the forced walks).
  size_t lp_solves() const { return lp_solves_; }
  size_t flow_lookups() const { return flow_lookups_; }

 private:
  struct ShapeHash {
    size_t operator()(const HarvestStepDemand& d) const { return d.shape_hash(); }
  };
  struct ShapeEqual {
    bool operator()(const HarvestStepDemand& a, const HarvestStepDemand& b) const { return a.same_shape(b); }
  };
  struct StoredTopology {
    const Topology* topology = nullptr;  // the key in topology_ids_
    bool forced = false;                 // one circuit out of every GPU
    std::optional<HarvestCycles> cycles;
  };
  static uint64_t key(size_t topology, size_t shape) { return (static_cast<uint64_t>(topology) << 32) | shape; }
  Flow solve(size_t topology, size_t shape, bool with_paths) const;

  std::unordered_map<Topology, size_t, TopologyHash> topology_ids_;
  std::vector<StoredTopology> topologies_;
  std::unordered_map<HarvestStepDemand, size_t, ShapeHash, ShapeEqual> shape_ids_;
  std::vector<const HarvestStepDemand*> shapes_;  // keys in shape_ids_
  std::unordered_map<uint64_t, Cost> costs_;
  std::unordered_map<uint64_t, Flow> flows_;  // LP flows only
  size_t lp_solves_ = 0;
  size_t flow_lookups_ = 0;
};

}  // namespace photonsim
