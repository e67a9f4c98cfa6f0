#pragma once
// Contract: the smallest config the loader accepts: only the required keys
// (a 4-GPU all-to-all of 1 MB, algorithm direct), every other key at its
// default. Its line numbers are stated because tests expect errors at them.
namespace photonsim {

constexpr const char* kMinimalConfig =
    "fabric:\n"                 // 1
    "  gpus: 4\n"               // 2
    "  bandwidth: 450GB/s\n"    // 3
    "  latency: 0ns\n"          // 4
    "workload:\n"               // 5
    "  collective: alltoall\n"  // 6
    "  message: 1MB\n"          // 7
    "synthesis:\n"              // 8
    "  algorithm: direct\n";    // 9

}  // namespace photonsim
