#pragma once
// Contract: the all-to-all traffic matrix a workload asks for, row-major
// n x n with a zero diagonal: entry (s, t) is the bytes GPU s sends to GPU t.
// The mean over the n(n-1) flows is workload.message (exactly, for uniform and
// zipf; in expectation for random), every flow carries at least one byte, and
// the same (workload, n, seed) gives the same matrix on every platform.
//   uniform: every flow is `message` bytes.
//   random:  each flow drawn uniformly from [1, 2*message - 1] bytes (the
//            all-to-all paper's "uniform distribution" of flow sizes).
//   zipf:    the flows are ranked by a seeded shuffle; the flow of rank r
//            (1-based) gets weight r^-zipf_factor, scaled so the total is
//            n(n-1)*message (a few elephants, many mice; the all-to-all
//            paper's Zipfian workload with factor 0.4, after FAST).
#include <cstdint>
#include <vector>

#include "core/units.h"
#include "core/spec/workload_spec.h"

namespace photonsim {

std::vector<Bytes> alltoall_flow_sizes(const WorkloadSpec& workload, int gpus, uint64_t seed);

}  // namespace photonsim
