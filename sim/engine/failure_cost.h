#pragma once
// Contract: what one entry of fabric.failures cost a run, as the engine
// measured it (docs/model.md "Failures"). Only the fields of its kind mean
// anything: a reconfiguration entry counts the switch commands it lengthened
// and the dark time it added (extra_delay per command); a straggler entry
// counts the compute nodes it slowed and the time it added to them (slowed
// minus nominal duration, summed). An entry that struck nothing has zeros.
#include <cstddef>
#include <cstdint>

#include "core/spec/failure_spec.h"
#include "core/time.h"

namespace photonsim {

struct FailureCost {
  size_t entry = 0;  // its index in fabric.failures
  FailureKind kind = FailureKind::reconfiguration;
  uint64_t commands = 0;  // reconfiguration: switch commands for its step, each extra_delay longer
  Time extra_dark;        // reconfiguration: commands x extra_delay
  uint64_t nodes = 0;     // straggler: compute nodes on its GPU (each the slowest of its GPUs)
  Time slowed_compute;    // straggler: what it added to their durations
  bool operator==(const FailureCost&) const = default;
};

// Entry `entry`'s cost before the run: nothing yet.
inline FailureCost no_cost_yet(size_t entry, FailureKind kind) {
  FailureCost cost;
  cost.entry = entry;
  cost.kind = kind;
  return cost;
}

}  // namespace photonsim
