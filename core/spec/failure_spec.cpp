#include "core/spec/failure_spec.h"

namespace photonsim {

const char* to_string(FailureKind kind) { return name_of(kFailureKindNames, kind); }
const char* to_string(FailurePolicy policy) { return name_of(kFailurePolicyNames, policy); }

}  // namespace photonsim
