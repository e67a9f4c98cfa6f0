#include "core/spec/failure_spec.h"

namespace photonsim {

const char* to_string(FailureKind kind) { return name_of(kFailureKindNames, kind); }
const char* to_string(FailurePolicy policy) { return name_of(kFailurePolicyNames, policy); }

bool takes_circuits_down(FailureKind kind) {
  return kind == FailureKind::port || kind == FailureKind::flap || kind == FailureKind::optical_switch;
}

}  // namespace photonsim
