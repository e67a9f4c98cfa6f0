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
  throw Error("unknown collective " + quoted(name) +
               " (valid: alltoall, allreduce, reducescatter, allgather, broadcast)");
}

const char* to_string(FlowDistribution d) {
  switch (d) {
    case FlowDistribution::uniform: return "uniform";
    case FlowDistribution::random: return "random";
    case FlowDistribution::zipf: return "zipf";
  }
  return "?";
}

FlowDistribution parse_flow_distribution(const std::string& name) {
  for (FlowDistribution d : {FlowDistribution::uniform, FlowDistribution::random, FlowDistribution::zipf}) {
    if (name == to_string(d)) return d;
  }
  throw Error("unknown distribution " + quoted(name) + " (valid: uniform, random, zipf)");
}

}  // namespace photonsim
