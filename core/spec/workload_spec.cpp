#include "core/spec/workload_spec.h"

#include "core/error.h"

namespace photonsim {

const char* to_string(Collective c) { return name_of(kCollectiveNames, c); }

Collective parse_collective(const std::string& name) {
  if (const auto c = value_named(kCollectiveNames, name)) return *c;
  throw Error("unknown collective " + quoted(name) + " (valid: " + names_of(kCollectiveNames) + ")");
}

const char* to_string(FlowDistribution d) { return name_of(kFlowDistributionNames, d); }

FlowDistribution parse_flow_distribution(const std::string& name) {
  if (const auto d = value_named(kFlowDistributionNames, name)) return *d;
  throw Error("unknown distribution " + quoted(name) + " (valid: " + names_of(kFlowDistributionNames) + ")");
}

}  // namespace photonsim
