#pragma once
// Contract: what the collective moves (YAML `workload.*`). `message` is the
// per-GPU buffer of the collective, except for all-to-all where it is the
// size of each (source, destination) flow, as in the all-to-all paper.
#include <string>

#include "core/enum_names.h"
#include "core/units.h"

namespace photonsim {

enum class Collective { alltoall, allreduce, reducescatter, allgather, broadcast };

// How all-to-all flow sizes vary between (source, destination) pairs
// (YAML `workload.distribution`); see core/spec/flow_sizes.h.
enum class FlowDistribution { uniform, random, zipf };

inline constexpr EnumName<Collective> kCollectiveNames[] = {{Collective::alltoall, "alltoall"},
                                                            {Collective::allreduce, "allreduce"},
                                                            {Collective::reducescatter, "reducescatter"},
                                                            {Collective::allgather, "allgather"},
                                                            {Collective::broadcast, "broadcast"}};
inline constexpr EnumName<FlowDistribution> kFlowDistributionNames[] = {
    {FlowDistribution::uniform, "uniform"}, {FlowDistribution::random, "random"}, {FlowDistribution::zipf, "zipf"}};

struct WorkloadSpec {
  Collective collective = Collective::alltoall;
  Bytes message;  // > 0
  Bytes chunk;    // scheduling unit inside a transfer; 0 = the whole transfer is one chunk
  int root = 0;   // broadcast root
  FlowDistribution distribution = FlowDistribution::uniform;  // all-to-all only
  double zipf_factor = 0.4;  // skew of FlowDistribution::zipf, >= 0 (the all-to-all paper's 0.4)
};

const char* to_string(Collective c);
// Throws Error listing the valid names.
Collective parse_collective(const std::string& name);
const char* to_string(FlowDistribution d);
// Throws Error listing the valid names.
FlowDistribution parse_flow_distribution(const std::string& name);

}  // namespace photonsim
