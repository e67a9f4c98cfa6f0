#include "core/spec/fabric_spec.h"

namespace photonsim {

const char* to_string(CircuitKind kind) { return name_of(kCircuitKindNames, kind); }
const char* to_string(RouterMode mode) { return name_of(kRouterModeNames, mode); }
const char* to_string(EgressOrder order) { return name_of(kEgressOrderNames, order); }
const char* to_string(SyncMode mode) { return name_of(kSyncModeNames, mode); }
const char* to_string(ReconfigurationScope scope) { return name_of(kReconfigurationScopeNames, scope); }
const char* to_string(CommunicationPriority priority) { return name_of(kCommunicationPriorityNames, priority); }
const char* to_string(BandwidthScope scope) { return name_of(kBandwidthScopeNames, scope); }

}  // namespace photonsim
