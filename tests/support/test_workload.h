#pragma once
// Contract (tests): the workload most tests run - one collective of
// `message_bytes` (per (source, destination) flow for all-to-all, else the
// per-GPU buffer), broadcast from `root`, one chunk per transfer, uniform
// flows - so a test states only what it changes: with_chunk() and
// with_distribution() return a copy with that one field set.
#include <cstdint>

#include "core/spec/workload_spec.h"

namespace photonsim::testing_support {

inline WorkloadSpec test_workload(Collective collective, int64_t message_bytes, int root = 0) {
  WorkloadSpec w;
  w.collective = collective;
  w.message = Bytes(message_bytes);
  w.root = root;
  return w;
}

// `workload` cut into chunks of `chunk_bytes` (0 = the whole transfer is one chunk).
inline WorkloadSpec with_chunk(WorkloadSpec workload, int64_t chunk_bytes) {
  workload.chunk = Bytes(chunk_bytes);
  return workload;
}

// `workload` with all-to-all flow sizes drawn from `distribution`.
inline WorkloadSpec with_distribution(WorkloadSpec workload, FlowDistribution distribution) {
  workload.distribution = distribution;
  return workload;
}

}  // namespace photonsim::testing_support
