#pragma once
// Contract: an immutable schedule value: the collective, who made it, the
// topologies it uses, its steps (each naming a topology), and the maker's
// prediction. A step reconfigures the fabric when its topology differs (by
// circuits, not by name) from the one in place; initial_topology() is what
// the fabric holds before step 0 (-1: no circuits, so step 0 pays alpha_r).
#include <string>
#include <vector>

#include "core/units.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/prediction.h"
#include "schedules/model/step.h"
#include "topology/topology.h"

namespace photonsim {

struct ScheduleParts {
  Collective collective = Collective::alltoall;
  std::string algorithm;
  std::string planner;
  int gpus = 0;
  Bytes message;
  // Block numbering (a contract with the verifier): all-to-all: src * n + dst
  // (blocks = n*n), or with block_parts P > 1 every flow cut in P parts,
  // part p of (src, dst) numbered (src * n + dst) * P + p (blocks = n*n*P); all-gather: block i starts at node i
  // (with block_parts P > 1: blocks = n*P, block i starts at node i / P, as
  // MSCCL's several chunks per GPU); broadcast: blocks
  // (segments) start at `root`; reduce-scatter / AllReduce: every node holds its
  // own contribution to every block, and block b ends fully reduced at node b
  // (reduce-scatter; with block_parts P > 1, blocks = n*P ending at node b / P)
  // or everywhere (AllReduce).
  uint32_t blocks = 0;
  // Per-block bytes when blocks differ in size (an all-to-all whose flows have
  // their own sizes, workload.distribution); empty = the numbering's sizes
  // (all-to-all: `message` each; others: schedules/model/block_sizes.h).
  std::vector<Bytes> block_sizes;
  // All-to-all: the parts each flow is cut into (ReTri's mirrored Bridge
  // halves every flow); part p carries block_bytes(message, P, p). All-gather
  // and reduce-scatter: the blocks each node owns (the buffer is cut into n*P
  // blocks, block_bytes(message, n*P, b)).
  uint32_t block_parts = 1;
  // An MSCCL coll="custom" program run under `collective`: it has no
  // post-condition, so the verifier does not prove it (and says so).
  bool custom = false;
  int root = 0;
  int initial_topology = -1;
  std::vector<Topology> topologies;
  std::vector<Step> steps;
  Prediction prediction;
};

class Schedule {
 public:
  // Throws Error if a step or the initial topology names a missing topology,
  // a transfer names a node outside 0..gpus-1, or an explicit path does not
  // run from src to dst.
  explicit Schedule(ScheduleParts parts);

  Collective collective() const { return p_.collective; }
  const std::string& algorithm() const { return p_.algorithm; }
  const std::string& planner() const { return p_.planner; }
  int gpus() const { return p_.gpus; }
  Bytes message() const { return p_.message; }
  uint32_t blocks() const { return p_.blocks; }
  const std::vector<Bytes>& block_sizes() const { return p_.block_sizes; }
  uint32_t block_parts() const { return p_.block_parts; }
  bool custom() const { return p_.custom; }
  // The bytes of block b (b < blocks()).
  Bytes block_size(uint32_t b) const;
  int root() const { return p_.root; }
  int initial_topology() const { return p_.initial_topology; }
  const std::vector<Topology>& topologies() const { return p_.topologies; }
  const std::vector<Step>& steps() const { return p_.steps; }
  const Prediction& prediction() const { return p_.prediction; }

  // Everything the schedule holds, e.g. to derive a modified schedule.
  const ScheduleParts& parts() const { return p_; }

  // The same schedule carrying `prediction` (one entry per step); from an
  // rvalue the steps move instead of being copied.
  Schedule with_prediction(Prediction prediction) const&;
  Schedule with_prediction(Prediction prediction) &&;

  // True when step i must reconfigure (its circuits differ from those in place).
  bool reconfigures_before(size_t step) const;
  int reconfigurations() const;

 private:
  ScheduleParts p_;
};

}  // namespace photonsim
