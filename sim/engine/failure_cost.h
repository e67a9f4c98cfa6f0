#pragma once
// Contract: what one entry of fabric.failures cost a run, as the engine
// measured it (docs/model.md "Failures"). Only the fields of its kind mean
// anything: a reconfiguration entry counts the switch commands it lengthened
// and the dark time it added (extra_delay per command); a straggler entry
// counts the compute nodes it slowed and the time it added to them (slowed
// minus nominal duration, summed). An entry that struck nothing has zeros.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/spec/failure_spec.h"
#include "core/time.h"
#include "sim/engine/network/network_stats.h"

namespace photonsim {

struct FailureCost {
  size_t entry = 0;  // its index in fabric.failures
  FailureKind kind = FailureKind::reconfiguration;
  uint64_t commands = 0;      // reconfiguration: switch commands for its step, each extra_delay longer
  Time extra_dark;            // reconfiguration: commands x extra_delay
  uint64_t nodes = 0;         // straggler: compute nodes on its GPU (each the slowest of its GPUs)
  Time slowed_compute;        // straggler: what it added to their durations
  uint64_t lost_packets = 0;  // port, flap, switch: packets lost in its interval (docs/model.md, "Lost circuits")
  int64_t lost_bytes = 0;
  bool operator==(const FailureCost&) const = default;
};

// Entry `entry`'s cost before the run: nothing yet.
inline FailureCost no_cost_yet(size_t entry, FailureKind kind) {
  FailureCost cost;
  cost.entry = entry;
  cost.kind = kind;
  return cost;
}

// Each port, flap and switch entry's losses (NetworkStats::lost_by_entry),
// and each link and mzi entry (an MZI the plan routed around loses nothing at
// run time), joins `costs`, which stays in the entries' order.
inline void add_lost_circuit_costs(const FailureSpec& spec, const NetworkStats& network,
                                   std::vector<FailureCost>& costs) {
  bool added = false;
  for (size_t i = 0; i < spec.entries.size(); ++i) {
    const FailureKind kind = spec.entries[i].kind;
    if (!takes_circuits_down(kind) && kind != FailureKind::link && kind != FailureKind::mzi) continue;
    FailureCost cost = no_cost_yet(i, kind);
    if (i < network.lost_by_entry.size()) {
      cost.lost_packets = network.lost_by_entry[i].packets;
      cost.lost_bytes = network.lost_by_entry[i].bytes;
    }
    costs.push_back(cost);
    added = true;
  }
  if (added) {
    std::stable_sort(costs.begin(), costs.end(),
                     [](const FailureCost& a, const FailureCost& b) { return a.entry < b.entry; });
  }
}

}  // namespace photonsim
