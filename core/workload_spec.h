#pragma once
// Contract: what the collective moves (YAML `workload.*`). `message` is the
// per-GPU buffer of the collective, except for all-to-all where it is the
// size of each (source, destination) flow, as in the all-to-all paper.
#include <string>

#include "core/units.h"

namespace photonsim {

enum class Collective { alltoall, allreduce, reducescatter, allgather, broadcast };

struct WorkloadSpec {
  Collective collective = Collective::alltoall;
  Bytes message;   // > 0
  Bytes chunk;     // scheduling unit inside a transfer; 0 = the whole transfer is one chunk
  int root = 0;    // broadcast root
};

const char* to_string(Collective c);
// Throws Error listing the valid names.
Collective parse_collective(const std::string& name);

}  // namespace photonsim
