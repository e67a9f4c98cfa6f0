#include "core/fabric_spec.h"

namespace photonsim {

const char* to_string(CircuitKind kind) { return name_of(kCircuitKindNames, kind); }
const char* to_string(RouterMode mode) { return name_of(kRouterModeNames, mode); }
const char* to_string(EgressOrder order) { return name_of(kEgressOrderNames, order); }

}  // namespace photonsim
