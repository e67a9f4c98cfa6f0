#pragma once
// Contract: Harvest's theta(G, M_i) with its path decomposition, solved once
// per (topology, normalised step demand) and kept for the cache's lifetime,
// and hop distances once per topology. Keys are TopologyHash plus the
// demand's shape (proportional byte matrices share one LP), so one cache can
// serve a whole sweep over message sizes and delays: neither changes theta.
// Not thread-safe; no global state (the owner passes it around).
#include <cstddef>
#include <unordered_map>
#include <vector>

#include "schedules/planners/harvest/harvest_step_demand.h"
#include "topology/max_concurrent_flow.h"
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
  struct Flow {
    // 1 / theta for the demand in units (HarvestStepDemand::entries), so a
    // step moves in beta * unit_bytes * inverse_theta: the paper's
    // beta * m_i / theta(G, M_i).
    double inverse_theta = 0.0;
    // l_i(G): the most hops on any decomposition path that carries flow (the
    // paper's "longest route" the step's data takes). 0 for an empty demand.
    int longest_hops = 0;
    std::vector<PairPaths> pairs;  // sorted by (src, dst)
  };

  // Throws Error (from max_concurrent_flow) when a pair with bytes has no route on `topology`.
  const Flow& flow(const Topology& topology, const HarvestStepDemand& demand);
  // hop_distances(topology), cached.
  const std::vector<std::vector<int>>& distances(const Topology& topology);

  size_t lp_solves() const { return lp_solves_; }
  size_t flow_lookups() const { return flow_lookups_; }

 private:
  struct Key {
    Topology topology;
    HarvestStepDemand demand;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return TopologyHash()(k.topology) * 0x9e3779b97f4a7c15ULL ^ k.demand.shape_hash();
    }
  };
  struct KeyEqual {
    bool operator()(const Key& a, const Key& b) const {
      return a.topology == b.topology && a.demand.same_shape(b.demand);
    }
  };

  std::unordered_map<Key, Flow, KeyHash, KeyEqual> flows_;
  std::unordered_map<Topology, std::vector<std::vector<int>>, TopologyHash> distances_;
  size_t lp_solves_ = 0;
  size_t flow_lookups_ = 0;
};

}  // namespace photonsim
