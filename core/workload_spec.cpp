#include "core/workload_spec.h"

#include "core/error.h"

namespace photonsim {

const char* to_string(Collective c) {
  switch (c) {
    case Collective::alltoall: return "alltoall";
    case Collective::allreduce: return "allreduce";
    case Collective::reducescatter: return "reducescatter";
    case Collective::allgather: return "allgather";
    case Collective::broadcast: return "broadcast";
  }
  return "?";
}

Collective parse_collective(const std::string& name) {
  for (Collective c : {Collective::alltoall, Collective::allreduce, Collective::reducescatter,
                       Collective::allgather, Collective::broadcast}) {
    if (name == to_string(c)) return c;
  }
  throw Error("unknown collective '" + name +
              "' (valid: alltoall, allreduce, reducescatter, allgather, broadcast)");
}

}  // namespace photonsim
